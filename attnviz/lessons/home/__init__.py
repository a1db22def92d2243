"""The landing page: what attention is, one picture, a tiny live example, the tour."""

from attnviz.lessons import Lesson

LESSON = Lesson(
    name="home",
    script="dashboard.py",
    icon=":material/home:",
    nav="home.nav",
    title="home.title",
    intro="home.intro",
)
