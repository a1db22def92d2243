"""The Model attention page's long input: the lazy reading, its head, the thumbnails, the sinks.

A part of the `model` lesson's view: its only module is `view.py`, which `model/view.py`
composes. It declares no page (no LESSON)."""
