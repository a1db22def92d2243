"""The Model attention page's heads: the chosen head, its layer's average, the head view, next
tokens, the grid of every head, and the attention sinks.

A part of the `model` lesson's view: its only module is `view.py`, which `model/view.py`
composes. It declares no page (no LESSON)."""
