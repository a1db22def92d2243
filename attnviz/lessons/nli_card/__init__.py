"""The NLI page's verdict and model card.

A part of the `nli` lesson's view: its only module is `view.py`, which `nli/view.py`
composes. It declares no page (no LESSON)."""
