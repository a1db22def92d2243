"""Generation: a causal language model writing text token by token, the attention row that
predicted each token in every layer and head, and its key/value cache growing."""

from attnviz.lessons import Lesson

LESSON = Lesson(
    name="generation",
    script="pages/11_Generation.py",
    icon=":material/edit_note:",
    nav="generation.nav",
    title="generation.title",
    intro="generation.intro",
    tour="generation.tour",
)
