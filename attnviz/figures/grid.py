"""The model view: one small weights heatmap per (layer, head), layers down, heads across,
with invisible markers that make a click report its head; and one layer's heads, a few a row
(the multi-head lesson)."""

from __future__ import annotations

import math
from typing import Any

import plotly.graph_objects as go
import torch
import torch.nn.functional as F

from attnviz.figures.labels import escape_label
from attnviz.figures.style import COLORSCALES, FONT_SIZE, style_layout

THUMBNAIL_CELLS = 48  # a side of a model-view thumbnail, beyond which it is pooled
GRID_CELLS = 200_000  # cells of all thumbnails together: about 1.6 MB with their hover data


def thumbnail_side(layers: int, heads: int) -> int:
    """A thumbnail's side: THUMBNAIL_CELLS, less when many heads would pass GRID_CELLS (30 x 9
    heads of 48 x 48 would send 4.8 MB, over the figure budget): 27 for SmolLM2."""
    return max(8, min(THUMBNAIL_CELLS, math.isqrt(GRID_CELLS // max(1, layers * heads))))


def head_grid(
    attentions: object,
    *,
    title: str,
    layer_label: str,
    head_label: str,
    selected: tuple[int, int] | None = None,
    selectable: bool = False,
    bound: float = 1.0,
) -> go.Figure:
    """The model view: one small weights heatmap per (layer, head), layers down, heads across,
    on the weights' scale from 0 to `bound` (1 unless a caller stretches it).

    `attentions` is (L, H, r, c). Hover names the layer, head and the row/column positions; the
    enlarged head view (`heatmap`) carries the token labels. `selected` gets a frame.
    `selectable` adds, after the L x H heatmaps, one "heads" marker per thumbnail at its centre
    with `customdata` [layer, head], so that a click reports the head (`selected_head`).
    Thumbnails larger than `thumbnail_side` (THUMBNAIL_CELLS, less for many heads) are
    average-pooled to that size: a thumbnail is about 80 pixels wide, and 72 heads of 259 x 259
    tokens would send 19 MB to the browser.
    """
    tensor = torch.as_tensor(attentions, dtype=torch.float32)
    if tensor.ndim != 4:
        raise ValueError(
            f"the model view needs (layers, heads, rows, columns), got {tuple(tensor.shape)}"
        )
    layers, heads, rows, cols = tensor.shape
    side = thumbnail_side(layers, heads)
    if max(rows, cols) > side:
        size = (min(rows, side), min(cols, side))
        tensor = F.adaptive_avg_pool2d(tensor, size)  # (L, H, <= 48, <= 48)
    array = tensor.numpy()
    cells = [(layer, head) for layer in range(layers) for head in range(heads)]
    traces: list[dict[str, Any]] = [
        _thumbnail(
            array[layer, head],
            f"{escape_label(layer_label)} {layer}, {escape_label(head_label)} {head}",
            index,
            bound,
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
        framed = frame if (layer, head) == selected else {}
        layout |= _thumbnail_axes(index, *_domains(layer, head, layers, heads), framed)
    # One figure from one layout dict: make_subplots, add_trace(row=, col=) and update_xaxes
    # walk every subplot again on each call (0.76 s for 6 x 12 heads, against ~0.1 s).
    return go.Figure(data=traces, layout=layout)


HEAD_PIXELS = 150  # the height of a thumbnail of `heads_grid`
HEAD_TITLE_PIXELS = 24  # and of the head's number above it


def heads_grid(
    weights: object,
    *,
    title: str,
    head_label: str,
    per_row: int = 4,
    mask: object = None,
    selectable: bool = False,
) -> go.Figure:
    """The heads of one layer: one small weights heatmap per head, `per_row` a row, each with
    its number above it ("Head 0", ...).

    `weights` is (H, r, c), at most THUMBNAIL_CELLS a side (pooling would blend masked cells
    into allowed ones). `mask` (bool, True = may attend, broadcastable to (H, r, c)) leaves the
    masked cells as gaps, where the plot's grey shows. `selectable` adds a "heads" marker per
    thumbnail with `customdata` [0, head] (the one layer's number), as `head_grid` does.
    """
    tensor = torch.as_tensor(weights, dtype=torch.float32)
    if tensor.ndim != 3 or max(tensor.shape[1:]) > THUMBNAIL_CELLS:
        raise ValueError(
            f"the heads grid needs (heads, rows, columns) of at most {THUMBNAIL_CELLS} a side, "
            f"got {tuple(tensor.shape)}"
        )
    if mask is not None:
        allowed = torch.as_tensor(mask, dtype=torch.bool).expand_as(tensor)  # (H, r, c)
        tensor = tensor.masked_fill(~allowed, float("nan"))  # gaps
    heads, rows, cols = tensor.shape
    grid_rows, grid_cols = -(-heads // per_row), min(per_row, heads)
    height = grid_rows * (HEAD_PIXELS + HEAD_TITLE_PIXELS)
    array = tensor.numpy()
    label = escape_label(head_label)
    traces: list[dict[str, Any]] = [
        _thumbnail(array[head], f"{label} {head}", head + 1) for head in range(heads)
    ]
    layout = style_layout(title, height=height + 70, top=60)  # margins: 60 above, 10 below
    layout["annotations"] = []
    for head in range(heads):
        x_domain, y_domain = _wrapped_domains(head, grid_rows, grid_cols, height)
        layout |= _thumbnail_axes(head + 1, x_domain, y_domain, {})
        layout["annotations"].append({
            "text": f"{label} {head}", "x": sum(x_domain) / 2, "y": y_domain[1],
            "xref": "paper", "yref": "paper", "xanchor": "center", "yanchor": "bottom",
            "showarrow": False, "font": {"size": FONT_SIZE - 2}})  # fmt: skip
    if selectable:
        traces += [
            head_marker(0, head, rows, cols, "", head_label, head + 1) for head in range(heads)
        ]
        layout["hoverdistance"] = -1  # the nearest marker is the thumbnail's own
    return go.Figure(data=traces, layout=layout)


def _wrapped_domains(
    head: int, grid_rows: int, grid_cols: int, height: int
) -> tuple[list[float], list[float]]:
    """The paper fractions of head `head`'s thumbnail, `grid_cols` a row, each under its title."""
    row, col = divmod(head, grid_cols)
    width = (1 - H_SPACING * 4 * (grid_cols - 1)) / grid_cols
    left = col * (width + H_SPACING * 4)
    top = 1 - row * (HEAD_PIXELS + HEAD_TITLE_PIXELS) / height - HEAD_TITLE_PIXELS / height
    return [left, left + width], [top - HEAD_PIXELS / height, top]


def _thumbnail(z: object, name: str, index: int, bound: float = 1.0) -> dict[str, Any]:
    """One head's weights on the axes of subplot `index` (1-based), `name` (escaped) in its
    hover, without a colour bar (the 0..1 weights scale of every heatmap, or 0..`bound`). A
    plain dict, as the click markers: the figure checks each trace once (a go.Heatmap built
    here would be checked again there, hundreds of times for a large model)."""
    return {
        "type": "heatmap",
        "z": z,
        "zmin": 0.0,
        "zmax": bound,
        "colorscale": COLORSCALES["weights"],
        "showscale": False,
        "hovertemplate": f"{name}<br>%{{y}} → %{{x}}: %{{z:.3f}}<extra></extra>",
        **_axes_of(index),
    }


def _thumbnail_axes(
    index: int, x_domain: list[float], y_domain: list[float], framed: dict[str, object]
) -> dict[str, dict[str, object]]:
    """The bare x and y axes of subplot `index` (1-based) over the given paper fractions."""
    suffix = "" if index == 1 else str(index)
    return {
        f"xaxis{suffix}": _BARE_AXIS | framed | {"domain": x_domain, "anchor": f"y{suffix}"},
        f"yaxis{suffix}": _BARE_AXIS | framed | {
            "domain": y_domain, "anchor": f"x{suffix}", "autorange": "reversed"},
    }  # fmt: skip


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
) -> dict[str, Any]:
    """An invisible marker at a thumbnail's centre, on the axes of `subplot` (1-based; one trace
    a subplot: a trace has one pair of axes), as a plain scatter trace dict. Its hover replaces
    the heatmap's, which Plotly hides under a nearer point; an empty `layer_label` leaves the
    layer out of it."""
    name = f"{escape_label(head_label)} {head}"
    if layer_label:
        name = f"{escape_label(layer_label)} {layer}, {name}"
    return {
        "type": "scatter",
        "x": [(cols - 1) / 2],
        "y": [(rows - 1) / 2],
        "customdata": [[layer, head]],
        "mode": "markers",
        "name": "heads",
        "marker": {"opacity": 0},
        "selected": {"marker": {"opacity": 0}},
        "unselected": {"marker": {"opacity": 0}},
        "hovertemplate": f"{name}<extra></extra>",
        "showlegend": False,
        **_axes_of(subplot),
    }
