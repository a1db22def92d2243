"""Activation patching: a corrupted prompt read with one activation from the clean run, every
head and every (layer, position) of the residual stream, attention and MLP outputs, as the
share of the logit difference each patch recovers."""

from attnviz.lessons import Lesson

LESSON = Lesson(
    name="patching",
    script="pages/12_Activation_patching.py",
    icon=":material/healing:",
    nav="patching.nav",
    title="patching.title",
    intro="patching.intro",
    tour="patching.tour",
)
