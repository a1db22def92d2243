"""A pretrained model's attention as the Model attention page draws it: the model view (every
layer x head) and one head beside its layer's average over heads."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go
import torch

from attnviz.figures.grid import head_grid
from attnviz.figures.heatmap import heatmap
from attnviz.i18n import Catalogue


def model_view(attentions: torch.Tensor, text: Catalogue, *, selectable: bool = False) -> go.Figure:
    """Every head of (L, H, r, c) `attentions`, layers down and heads across (`head_grid`)."""
    return head_grid(
        attentions,
        title=text("model.grid_title"),
        layer_label=text("fig.layer"),
        head_label=text("fig.head"),
        selectable=selectable,
    )


def head_figures(
    attentions: torch.Tensor,
    layer: int,
    head: int,
    rows: Sequence[str],
    cols: Sequence[str],
    text: Catalogue,
) -> dict[str, go.Figure]:
    """Head `head` of layer `layer` ("view_head") beside the layer's mean over its heads
    ("view_average"), queries down and keys across, for two charts side by side."""
    layer_heads = attentions[layer]  # (H, r, c)
    title = text("model.average_title", layer=layer, heads=layer_heads.shape[0])
    return {
        "view_head": head_heatmap(attentions, layer, head, rows, cols, text),
        "view_average": heatmap(layer_heads.mean(dim=0), title=title, **_labels(rows, cols, text)),
    }


def head_heatmap(
    attentions: torch.Tensor,
    layer: int,
    head: int,
    rows: Sequence[str],
    cols: Sequence[str],
    text: Catalogue,
) -> go.Figure:
    """One head's (r, c) weights, queries down and keys across, sized two charts across."""
    title = text("model.head_title", layer=layer, head=head)
    return heatmap(attentions[layer, head], title=title, **_labels(rows, cols, text))


def _labels(rows: Sequence[str], cols: Sequence[str], text: Catalogue) -> dict[str, Any]:
    return {
        "text": text,
        "kind": "weights",
        "row_labels": rows,
        "col_labels": cols,
        "row_name": text("model.queries"),
        "col_name": text("model.keys"),
        "y_title": text("model.queries"),
        "x_title": text("model.keys"),
        "across": 2,
    }


def head_values(
    values: torch.Tensor,
    *,
    title: str,
    text: Catalogue,
    bound: float | None = None,
    y_title: str | None = None,
    x_title: str | None = None,
    selectable: bool = False,
    selected: tuple[int, int] | None = None,
    across: float = 1,
) -> go.Figure:
    """(L, H) one number per head, layers down and heads across, on the weights' scale (0 to
    1, or to `bound`); a click on a cell reports (layer, head) as its (row, column)."""
    layers, heads = values.shape
    return heatmap(
        values,
        title=title,
        kind="weights",
        bound=bound,
        text=text,
        row_labels=[str(layer) for layer in range(layers)],
        col_labels=[str(head) for head in range(heads)],
        row_name=text("fig.layer"),
        col_name=text("fig.head"),
        y_title=y_title or text("fig.layer"),
        x_title=x_title or text("fig.head"),
        show_numbers=False,
        selectable=selectable,
        selected=selected,
        across=across,
    )
