"""The model view: every (layer, head)'s weights as a thumbnail in one heatmap, layers down,
heads across, with invisible markers that make a click report its head; and one layer's heads,
a few a row (the multi-head lesson)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import plotly.graph_objects as go
import torch
import torch.nn.functional as F

from attnviz.figures.labels import escape_label
from attnviz.figures.style import COLORSCALES, FONT_SIZE, style_layout

THUMBNAIL_CELLS = 48  # a side of a model-view thumbnail, beyond which it is pooled
GRID_CELLS = 200_000  # cells of all thumbnails together: about 1.2 MB as the app sends them
FRAME = {"color": "#d62728", "width": 3}  # the selected head's frame


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
    """The model view: every head's weights as a thumbnail, layers down (layer 0 on top) and
    heads across, on the weights' scale from 0 to `bound` (1 unless a caller stretches it).

    `attentions` is (L, H, r, c). The thumbnails are tiles of ONE heatmap, a NaN row and column
    between them (the white background shows): 270 heatmaps on their own axes (SmolLM2) took
    Chromium 2 to 3 s to draw. Hover names the layer, head and the row/column positions; the
    enlarged head view (`heatmap`) carries the token labels. `selected` gets a frame.
    `selectable` adds one "heads" scatter, a marker per thumbnail at its centre with
    `customdata` [layer, head], so that a click reports the head (`selected_head`); the hover
    is then the nearest marker's, "layer L, head H" (Plotly.js puts a heatmap cell farther than
    any point), and the cells carry no hover data: it would double the bytes sent, unseen.
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
        tensor = F.adaptive_avg_pool2d(tensor, (min(rows, side), min(cols, side)))
    mosaic = Mosaic(*tensor.shape)
    labels = escape_label(layer_label), escape_label(head_label)
    heat = mosaic.heatmap(tensor, bound)
    layout = style_layout(title, height=int(90 * layers + 80), top=80) | {
        "plot_bgcolor": "white",
        "xaxis": _BARE_AXIS | {"domain": [0, 1 - ROW_TITLES], "range": mosaic.x_range, "ticks": ""},
        "yaxis": _BARE_AXIS | {"range": mosaic.y_range, "ticks": ""},  # no theme's tick marks
        "annotations": mosaic.titles(*labels),
        "shapes": [] if selected is None else [mosaic.frame(*selected)],
    }
    if not selectable:
        return go.Figure(data=[heat | mosaic.cell_hover(*labels)], layout=layout)
    layout["hoverdistance"] = -1  # the nearest marker is the thumbnail's own
    return go.Figure(data=[heat | {"hoverinfo": "skip"}, mosaic.markers(*labels)], layout=layout)


