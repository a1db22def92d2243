"""Sentence boxes: a preset picker and two text areas (the NLI and model lessons' inputs)."""

from __future__ import annotations

import streamlit as st

from attnviz.app.controls import Control, select, text_input
from attnviz.app.state import init_state
from attnviz.errors import InputError
from attnviz.i18n import t

MAX_SENTENCE_CHARS = 10_000
# (label key, premise, hypothesis): PML's NLI figure, then one pair of each SNLI label.
PRESETS: dict[str, tuple[str, str, str]] = {
    "sleep": ("nli.preset.sleep", "I do need sleep", "I am tired"),
    "entailment": (
        "nli.preset.entailment",
        "A man is playing a guitar on stage.",
        "A person is performing music.",
    ),
    "contradiction": (
        "nli.preset.contradiction",
        "A woman is sleeping on the couch.",
        "A woman is running in the park.",
    ),
    "neutral": (
        "nli.preset.neutral",
        "A dog runs across the grassy field.",
        "The dog is chasing a ball.",
    ),
}
DEFAULT_PRESET = "sleep"


def _apply_preset(name: str, a_key: str, b_key: str) -> None:
    _, premise, hypothesis = PRESETS[name]
    st.session_state[a_key] = premise
    st.session_state[b_key] = hypothesis


def pair_boxes(preset: Control, a: Control, b: Control, a_label: str, b_label: str) -> None:
    """A preset picker with its apply button, and the two sentences side by side."""
    # Each on its own: a link may have set one of them already (attnviz.app.links).
    init_state(a.key, a.default)
    init_state(b.key, b.default)
    row = st.columns([3, 1])
    name = select(preset, t("nli.preset"), lambda p: t(PRESETS[p][0]), where=row[0])
    _, premise, hypothesis = PRESETS[name]
    if (st.session_state.get(a.key), st.session_state.get(b.key)) != (premise, hypothesis):
        row[0].caption(t("sentences.other"))  # the box names what Load would bring
    row[1].button(
        t("nli.preset.apply"),
        key=f"{preset.key}_apply",
        on_click=_apply_preset,
        args=(name, a.key, b.key),
    )
    left, right = st.columns(2)
    text_input(a, a_label, where=left, area=90, max_chars=MAX_SENTENCE_CHARS)
    text_input(b, b_label, where=right, area=90, max_chars=MAX_SENTENCE_CHARS)


def sentence_pair(preset: Control, a: Control, b: Control) -> tuple[str, str | None]:
    """The model pages' boxes (`pair_boxes`): sentence A, and sentence B or None when it is
    empty; an InputError when A is."""
    pair_boxes(preset, a, b, t("model.sentence_a"), t("model.sentence_b"))
    text_a = st.session_state.get(a.key) or ""
    text_b = st.session_state.get(b.key) or ""
    if not text_a.strip():
        raise InputError("sentence_empty", which=t("model.sentence_a"))
    return text_a, text_b if text_b.strip() else None
