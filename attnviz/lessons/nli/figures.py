"""The NLI lesson's figures: one pair's alignment scores e, both softmax directions and the hard
alignment; the comparisons of G and the aggregated vectors."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import torch

from attnviz.figures.heatmap import heatmap, vector_rows
from attnviz.i18n import Catalogue
from attnviz.lessons.nli.compute import PairView


def alignment_figures(
    view: PairView, row_name: str, col_name: str, keys: tuple[str, str, str, str], text: Catalogue
) -> dict[str, go.Figure]:
    """e, the row-wise weights, the hard alignment and the other direction, under `keys`."""
    labels: dict[str, Any] = {
        "text": text,
        "row_labels": view.rows,
        "col_labels": view.cols,
        "row_name": row_name,
        "col_name": col_name,
        "y_title": row_name,
        "x_title": col_name,
    }
    hover = {text("fig.hover.score"): view.e, text("fig.hover.weight"): view.weights}
    rows_title = text("nli.weights_rows_title", rows=row_name, cols=col_name)
    cols_title = text("nli.weights_cols_title", rows=row_name, cols=col_name)
    figs = [
        heatmap(view.e, title=text("nli.e_title"), kind="scores", hover=hover, **labels),
        heatmap(view.weights, title=rows_title, kind="weights", hover=hover, **labels),
        heatmap(view.hard, title=text("nli.hard_title"), kind="weights", hover=hover, **labels),
        heatmap(view.other, title=cols_title, kind="weights", **labels),
    ]
    return dict(zip(keys, figs, strict=True))


def vectors_figure(
    vectors: torch.Tensor, title: str, rows: list[str], text: Catalogue
) -> go.Figure:
    """Vectors (a token's comparison, a sentence's aggregate) as rows, dimensions across."""
    return vector_rows(vectors, title=title, row_labels=rows, dim_label=text("nli.dims"), text=text)
