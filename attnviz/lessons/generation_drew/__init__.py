"""The Generation page's attribution view: what each new token drew on.

A part of the `generation` lesson's view: its only module is `view.py`, which
`generation/view.py` composes. It declares no page (no LESSON)."""