class Mosaic:
    """Where each (layer, head) thumbnail of r x c cells sits in the model view's one heatmap:
    layer `layer` from row layer * (r + 1), head `head` from column head * (c + 1)."""

    def __init__(self, layers: int, heads: int, rows: int, cols: int) -> None:
        self.layers, self.heads, self.rows, self.cols = layers, heads, rows, cols
        self.height = layers * (rows + 1) - 1  # a gap row between layers
        self.width = heads * (cols + 1) - 1  # a gap column between heads
        self.x_range = [-0.5, self.width - 0.5]
        self.y_range = [self.height - 0.5, -0.5]  # layer 0 on top

    def block(self, layer: int, head: int) -> tuple[slice, slice]:
        """The rows and columns of the mosaic that hold head `head` of layer `layer`."""
        top, left = layer * (self.rows + 1), head * (self.cols + 1)
        return slice(top, top + self.rows), slice(left, left + self.cols)

    def centre(self, layer: int, head: int) -> tuple[float, float]:
        """(x, y) of a thumbnail's centre, in the heatmap's cell coordinates."""
        return (
            head * (self.cols + 1) + (self.cols - 1) / 2,
            layer * (self.rows + 1) + (self.rows - 1) / 2,
        )

    def heatmap(self, weights: torch.Tensor, bound: float) -> dict[str, Any]:
        """(L, H, r, c) `weights` tiled, NaN in the gaps, on the weights' scale 0..`bound`."""
        padded = F.pad(weights, (0, 1, 0, 1), value=float("nan"))  # (L, H, r + 1, c + 1)
        z = padded.permute(0, 2, 1, 3).reshape(self.height + 1, self.width + 1)[:-1, :-1]
        return {
            "type": "heatmap",
            "z": z.numpy(),
            "zmin": 0.0,
            "zmax": bound,
            "colorscale": COLORSCALES["weights"],
            "showscale": False,
        }

    def cell_hover(self, layer_label: str, head_label: str) -> dict[str, Any]:
        """A cell's hover: its layer, head, row and column, as customdata [layer, head, row,
        column] in small ints (a quarter of int32's bytes); none over the gaps. Labels
        escaped."""
        rows = np.divmod(np.arange(self.height)[:, None], self.rows + 1)  # layer, row
        cols = np.divmod(np.arange(self.width)[None, :], self.cols + 1)  # head, column
        where = np.stack(np.broadcast_arrays(rows[0], cols[0], rows[1], cols[1]), axis=-1)
        largest = max(self.layers, self.heads, self.rows, self.cols)
        return {
            "customdata": where.astype(np.uint8 if largest < 256 else np.uint16),
            "hoverongaps": False,
            "hovertemplate": f"{layer_label} %{{customdata[0]}}, {head_label} %{{customdata[1]}}"
            "<br>%{customdata[2]} → %{customdata[3]}: %{z:.3f}<extra></extra>",
        }

    def markers(self, layer_label: str, head_label: str) -> dict[str, Any]:
        """One invisible "heads" marker a thumbnail, at its centre, `customdata` [layer, head]:
        a click anywhere reports the nearest (`hoverdistance` -1). Labels escaped."""
        cells = [(layer, head) for layer in range(self.layers) for head in range(self.heads)]
        x, y = zip(*(self.centre(layer, head) for layer, head in cells), strict=True)
        return {
            "type": "scatter",
            "x": list(x),
            "y": list(y),
            "customdata": [[layer, head] for layer, head in cells],
            "mode": "markers",
            "name": "heads",
            "marker": {"opacity": 0},
            "selected": {"marker": {"opacity": 0}},
            "unselected": {"marker": {"opacity": 0}},
            "hovertemplate": f"{layer_label} %{{customdata[0]}}, {head_label} "
            "%{customdata[1]}<extra></extra>",
            "showlegend": False,
        }

    def frame(self, layer: int, head: int) -> dict[str, Any]:
        """A red rectangle around head `head` of layer `layer`."""
        rows, cols = self.block(layer, head)
        return {
            "type": "rect", "xref": "x", "yref": "y", "line": FRAME,
            "x0": cols.start - 0.5, "x1": cols.stop - 0.5,
            "y0": rows.start - 0.5, "y1": rows.stop - 0.5,
        }  # fmt: skip

    def titles(self, layer_label: str, head_label: str) -> list[dict[str, Any]]:
        """Head numbers over the columns, layer numbers down the right side (90 px a layer:
        room for each), labels escaped."""
        common = {"showarrow": False, "font": {"size": FONT_SIZE - 3}}
        heads = [common | {
            "text": f"{head_label} {head}", "xref": "x", "x": self.centre(0, head)[0],
            "yref": "paper", "y": 1.0, "xanchor": "center", "yanchor": "bottom"}
            for head in range(self.heads)]  # fmt: skip
        layers = [common | {
            "text": f"{layer_label} {layer}", "xref": "paper", "x": 1 - ROW_TITLES,
            "yref": "y", "y": self.centre(layer, 0)[1],
            "xanchor": "left", "yanchor": "middle", "textangle": 90}
            for layer in range(self.layers)]  # fmt: skip
        return heads + layers


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
        layout |= _thumbnail_axes(head + 1, x_domain, y_domain)
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


def _thumbnail(z: object, name: str, index: int) -> dict[str, Any]:
    """One head's weights on the axes of subplot `index` (1-based), `name` (escaped) in its
    hover, without a colour bar (the 0..1 weights scale of every heatmap). A
    plain dict, as the click markers: the figure checks each trace once (a go.Heatmap built
    here would be checked again there, hundreds of times for a large model)."""
    return {
        "type": "heatmap",
        "z": z,
        "zmin": 0.0,
        "zmax": 1.0,
        "colorscale": COLORSCALES["weights"],
        "showscale": False,
        "hovertemplate": f"{name}<br>%{{y}} → %{{x}}: %{{z:.3f}}<extra></extra>",
        **_axes_of(index),
    }


def _thumbnail_axes(
    index: int, x_domain: list[float], y_domain: list[float]
) -> dict[str, dict[str, object]]:
    """The bare x and y axes of subplot `index` (1-based) over the given paper fractions."""
    suffix = "" if index == 1 else str(index)
    return {
        f"xaxis{suffix}": _BARE_AXIS | {"domain": x_domain, "anchor": f"y{suffix}"},
        f"yaxis{suffix}": _BARE_AXIS | {
            "domain": y_domain, "anchor": f"x{suffix}", "autorange": "reversed"},
    }  # fmt: skip


# The spacing between thumbnails, as fractions of the plot (make_subplots' meaning).
H_SPACING = 0.006
ROW_TITLES = 0.02  # the layer numbers' strip on the right
# No labels to make room for: automatic margins would only cost Chromium a second drawing.
_BARE_AXIS = {"showticklabels": False, "showgrid": False, "zeroline": False, "automargin": False}


def _axes_of(index: int) -> dict[str, str]:
    suffix = "" if index == 1 else str(index)
    return {"xaxis": f"x{suffix}", "yaxis": f"y{suffix}"}


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
