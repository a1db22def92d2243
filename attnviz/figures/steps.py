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

    `selectable` gives the three attention heatmaps click targets (`heatmap`). `selected`
    (query, key) boxes that cell and frames its query's row on the attention heatmaps, the
    query's row of the outputs and the key's row of the values. `masked_values` writes the
    masked cells' numbers in their gaps. `across`: charts the page sets side by side.
    """
    if name not in STEPS:
        raise ValueError(f"unknown step figure {name!r}: choose one of {', '.join(STEPS)}")
    title = text(_TITLES[name])
    if name in ("scores", "masked_scores", "weights"):
        hover = {text("fig.hover.score"): result.scores, text("fig.hover.weight"): result.weights}
        # The masked scores are the raw scores with gaps: one colour scale, the raw scores' bar.
        same_scale = name == "masked_scores"
        return heatmap(
            getattr(result, name),
            title=title,
            kind="weights" if name == "weights" else "scores",
            bound=largest(result.scores) if same_scale else None,
            showscale=not same_scale,
            bar_room=same_scale,  # cells the size of its neighbours'
            text=text,
            row_labels=query_labels,
            col_labels=key_labels,
            mask=None if name == "scores" else result.mask,
            hover=hover,
            selectable=selectable,
            selected=selected,
            masked_values=masked_values,
            across=across,
        )
    dims = text("fig.dims")
    columns: dict[str, Any] = {
        "col_labels": default_labels("v", values.shape[1]),
        "col_name": dims,
        "x_title": dims,
        "across": across,
    }
    if name == "values":
        return heatmap(
            values,
            title=title,
            kind="values",
            text=text,
            row_labels=key_labels,
            row_name=text("fig.hover.key"),
            y_title=text("fig.keys"),
            selected=None if selected is None else (selected[1], None),
            **columns,
        )
    return heatmap(
        result.output,
        title=title,
        kind="values",
        text=text,
        row_labels=query_labels,
        selected=None if selected is None else (selected[0], None),
        **columns,
    )
