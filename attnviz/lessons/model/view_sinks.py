"""The Model attention page's attention sinks: each head's share of attention on the first token,
beside the residual stream's norm there and elsewhere (a decoder's reading, and a long one)."""

from __future__ import annotations

import streamlit as st
import torch

from attnviz.app.plot import plot_row
from attnviz.figures.model import head_values
from attnviz.head_stats import sink_share
from attnviz.i18n import catalogue, t
from attnviz.lessons.model.figures import residual_norms_figure
from attnviz.transformer.encoder import Encoded


def show_sinks(encoded: Encoded, sink: torch.Tensor | None = None, *, key: str) -> None:
    """Per head the share of attention on position 0 (rows 1 and later) as a layers x heads
    grid, beside the residual stream's norm at position 0 and at the others, layer by layer."""
    if sink is None:
        sink = sink_share(encoded.every_attention())
    text_of = catalogue()
    figures = {f"{key}_sink": head_values(sink, title=t("model.sink.grid_title"), text=text_of)}
    if encoded.residual_norms is not None:
        figures[f"{key}_norms"] = residual_norms_figure(
            encoded.residual_norms.tolist(), t("model.sink.norm_title"), text_of
        )
    with st.expander(t("model.sink"), expanded=False):
        st.caption(t("model.sink.help"))
        plot_row(figures)
