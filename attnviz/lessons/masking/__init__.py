"""Masking: a padded batch with valid lengths, causal and hand-picked masks, the fill value."""

from attnviz.lessons import Lesson

LESSON = Lesson(
    name="masking",
    script="pages/2_Masking.py",
    icon=":material/visibility_off:",
    nav="masking.nav",
    title="masking.title",
    intro="masking.intro",
    tour="masking.tour",
)
