"""The NLI lesson's figures: one pair's alignment scores e, both softmax directions and the hard
alignment; the comparisons of G and the aggregated vectors; the verdict and confusion matrices."""

from __future__ import annotations

import math
from typing import Any

import plotly.graph_objects as go
import torch

from attnviz.figures.heatmap import heatmap, vector_rows
from attnviz.figures.labels import escape_label
from attnviz.figures.style import labels_width, style_layout
from attnviz.i18n import Catalogue
from attnviz.lessons.nli.compute import PairView
from attnviz.nli_data import LABELS

LABEL_KEYS = {
    "entailment": "nli.label.entailment",
    "neutral": "nli.label.neutral",
    "contradiction": "nli.label.contradiction",
}
# Okabe-Ito: bluish green, grey-blue, vermillion; readable for every common colour vision.
VERDICT_COLOURS = {"entailment": "#009E73", "neutral": "#56B4E9", "contradiction": "#D55E00"}


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


def verdict_figure(probabilities: torch.Tensor, text: Catalogue) -> go.Figure:
    """The classifier's three probabilities as horizontal bars, the chosen label darker."""
    values = [float(p) for p in probabilities]
    best = max(range(len(values)), key=values.__getitem__)
    names = [escape_label(text(LABEL_KEYS[label])) for label in LABELS]
    colours = [VERDICT_COLOURS[label] if i == best else "#d9d9d9" for i, label in enumerate(LABELS)]
    bar = go.Bar(
        x=values,
        y=names,
        orientation="h",
        marker_color=colours,
        text=[f"{v:.2f}" for v in values],
        textposition="outside",
        hovertemplate="%{y}: %{x:.4f}<extra></extra>",
    )
    layout = style_layout(text("nli.verdict.title"), height=230, background="white")
    layout["xaxis"] = {
        "range": [0, 1.12],
        "title": escape_label(text("nli.verdict.axis")),
        "automargin": True,
    }
    layout["yaxis"] = {"autorange": "reversed", "automargin": True}
    # Room for the label names on the left and the axis title below (see `text_width`).
    layout["margin"] |= {"l": math.ceil(16 + labels_width(names)), "b": 55}
    return go.Figure(data=[bar], layout=layout)


def confusion_figure(table: list[list[int]], title: str, text: Catalogue) -> go.Figure:
    """A confusion matrix: gold labels down, predictions across, each row's share as colour
    and the count written in its cell."""
    counts = torch.tensor(table, dtype=torch.float64)  # (3, 3)
    shares = counts / counts.sum(dim=1, keepdim=True).clamp_min(1)
    names = [text(LABEL_KEYS[label]) for label in LABELS]
    return heatmap(
        shares,
        title=title,
        kind="weights",
        text=text,
        row_labels=names,
        col_labels=names,
        row_name=text("nli.confusion.gold"),
        col_name=text("nli.confusion.predicted"),
        y_title=text("nli.confusion.gold"),
        x_title=text("nli.confusion.predicted"),
        cell_text=[[str(int(v)) for v in row] for row in counts],
        hover={text("nli.confusion.share"): shares, text("nli.confusion.count"): counts},
        height=340,
    )
