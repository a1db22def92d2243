"""The Across layers page's head finder and its ablations.

A part of the `across` lesson's view: its only module is `view.py`, which `across/view.py`
composes. It declares no page (no LESSON)."""
