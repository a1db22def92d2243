"""The model lesson below its title: a transformer reading a text (the shipped all-MiniLM-L6-v2,
or any encoder, decoder or encoder-decoder folder the server's picker lists), every layer and
head as a thumbnail (click one to enlarge it), one head beside its layer's average and drawn as
bertviz's head view, a causal language model's next tokens, and the neuron view of one head.
Each part is a folder of its own beside this one (model_heads, model_neuron, model_long, the
controls in model_controls); `show` composes them."""

from __future__ import annotations

import streamlit as st

from attnviz.app import cache, controls, links
from attnviz.app.feedback import markdown_literal, show_error
from attnviz.app.model import pick_model
from attnviz.app.state import init_state
from attnviz.i18n import t
from attnviz.lessons.model_controls.view import (
    HEAD,
    LAYER,
    LINK,
    VIEW,
    VIEWS,
    choose,
    clamp,
    read_texts,
)
from attnviz.lessons.model_heads.view import show_model
from attnviz.lessons.model_long.view import long_toggle, show_long
from attnviz.lessons.model_neuron.view import show_edit, show_neuron
from attnviz.transformer.encoder import MINILM_TRAINED_LENGTH, Encoded, Encoder
from attnviz.transformer.views import alignment_caveat

KIND_NAMES = {
    "encoder": "model.kind.encoder",
    "decoder": "model.kind.decoder",
    "encoder-decoder": "model.kind.seq2seq",
}


@cache.readings  # never changed: every view of it slices or copies (transformer.views)
def encode_text(
    model_path: str, _encoder: Encoder, text_a: str, text_b: str | None, target: str | None
) -> Encoded:
    """The model's reading of a text or a pair (cached on the model and the texts), up to
    the model's own length, at most MAX_TOTAL_TOKENS tokens in all."""
    return _encoder.encode(text_a, text_b, max_length=_encoder.max_length, target=target)


def show_notes(model: Encoder, encoded: Encoded) -> None:
    """What was cut, and what lies outside what the model was trained on."""
    total = len(encoded.tokens)
    for truncated, which in zip(encoded.truncated, ("A", "B"), strict=False):
        if truncated:
            st.info(t("model.truncated_total", which=which, limit=model.max_length))
    if model.shipped:
        st.caption(t("model.minilm_note"))
        if total > MINILM_TRAINED_LENGTH:
            st.info(t("model.long_for_minilm", count=total, limit=MINILM_TRAINED_LENGTH))
        if alignment_caveat(encoded):
            st.warning(t("model.caveat"))
    if encoded.generated and encoded.decoder_tokens is not None:
        st.caption(t("model.generated", count=len(encoded.decoder_tokens) - 1))


def show_about(model: Encoder, limit: int) -> None:
    """The model in a line: its kind, size and the tokens the reading shown takes at most (a
    sentence or a pair's `max_length`, a long input's `max_lazy_length`), and where a
    converted folder's weights came from."""
    st.caption(
        t(
            "model.about",
            name=model.name,
            kind=t(KIND_NAMES[model.kind]),
            layers=model.num_layers,
            heads=model.num_heads,
            count=f"{model.parameters:,}",
            limit=f"{limit:,}",
        )
    )
    if model.source.get("source"):  # a folder attnviz converted: where its weights came from
        st.caption(t("model.converted", source=markdown_literal(str(model.source["source"]))))


def show() -> None:
    links.restore_link(LINK, page="model")
    for control in LINK:
        init_state(control.key, control.default)
    model = pick_model()
    links.publish_link(LINK)
    long = long_toggle(model)
    show_about(model, model.max_lazy_length if long else model.max_length)
    if long:
        with st.sidebar:
            clamp(LAYER, model.num_layers)
            clamp(HEAD, model.num_heads)
            st.selectbox(t("model.layer"), range(model.num_layers), key=LAYER.key)
            st.selectbox(t("model.head"), range(model.num_heads), key=HEAD.key)
        show_long(model, LAYER.key, HEAD.key)
        links.share_panel(LINK, key="model")
        return
    try:
        text_a, text_b, target = read_texts(model)
        with st.spinner(t("model.computing")):
            encoded = encode_text(str(model.path), model, text_a, text_b, target)
    except ValueError as err:
        show_error(err)
        return
    choice = choose(model, encoded)
    show_notes(model, encoded)
    view = controls.select(VIEW, t("model.view"), lambda v: t(VIEWS[v]), widget="segmented")
    if view == "neuron":
        show_neuron(model, encoded, choice)
        show_edit(model, encoded)
    else:
        show_model(model, encoded, choice)
    links.share_panel(LINK, key="model")
