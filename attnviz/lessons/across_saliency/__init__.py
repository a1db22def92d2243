"""The Across layers page's saliency: gradient x input and integrated gradients beside rollout.

A part of the `across` lesson's view: its only module is `view.py`, which `across/view.py`
composes. It declares no page (no LESSON)."""
