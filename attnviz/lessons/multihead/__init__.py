"""Multi-head self-attention over the tokens of a sentence, with sinusoidal positions."""

from attnviz.lessons import Lesson

LESSON = Lesson(
    name="multihead",
    script="pages/6_Multi_head.py",
    icon=":material/view_module:",
    nav="multihead.nav",
    title="multihead.title",
    intro="multihead.intro",
    tour="multihead.tour",
)
