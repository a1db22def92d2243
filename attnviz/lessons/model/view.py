"""The model lesson below its title: all-MiniLM-L6-v2 reading a sentence or a pair, every layer
and head as a thumbnail (click one to enlarge it), one head and its layer's average."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import plotly.graph_objects as go
import streamlit as st
import torch

from attnviz.app import cache, controls, links
from attnviz.app.feedback import show_error
from attnviz.app.model import encoder
from attnviz.app.plot import plot, plot_row
from attnviz.app.selection import selected_head, store_click
from attnviz.app.sentences import DEFAULT_PRESET, PRESETS, sentence_pair
from attnviz.encoder import MAX_TOKENS, Encoded, Encoder, alignment_caveat, attention_view
from attnviz.figures.model import head_figures, model_view
from attnviz.i18n import Catalogue, catalogue, t
from attnviz.lessons.model.compute import renormalise, specials_share

BLOCKS = {
    "all": "model.block.all",
    "AA": "model.block.AA",
    "AB": "model.block.AB",
    "BA": "model.block.BA",
    "BB": "model.block.BB",
}
MAX_LAYERS = 48  # bounds for links; the page clamps to the model's own layer and head counts
_, _A, _B = PRESETS[DEFAULT_PRESET]
PRESET = controls.choice_control("preset", "model_preset", DEFAULT_PRESET, tuple(PRESETS))
SENTENCE_A = controls.text_control("a", "model_sentence_a", _A)
SENTENCE_B = controls.text_control("b", "model_sentence_b", _B)
LAYER = controls.int_control("layer", "model_layer", 0, 0, MAX_LAYERS - 1)
HEAD = controls.int_control("head", "model_head", 0, 0, 63)
HIDE = controls.bool_control("hide", "model_hide_specials")
# Shown only while [CLS] / [SEP] are hidden: then, by default, rows sum to 1 over what is shown.
RENORM = controls.bool_control("renorm", "model_renormalise", True)
MERGE = controls.bool_control("merge", "model_merge")
BLOCK = controls.choice_control("block", "model_block", "all", tuple(BLOCKS))
LINK: tuple[controls.Control, ...] = (
    PRESET, SENTENCE_A, SENTENCE_B, LAYER, HEAD, HIDE, RENORM, MERGE, BLOCK
)  # fmt: skip
GRID = "view_grid"


@dataclass(frozen=True)
class ModelChoice:
    """Which head to enlarge and how to filter the tokens."""

    layer: int
    head: int
    hide_specials: bool
    merge_words: bool
    block: str
    renormalise: bool = False  # rows over the shown tokens (with the specials hidden only)


def choose(num_layers: int, num_heads: int, is_pair: bool) -> ModelChoice:
    """Sidebar: layer and head to enlarge, [CLS]/[SEP], word merging and the pair's block."""
    for control, count in ((LAYER, num_layers), (HEAD, num_heads)):
        if not 0 <= int(st.session_state.get(control.key) or 0) < count:
            st.session_state[control.key] = 0
    with st.sidebar:
        layer = st.selectbox(
            t("model.layer"), range(num_layers), key=LAYER.key, persist_state="session"
        )
        head = st.selectbox(
            t("model.head"), range(num_heads), key=HEAD.key, persist_state="session"
        )
        hide = controls.toggle(HIDE, t("model.hide_specials"), help=t("model.hide_specials.help"))
        renorm = hide and controls.toggle(
            RENORM, t("model.renormalise"), help=t("model.renormalise.help")
        )
        merge = controls.toggle(MERGE, t("model.merge"), help=t("model.merge.help"))
        block = "all"
        if is_pair:
            block = controls.select(BLOCK, t("model.block"), lambda b: t(BLOCKS[b]), widget="radio")
    return ModelChoice(int(layer or 0), int(head or 0), hide, merge, str(block), renorm)


@cache.results
def encode_pair(_encoder: Encoder, text_a: str, text_b: str | None) -> Encoded:
    """The model's reading of a sentence or a pair (cached on the texts)."""
    return _encoder.encode(text_a, text_b)


@cache.figures
def grid_figure(
    texts: tuple[str, ...], view: tuple[bool, bool, str, bool], text: Catalogue, _attn: torch.Tensor
) -> go.Figure:
    """The model view, cached on what `_attn` was made from. It does not frame the chosen head:
    the same figure is sent again, and Chromium keeps the drawn one (a changed one, even a
    frame, is drawn anew: 72 subplots take 1.3 to 2 s)."""
    return model_view(_attn, text, selectable=True)


def show_heads(attn: torch.Tensor, rows: list[str], cols: list[str], choice: ModelChoice) -> None:
    """The chosen head beside its layer's average over heads."""
    plot_row(head_figures(attn, choice.layer, choice.head, rows, cols, catalogue()))


def show_specials_note(encoded: Encoded, attn: torch.Tensor, choice: ModelChoice) -> None:
    """With [CLS] / [SEP] hidden: how much of a shown row's attention they took, on average, in
    the chosen head and over all heads, and whether the rows are renormalised. `attn` is the
    view (L, H, r, c) before any renormalising."""
    share = specials_share(encoded, merge_words=choice.merge_words, block=choice.block)
    values = {
        "layer": choice.layer,
        "head": choice.head,
        "share": f"{float(share[choice.layer, choice.head].mean()):.1%}",
        "all": f"{float(share.mean()):.1%}",
        "count": share.shape[0] * share.shape[1],
        "kept": f"{float(attn[choice.layer, choice.head].sum(-1).mean()):.1%}",
    }
    key = "model.renormalised" if choice.renormalise else "model.not_renormalised"
    st.caption(t(key, **values))


def show_model(encoded: Encoded, choice: ModelChoice) -> None:
    """Notes, the chosen head and the layer's average over heads, the model view grid."""
    for truncated, which in zip(encoded.truncated, ("A", "B"), strict=False):
        if truncated:
            st.info(t("model.truncated", which=which, limit=MAX_TOKENS))
    if alignment_caveat(encoded):
        st.warning(t("model.caveat"))
    attn, rows, cols = attention_view(
        encoded,
        hide_specials=choice.hide_specials,
        merge_words=choice.merge_words,
        block=choice.block,
    )  # (L, H, r, c)
    if choice.hide_specials and rows:
        show_specials_note(encoded, attn, choice)
    if choice.renormalise:
        attn = renormalise(attn)  # (L, H, r, c), rows summing to 1
    show_heads(attn, rows, cols, choice)
    st.caption(t("model.tokens", count=len(encoded.tokens)))
    view = (choice.hide_specials, choice.merge_words, choice.block, choice.renormalise)
    fig = grid_figure(tuple(encoded.texts), view, catalogue(), attn)
    on_click = functools.partial(store_click, GRID, (LAYER.key, HEAD.key), selected_head)
    plot(fig, key=GRID, on_select=on_click)
    st.caption(t("model.grid_click", layer=choice.layer, head=choice.head))


def show() -> None:
    links.restore_link(LINK, page="model")
    model = encoder()
    links.publish_link(LINK)
    try:
        text_a, text_b = sentence_pair(PRESET, SENTENCE_A, SENTENCE_B)
        choice = choose(model.num_layers, model.num_heads, is_pair=text_b is not None)
        with st.spinner(t("model.computing")):
            encoded = encode_pair(model, text_a, text_b)
    except ValueError as err:
        show_error(err)
        return
    show_model(encoded, choice)
    links.share_panel(LINK, key="model")
