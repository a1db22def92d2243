"""The rollout view of the across-layers page, and the path it shares with the flow view: how heads
are fused, through which layer, and the row to attribute (Abnar & Zuidema 2020); and the flow view,
its row beside rollout's."""

from __future__ import annotations

import streamlit as st
import torch

from attnviz.app import cache, controls
from attnviz.app.layers import MAX_LAYERS
from attnviz.app.plot import csv_download, plot
from attnviz.figures.labels import unique_labels
from attnviz.i18n import catalogue, t
from attnviz.lessons.across.compute import hide_first, spearman
from attnviz.lessons.across.figures import row_by_layer, token_bars, token_matrix
from attnviz.lessons.across_common.view import (
    hide_switch,
    one_token_note,
    rho_text,
    with_progress,
)
from attnviz.rollout import HEAD_FUSIONS, MAX_FLOW_TOKENS, attention_flow, attention_rollout
from attnviz.transformer.encoder import MAX_TOKENS, Encoded

FUSIONS = {"mean": "across.fusion.mean", "max": "across.fusion.max", "min": "across.fusion.min"}
MAX_ROW = 2 * MAX_TOKENS + 2  # the last position of a pair, [CLS] and both [SEP] included
FUSION = controls.choice_control("fusion", "across_fusion", "mean", HEAD_FUSIONS)
# Rollout and flow through layers 0..LAYER; ALL_LAYERS (the default) through the last layer,
# whatever the model's depth.
ALL_LAYERS = -1
LAYER = controls.int_control("layer", "across_layer", ALL_LAYERS, ALL_LAYERS, MAX_LAYERS - 2)
# The row to attribute; AUTO_ROW (the default) is the model's own: [CLS] (position 0) for an
# encoder, the last position for a decoder (its position 0 can only attend to itself).
AUTO_ROW = -1
ROW = controls.int_control("row", "across_row", AUTO_ROW, AUTO_ROW, MAX_ROW)


@cache.results
def rollout_of(
    model_path: str, texts: tuple[str, ...], fusion: str, _attn: torch.Tensor
) -> torch.Tensor:
    """(L, T, T) rollout of the model's reading of `texts` (causal for a decoder: its
    attention is)."""
    return attention_rollout(_attn, fusion)


def token_names(tokens: list[str]) -> list[str]:
    """ "3 · sleep": a position and its token, for the row picker."""
    return [f"{i} · {token}" for i, token in enumerate(tokens)]


def row_options(encoded: Encoded, hide: bool) -> tuple[list[int], int]:
    """The rows the picker offers (AUTO_ROW in place of the position it stands for, the first
    token left out when it is hidden) and that position."""
    first = 1 if hide else 0
    count = len(encoded.tokens)
    auto = count - 1 if encoded.kind == "decoder" else first
    options = [AUTO_ROW if i == auto else i for i in range(first, count)]
    if int(st.session_state.get(ROW.key, AUTO_ROW)) not in options:
        st.session_state[ROW.key] = AUTO_ROW  # a link's number out of range, or a hidden row
    return options, auto


def choose_path(encoded: Encoded, num_layers: int) -> tuple[str, int, int, bool]:
    """Sidebar: how heads are fused, through which layer, whether a decoder's first token is
    hidden, and the row to attribute."""
    if not ALL_LAYERS <= int(st.session_state[LAYER.key]) < num_layers - 1:
        st.session_state[LAYER.key] = ALL_LAYERS
    names = token_names(encoded.labels)
    last = num_layers - 1
    with st.sidebar:
        fusion = controls.select(
            FUSION,
            t("across.fusion"),
            lambda f: t(FUSIONS[f]),
            help=t("across.fusion.help"),
        )
        through = st.selectbox(
            t("across.layer"),
            [*range(last), ALL_LAYERS],
            format_func=lambda n: t("across.layer.option", layer=last if n == ALL_LAYERS else n),
            key=LAYER.key,
            persist_state="session",
        )
        hide = hide_switch(encoded)
        options, auto = row_options(encoded, hide)  # before the widget that holds it is drawn
        row = st.selectbox(
            t("across.row"),
            options,
            format_func=lambda i: names[auto if i == AUTO_ROW else i],
            key=ROW.key,
            help=t("across.row.help"),
            persist_state="session",
        )
    layer = last if through == ALL_LAYERS else int(through or 0)
    return str(fusion), layer, auto if row in (None, AUTO_ROW) else int(row), hide


