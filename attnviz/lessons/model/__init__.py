"""Model attention: the real heads of all-MiniLM-L6-v2 reading a sentence or a pair."""

from attnviz.lessons import Lesson

LESSON = Lesson(
    name="model",
    script="pages/8_Model_attention.py",
    icon=":material/hub:",
    nav="model.nav",
    title="model.title",
    intro="model.intro",
    tour="model.tour",
)
