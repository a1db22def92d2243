"""Kernel regression: Nadaraya-Watson as attention whose only parameter is a bandwidth."""

from attnviz.lessons import Lesson

LESSON = Lesson(
    name="kernels",
    script="pages/5_Kernel_regression.py",
    icon=":material/show_chart:",
    nav="kernels.nav",
    title="kernels.title",
    intro="kernels.intro",
    tour="kernels.tour",
)
