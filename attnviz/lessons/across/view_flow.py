"""The flow view of the across-layers page: attention flow through the layers, its row beside
rollout's (Abnar & Zuidema 2020)."""

from __future__ import annotations

import streamlit as st
import torch

from attnviz.app.plot import csv_download, plot
from attnviz.figures.labels import unique_labels
from attnviz.i18n import catalogue, t
from attnviz.lessons.across.compute import hide_first, spearman
from attnviz.lessons.across.figures import token_bars, token_matrix
from attnviz.lessons.across.view_common import rho_text, with_progress
from attnviz.rollout import MAX_FLOW_TOKENS, attention_flow
from attnviz.transformer.encoder import Encoded


def show_flow(
    encoded: Encoded, rollout: torch.Tensor, fusion: str, layer: int, row: int, hide: bool
) -> None:
    """The attention flow through layers 0..layer (capped at MAX_FLOW_TOKENS), its row beside
    rollout's (without a decoder's first token when `hide`, rows renormalised over the rest)."""
    tokens = encoded.labels  # each piece as its text
    st.markdown(t("across.flow.explain", limit=MAX_FLOW_TOKENS))
    if len(tokens) > MAX_FLOW_TOKENS:
        st.info(t("across.flow.too_long", count=len(tokens), limit=MAX_FLOW_TOKENS))
        return
    attn = encoded.every_attention()[: layer + 1]
    flow = with_progress(
        ("flow", encoded.texts, fusion, layer),
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
