"""The across-layers lesson below its title: all-MiniLM-L6-v2's attention followed through the
layers (rollout and flow), what each head does in numbers (a grid per statistic, a click
enlarges the head), and gradient saliency beside rollout. Each view is a folder of its own
beside this one (across_rollout with flow, across_heads, across_saliency, across_finder with the
ablations, across_common); this one reads the pair and the link and shows the chosen view."""

from __future__ import annotations

import streamlit as st

from attnviz.app import cache, controls, links
from attnviz.app.feedback import show_error
from attnviz.app.model import MODEL, pick_model
from attnviz.app.sentences import DEFAULT_PRESET, PRESETS, sentence_pair
from attnviz.app.state import init_state
from attnviz.i18n import t
from attnviz.lessons.across_common.view import FIRST
from attnviz.lessons.across_finder.view import MODE, OUT, SCORE, show_finder
from attnviz.lessons.across_heads.view import HEAD, HEAD_LAYER, show_heads
from attnviz.lessons.across_rollout.view import (
    FUSION,
    LAYER,
    ROW,
    choose_path,
    rollout_of,
    show_flow,
    show_rollout,
)
from attnviz.lessons.across_saliency.view import (
    BASELINE,
    STEPS,
    TARGET,
    default_baseline,
    show_saliency,
)
from attnviz.transformer.encoder import MAX_TOKENS, Encoded, Encoder
from attnviz.transformer.views import alignment_caveat

VIEWS = {
    "rollout": "across.view.rollout",
    "flow": "across.view.flow",
    "heads": "across.view.heads",
    "saliency": "across.view.saliency",
    "finder": "across.view.finder",
}
_, _A, _B = PRESETS[DEFAULT_PRESET]
PRESET = controls.choice_control("preset", "across_preset", DEFAULT_PRESET, tuple(PRESETS))
SENTENCE_A = controls.text_control("a", "across_sentence_a", _A)
SENTENCE_B = controls.text_control("b", "across_sentence_b", _B)
VIEW = controls.choice_control("view", "across_view", "rollout", tuple(VIEWS))
LINK: tuple[controls.Control, ...] = (
    MODEL, PRESET, SENTENCE_A, SENTENCE_B, VIEW, FUSION, LAYER, ROW, FIRST, HEAD_LAYER, HEAD,
    TARGET, BASELINE, STEPS, SCORE, MODE, OUT,
)  # fmt: skip


@cache.readings  # the same object each rerun: no copy of every attention unpickled
def read(model_path: str, _encoder: Encoder, text_a: str, text_b: str | None) -> Encoded:
    """The model's reading of a sentence or a pair, [CLS] A [SEP] B [SEP] for MiniLM, A, a
    newline, B for a decoder (cached on the model and the texts)."""
    return _encoder.encode(text_a, text_b)


def show() -> None:
    links.restore_link(LINK, page="across")
    for control in LINK:  # every view's settings, whichever view draws its widgets
        if control is not BASELINE:
            init_state(control.key, control.default)
    model = pick_model()
    default_baseline(model.kind)
    links.publish_link(LINK)
    try:
        text_a, text_b = sentence_pair(PRESET, SENTENCE_A, SENTENCE_B)
        view = controls.select(VIEW, t("across.view"), lambda v: t(VIEWS[v]), widget="segmented")
        with st.spinner(t("model.computing")):
            encoded = read(str(model.path), model, text_a, text_b)
        for truncated, which in zip(encoded.truncated, ("A", "B"), strict=False):
            if truncated:
                st.info(t("model.truncated", which=which, limit=MAX_TOKENS))
        if alignment_caveat(encoded):
            st.warning(t("model.caveat"))
        show_view(str(view), model, encoded, text_a, text_b)
    except ValueError as err:  # every view's error ends here, as the page's own message
        show_error(err)
    links.share_panel(LINK, key="across")


def show_view(view: str, model: Encoder, encoded: Encoded, text_a: str, text_b: str | None) -> None:
    """The chosen view of the model's reading."""
    if view in ("rollout", "flow"):
        fusion, layer, row, hide = choose_path(encoded, model.num_layers)
        rollout = rollout_of(
            str(model.path), tuple(encoded.texts), fusion, encoded.every_attention()
        )
        if view == "rollout":
            show_rollout(encoded, rollout, layer, row, hide)
        else:
            show_flow(str(model.path), encoded, rollout, fusion, layer, row, hide)
    elif view == "heads":
        show_heads(encoded, model.num_layers, model.num_heads)
    elif view == "finder":
        text = text_a if text_b is None else f"{text_a}\n{text_b}"  # as a decoder reads a pair
        show_finder(model, text, HEAD_LAYER.key, HEAD.key)
    else:
        show_saliency(model, encoded, text_a, text_b)
