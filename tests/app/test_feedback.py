"""The progress bar's words: the percentage, and the time left at the pace so far."""

from __future__ import annotations

from attnviz.app.feedback import progress_text


def test_the_time_left_follows_the_pace_so_far() -> None:
    assert progress_text("Saliency", 0.0, 0.0) == "Saliency 0%"
    assert progress_text("Saliency", 0.02, 3.0) == "Saliency 2%"  # too early to say
    assert progress_text("Saliency", 0.5, 0.4) == "Saliency 50%"  # too fast to say
    assert progress_text("Saliency", 0.25, 10.0) == "Saliency 25% (about 30 s left)"
    assert progress_text("Saliency", 0.99, 99.0) == "Saliency 99% (about 1 s left)"
    assert progress_text("Saliency", 1.0, 50.0) == "Saliency 100%"
