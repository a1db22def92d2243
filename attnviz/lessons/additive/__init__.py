"""Additive attention (Bahdanau et al. 2015): a learned score for queries and keys of any sizes."""

from attnviz.lessons import Lesson

LESSON = Lesson(
    name="additive",
    script="pages/3_Additive_attention.py",
    icon=":material/add:",
    nav="additive.nav",
    title="additive.title",
    intro="additive.intro",
    tour="additive.tour",
)