def show_rollout(encoded: Encoded, rollout: torch.Tensor, layer: int, row: int, hide: bool) -> None:
    """The rollout through layers 0..layer, the row's attribution beside that layer's raw
    attention, and the row's attribution layer by layer (without a decoder's first token when
    `hide`, rows renormalised over the rest)."""
    text = catalogue()
    tokens = encoded.labels  # each piece as its text
    raw = encoded.every_attention()[layer].mean(dim=0)  # (T, T) the layer's heads averaged
    if hide:
        tokens, rollout, raw, row = tokens[1:], hide_first(rollout), hide_first(raw), row - 1
    st.markdown(t("across.rollout.explain"))
    if hide:
        st.caption(t("across.first_hidden"))
    left, right = st.columns(2)
    with left:
        plot(
            token_matrix(rollout[layer], tokens, t("across.rollout.title", layer=layer), text),
            key="across_rollout",
        )
    with right:
        plot(
            token_bars(
                tokens,
                [
                    {
                        t("across.series.rollout"): rollout[layer, row],
                        t("across.series.raw"): raw[row],
                    }
                ],
                title=t("across.row_title", token=tokens[row], layer=layer),
                y_titles=[t("across.share")],
                across=2,
            ),
            key="across_row_bars",
        )
    sink = encoded.kind == "decoder" and not hide
    one_token_note(rollout[layer, row], tokens, tokens[row], sink)
    plot(
        row_by_layer(rollout, row, tokens, t("across.by_layer_title", token=tokens[row]), text),
        key="across_by_layer",
    )
    labels = unique_labels(tokens)
    csv_download(t("across.rollout.csv", layer=layer), rollout[layer], labels, labels, "rollout")


def show_flow(
    model: str,
    encoded: Encoded,
    rollout: torch.Tensor,
    fusion: str,
    layer: int,
    row: int,
    hide: bool,
) -> None:
    """The attention flow of the model at path `model` through layers 0..layer (capped at
    MAX_FLOW_TOKENS), kept per model and texts, its row beside rollout's (without a decoder's
    first token when `hide`, rows renormalised over the rest)."""
    tokens = encoded.labels  # each piece as its text
    st.markdown(t("across.flow.explain", limit=MAX_FLOW_TOKENS))
    if len(tokens) > MAX_FLOW_TOKENS:
        st.info(t("across.flow.too_long", count=len(tokens), limit=MAX_FLOW_TOKENS))
        return
    attn = encoded.every_attention()[: layer + 1]
    flow = with_progress(
        ("flow", model, encoded.texts, fusion, layer),
        t("across.flow.computing", pairs=len(tokens) ** 2, layers=layer + 1),
        lambda progress: attention_flow(attn, fusion, progress=progress),
    )
    if hide:
        tokens, flow, rollout, row = tokens[1:], hide_first(flow), hide_first(rollout), row - 1
        st.caption(t("across.first_hidden"))
    left, right = st.columns(2)
    with left:
        title = t("across.flow.title", layer=layer)
        plot(token_matrix(flow, tokens, title, catalogue()), key="across_flow")
    with right:
        series = {  # rollout first: the same colour as on the rollout view
            t("across.series.rollout"): rollout[layer, row],
            t("across.series.flow"): flow[row],
        }
        plot(
            token_bars(
                tokens,
                [series],
                title=t("across.row_title", token=tokens[row], layer=layer),
                y_titles=[t("across.share")],
                across=2,
            ),
            key="across_flow_row",
        )
    rho = rho_text(spearman(flow[row], rollout[layer, row]))
    st.caption(t("across.flow.spearman", token=tokens[row], rho=rho))
    labels = unique_labels(tokens)
    csv_download(t("across.flow.csv", layer=layer), flow, labels, labels, "flow")
