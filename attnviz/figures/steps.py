"""The heatmaps of one attention result, step by step: raw scores, masked scores, weights, the
values and the outputs (the landing page's example and the Playground draw these)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go
import torch

from attnviz.attention import AttentionResult
from attnviz.figures.heatmap import heatmap
from attnviz.figures.labels import default_labels
from attnviz.figures.marks import select, select_cells
from attnviz.figures.matrix import largest
from attnviz.i18n import Catalogue

STEPS = ("scores", "masked_scores", "weights", "values", "output")
_TITLES = {
    "scores": "fig.scores",
    "masked_scores": "fig.masked_scores",
    "weights": "fig.weights",
    "values": "fig.values",
    "output": "fig.output",
}


def step_figure(
    result: AttentionResult,
    values: torch.Tensor,
    name: str,
    *,
    query_labels: Sequence[str],
    key_labels: Sequence[str],
    text: Catalogue,
    selectable: bool = False,
    selected: tuple[int, int] | None = None,
    masked_values: bool = False,
    across: float = 1,
) -> go.Figure:
    """One step's heatmap (a name of STEPS) of `result`, computed with these `values` (m, d_v).

    `selectable` gives the three attention heatmaps click targets (`marks.select_cells`). `selected`
    (query, key) boxes that cell and frames its query's row on the attention heatmaps, the
    query's row of the outputs and the key's row of the values. `masked_values` writes the
    masked cells' numbers in their gaps. `across`: charts the page sets side by side.
    """
    if name not in STEPS:
        raise ValueError(f"unknown step figure {name!r}: choose one of {', '.join(STEPS)}")
    if name in ("scores", "masked_scores", "weights"):
        fig = _attention_step(result, name, query_labels, key_labels, text, masked_values, across)
        if selectable:
            select_cells(fig)
        row, col = (None, None) if selected is None else selected
    elif name == "values":
        fig = _rows_step(values, text("fig.values"), key_labels, text, across, values=True)
        row, col = (None if selected is None else selected[1]), None
    else:
        fig = _rows_step(result.output, text("fig.output"), query_labels, text, across)
        row, col = (None if selected is None else selected[0]), None
    return fig if row is None else select(fig, row, col)


def _attention_step(
    result: AttentionResult,
    name: str,
    query_labels: Sequence[str],
    key_labels: Sequence[str],
    text: Catalogue,
    masked_values: bool,
    across: float,
) -> go.Figure:
    """The raw scores, the masked scores or the weights, queries down and keys across."""
    hover = {text("fig.hover.score"): result.scores, text("fig.hover.weight"): result.weights}
    # The masked scores are the raw scores with gaps: one colour scale, the raw scores' bar.
    same_scale = name == "masked_scores"
    return heatmap(
        getattr(result, name),
        title=text(_TITLES[name]),
        kind="weights" if name == "weights" else "scores",
        bound=largest(result.scores) if same_scale else None,
        showscale=not same_scale,
        bar_room=same_scale,  # cells the size of its neighbours'
        text=text,
        row_labels=query_labels,
        col_labels=key_labels,
        mask=None if name == "scores" else result.mask,
        hover=hover,
        masked_values=masked_values,
        across=across,
    )


def _rows_step(
    matrix: torch.Tensor,
    title: str,
    row_labels: Sequence[str],
    text: Catalogue,
    across: float,
    values: bool = False,
) -> go.Figure:
    """The values (a key's row each) or the outputs (a query's), numbered dimensions across."""
    dims = text("fig.dims")
    keys: dict[str, Any] = (
        {"row_name": text("fig.hover.key"), "y_title": text("fig.keys")} if values else {}
    )
    return heatmap(
        matrix,
        title=title,
        kind="values",
        text=text,
        row_labels=row_labels,
        col_labels=default_labels("v", matrix.shape[1]),
        col_name=dims,
        x_title=dims,
        across=across,
        **keys,
    )
