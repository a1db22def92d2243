"""The Model attention page's controls: LINK, ModelChoice, the sidebar's choice, the text boxes.

A part of the `model` lesson's view: its only module is `view.py`, which `model/view.py`
composes. It declares no page (no LESSON)."""
