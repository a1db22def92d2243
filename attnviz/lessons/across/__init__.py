"""Across layers: attention rollout and flow, head statistics, and gradient saliency beside
attention, for all-MiniLM-L6-v2."""

from attnviz.lessons import Lesson

LESSON = Lesson(
    name="across",
    script="pages/10_Across_layers.py",
    icon=":material/stacked_line_chart:",
    nav="across.nav",
    title="across.title",
    intro="across.intro",
    tour="across.tour",
)
