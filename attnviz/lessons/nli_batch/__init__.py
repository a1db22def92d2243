"""The NLI page's file view: a whole evaluation file scored and browsed.

A part of the `nli` lesson's view: its only module is `view.py`, which `nli/view.py`
composes. It declares no page (no LESSON)."""
