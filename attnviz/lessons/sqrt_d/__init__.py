"""Why scale by sqrt(d): the variance of q·k, softmax saturation and vanishing gradients."""

from attnviz.lessons import Lesson

LESSON = Lesson(
    name="sqrt_d",
    script="pages/4_Why_sqrt_d.py",
    icon=":material/functions:",
    nav="sqrt_d.nav",
    title="sqrt_d.title",
    intro="sqrt_d.intro",
    tour="sqrt_d.tour",
)
