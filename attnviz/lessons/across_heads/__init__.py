"""The Across layers page's head statistics.

A part of the `across` lesson's view: its only module is `view.py`, which `across/view.py`
composes. It declares no page (no LESSON)."""
