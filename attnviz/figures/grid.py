"""The model view: one small weights heatmap per (layer, head), layers down, heads across,
with invisible markers that make a click report its head."""

from __future__ import annotations

import plotly.graph_objects as go
import torch
import torch.nn.functional as F

from attnviz.figures.labels import escape_label
from attnviz.figures.style import COLORSCALES, FONT_SIZE, style_layout

THUMBNAIL_CELLS = 48  # a side of a model-view thumbnail, beyond which it is pooled


def head_grid(
    attentions: object,
    *,
    title: str,
    layer_label: str,
    head_label: str,
    selected: tuple[int, int] | None = None,
    selectable: bool = False,
) -> go.Figure:
    """The model view: one small weights heatmap per (layer, head), layers down, heads across.

    `attentions` is (L, H, r, c). Hover names the layer, head and the row/column positions; the
    enlarged head view (`heatmap`) carries the token labels. `selected` gets a frame.
    `selectable` adds, after the L x H heatmaps, one "heads" marker per thumbnail at its centre
    with `customdata` [layer, head], so that a click reports the head (`selected_head`).
    Thumbnails larger than THUMBNAIL_CELLS a side are average-pooled to that size: a thumbnail
    is about 80 pixels wide, and 72 heads of 259 x 259 tokens would send 19 MB to the browser.
    """
    tensor = torch.as_tensor(attentions, dtype=torch.float32)
    if tensor.ndim != 4:
        raise ValueError(
            f"the model view needs (layers, heads, rows, columns), got {tuple(tensor.shape)}"
        )
    layers, heads, rows, cols = tensor.shape
    if max(rows, cols) > THUMBNAIL_CELLS:
        size = (min(rows, THUMBNAIL_CELLS), min(cols, THUMBNAIL_CELLS))
        tensor = F.adaptive_avg_pool2d(tensor, size)  # (L, H, <= 48, <= 48)
    array = tensor.numpy()
    cells = [(layer, head) for layer in range(layers) for head in range(heads)]
    traces: list[go.Heatmap | go.Scatter] = [
        go.Heatmap(
            z=array[layer, head],
            zmin=0.0,
            zmax=1.0,
            colorscale=COLORSCALES["weights"],
            showscale=False,
            hovertemplate=(
                f"{escape_label(layer_label)} {layer}, {escape_label(head_label)} {head}"
                "<br>%{y} → %{x}: %{z:.3f}<extra></extra>"
            ),
            **_axes_of(index),
        )
        for index, (layer, head) in enumerate(cells, start=1)
    ]
    layout = style_layout(title, height=int(90 * layers + 80), top=80) | {
        "plot_bgcolor": "white",
        "annotations": _titles(layers, heads, layer_label, head_label),
    }
    if selectable:
        thumb_rows, thumb_cols = array.shape[-2:]
        traces += [
            head_marker(layer, head, thumb_rows, thumb_cols, layer_label, head_label, index)
            for index, (layer, head) in enumerate(cells, start=1)
        ]
        layout["hoverdistance"] = -1  # the nearest marker is the thumbnail's own
    frame = {"showline": True, "linewidth": 3, "linecolor": "#d62728", "mirror": True}
    for index, (layer, head) in enumerate(cells, start=1):
        x_domain, y_domain = _domains(layer, head, layers, heads)
        framed = frame if (layer, head) == selected else {}
        suffix = "" if index == 1 else str(index)
        layout[f"xaxis{suffix}"] = _BARE_AXIS | framed | {
            "domain": x_domain, "anchor": f"y{suffix}"}  # fmt: skip
        layout[f"yaxis{suffix}"] = _BARE_AXIS | framed | {
            "domain": y_domain, "anchor": f"x{suffix}", "autorange": "reversed"}  # fmt: skip
    # One figure from one layout dict: make_subplots, add_trace(row=, col=) and update_xaxes
    # walk every subplot again on each call (0.76 s for 6 x 12 heads, against ~0.1 s).
    return go.Figure(data=traces, layout=layout)


# The spacing between thumbnails, as fractions of the plot (make_subplots' meaning).
H_SPACING = 0.006
V_SPACING = 0.012
ROW_TITLES = 0.02  # the layer numbers' strip on the right
# No labels to make room for: automatic margins would only cost Chromium a second drawing.
_BARE_AXIS = {"showticklabels": False, "showgrid": False, "zeroline": False, "automargin": False}


def _axes_of(index: int) -> dict[str, str]:
    suffix = "" if index == 1 else str(index)
    return {"xaxis": f"x{suffix}", "yaxis": f"y{suffix}"}


def _domains(layer: int, head: int, layers: int, heads: int) -> tuple[list[float], list[float]]:
    """The paper fractions a thumbnail spans: heads left to right, layers top to bottom."""
    width = (1 - ROW_TITLES - H_SPACING * (heads - 1)) / heads
    height = (1 - V_SPACING * (layers - 1)) / layers
    left = head * (width + H_SPACING)
    top = 1 - layer * (height + V_SPACING)
    return [left, left + width], [top - height, top]


def _titles(layers: int, heads: int, layer_label: str, head_label: str) -> list[dict[str, object]]:
    """Head numbers over the columns, layer numbers down the right side (where make_subplots'
    column_titles and row_titles put them)."""
    font = {"size": FONT_SIZE - 3}
    common = {"xref": "paper", "yref": "paper", "showarrow": False, "font": font}
    titles = []
    for head in range(heads):
        x_domain, _ = _domains(0, head, layers, heads)
        titles.append(common | {
            "text": f"{escape_label(head_label)} {head}", "x": sum(x_domain) / 2, "y": 1.0,
            "xanchor": "center", "yanchor": "bottom"})  # fmt: skip
    for layer in range(layers):
        _, y_domain = _domains(layer, 0, layers, heads)
        titles.append(common | {
            "text": f"{escape_label(layer_label)} {layer}", "x": 1 - ROW_TITLES,
            "y": sum(y_domain) / 2,
            "xanchor": "left", "yanchor": "middle", "textangle": 90})  # fmt: skip
    return titles


def head_marker(
    layer: int,
    head: int,
    rows: int,
    cols: int,
    layer_label: str,
    head_label: str,
    subplot: int = 1,
) -> go.Scatter:
    """An invisible marker at a thumbnail's centre, on the axes of `subplot` (1-based; one trace
    a subplot: a trace has one pair of axes). Its hover replaces the heatmap's, which Plotly
    hides under a nearer point."""
    return go.Scatter(
        x=[(cols - 1) / 2],
        y=[(rows - 1) / 2],
        customdata=[[layer, head]],
        mode="markers",
        name="heads",
        marker={"opacity": 0},
        selected={"marker": {"opacity": 0}},
        unselected={"marker": {"opacity": 0}},
        hovertemplate=(
            f"{escape_label(layer_label)} {layer}, {escape_label(head_label)} {head}<extra></extra>"
        ),
        showlegend=False,
        **_axes_of(subplot),
    )
