"""Playground: queries, keys and values in; raw scores, masks, weights and outputs out."""

from attnviz.lessons import Lesson

LESSON = Lesson(
    name="playground",
    script="pages/1_Playground.py",
    icon=":material/grid_on:",
    nav="playground.nav",
    title="playground.title",
    intro="playground.intro",
    tour="playground.tour",
)
