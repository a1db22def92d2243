"""The head statistics view of the across-layers page: a layers x heads grid per statistic,
a click enlarges the head."""

from __future__ import annotations

import functools

import pandas as pd
import streamlit as st
import torch

from attnviz.app import controls
from attnviz.app.layers import MAX_HEADS, MAX_LAYERS
from attnviz.app.plot import download_csv, plot, table
from attnviz.app.selection import selected_cell, store_click
from attnviz.figures.model import head_heatmap
from attnviz.i18n import catalogue, t
from attnviz.lessons.across.compute import STATISTICS, head_statistics
from attnviz.lessons.across.figures import STATISTICS_A_ROW, statistic_grid
from attnviz.transformer.encoder import Encoded

STATISTIC_TITLES = {
    "entropy": "across.stat.entropy",
    "distance": "across.stat.distance",
    "broad": "across.stat.broad",
    "cls": "across.stat.cls",
    "sep": "across.stat.sep",
    "first": "across.stat.first",
    "previous": "across.stat.previous",
    "next": "across.stat.next",
    "diagonal": "across.stat.diagonal",
}
HEAD_LAYER = controls.int_control("hlayer", "across_head_layer", 0, 0, MAX_LAYERS - 1)
HEAD = controls.int_control("head", "across_head", 0, 0, MAX_HEADS - 1)


def clamp(control: controls.Control, count: int, fallback: int = 0) -> int:
    """The control's value, or `fallback` outside 0..count - 1 (a link may name any number)."""
    value = int(st.session_state.get(control.key, control.default) or 0)
    if not 0 <= value < count:
        st.session_state[control.key] = value = fallback
    return value


def show_heads(encoded: Encoded, num_layers: int, num_heads: int) -> None:
    """Every statistic as a layers x heads grid, two a row; the clicked head enlarged."""
    st.markdown(t("across.heads.explain"))
    stats = head_statistics(encoded)
    layer = clamp(HEAD_LAYER, num_layers)
    head = clamp(HEAD, num_heads)
    text = catalogue()
    names = list(STATISTICS)
    for start in range(0, len(names), STATISTICS_A_ROW):
        row = names[start : start + STATISTICS_A_ROW]
        for column, name in zip(st.columns(STATISTICS_A_ROW), row, strict=False):
            key = f"across_stat_{name}"
            fig = statistic_grid(
                stats[name],
                title=t(STATISTIC_TITLES[name]),
                share=STATISTICS[name],
                text=text,
                selected=(layer, head),
            )
            on_click = functools.partial(
                store_click, key, (HEAD_LAYER.key, HEAD.key), selected_cell
            )
            with column:
                plot(fig, key=key, on_select=on_click, export=False)
    st.caption(t("across.heads.click", layer=layer, head=head))
    left, right = st.columns([3, 2])
    with left:
        plot(
            head_heatmap(
                encoded.every_attention(), layer, head, encoded.labels, encoded.labels, text
            ),
            key="across_head_view",
        )
    with right:
        frame = pd.DataFrame({
            t("across.col.statistic"): [t(STATISTIC_TITLES[name]) for name in names],
            t("across.col.value"): [float(stats[name][layer, head]) for name in names],
            t("across.col.rank"): [rank_of(stats[name], layer, head) for name in names],
        })  # fmt: skip
        st.markdown(t("across.heads.table", layer=layer, head=head))
        table(frame, t("across.heads.table_csv", layer=layer, head=head), key="across_head_stats")
    every = pd.DataFrame([
        {"layer": i, "head": h, **{name: float(stats[name][i, h]) for name in names}}
        for i in range(num_layers) for h in range(num_heads)
    ])  # fmt: skip
    download_csv(t("across.heads.csv"), every.to_csv(index=False).encode("utf-8"), "head_stats")


def rank_of(values: torch.Tensor, layer: int, head: int) -> str:
    """ "3 / 72": the head's place among all heads, largest first."""
    flat = values.flatten()
    place = int((flat > values[layer, head]).sum()) + 1
    return f"{place} / {flat.numel()}"
