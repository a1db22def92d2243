"""What the Across layers page's parts share: results kept under a progress bar, the
first-token switch.

A part of the `across` lesson's view: its only module is `view.py`, which `across/view.py`
composes. It declares no page (no LESSON)."""
