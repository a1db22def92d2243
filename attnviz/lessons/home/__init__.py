"""The landing page: the idea of attention, one picture, a tiny live example, the tour."""

from attnviz.lessons import Lesson

LESSON = Lesson(
    name="home",
    script="dashboard.py",
    icon=":material/home:",
    nav="home.nav",
    title="home.title",
    intro="home.intro",
)
