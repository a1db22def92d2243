"""The Model attention page's neuron view and its round trip through the Playground.

A part of the `model` lesson's view: its only module is `view.py`, which `model/view.py`
composes. It declares no page (no LESSON)."""
