"""The model view: one small weights heatmap per (layer, head), layers down, heads across,
with invisible markers that make a click report its head."""

from __future__ import annotations

import plotly.graph_objects as go
import torch
import torch.nn.functional as F
from plotly.subplots import make_subplots

from attnviz.figures.labels import escape_label
from attnviz.figures.style import COLORSCALES, FONT_SIZE, style

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
    fig = make_subplots(
        rows=layers,
        cols=heads,
        horizontal_spacing=0.006,
        vertical_spacing=0.012,
        column_titles=[f"{escape_label(head_label)} {h}" for h in range(heads)],
        row_titles=[f"{escape_label(layer_label)} {layer}" for layer in range(layers)],
    )
    for layer in range(layers):
        for head in range(heads):
            fig.add_trace(
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
                ),
                row=layer + 1,
                col=head + 1,
            )
    if selectable:
        thumb_rows, thumb_cols = array.shape[-2:]
        for layer in range(layers):
            for head in range(heads):
                fig.add_trace(
                    head_marker(layer, head, thumb_rows, thumb_cols, layer_label, head_label),
                    row=layer + 1,
                    col=head + 1,
                )
        fig.update_layout(hoverdistance=-1)  # the nearest marker is the thumbnail's own
    fig.update_xaxes(showticklabels=False, showgrid=False, zeroline=False)
    fig.update_yaxes(showticklabels=False, showgrid=False, zeroline=False, autorange="reversed")
    if selected is not None:
        layer, head = selected
        frame = {"showline": True, "linewidth": 3, "linecolor": "#d62728", "mirror": True}
        fig.update_xaxes(row=layer + 1, col=head + 1, **frame)
        fig.update_yaxes(row=layer + 1, col=head + 1, **frame)
    fig.update_annotations(font_size=FONT_SIZE - 3)
    style(fig, title, height=int(90 * layers + 80), top=80)
    return fig.update_layout(plot_bgcolor="white")


def head_marker(
    layer: int, head: int, rows: int, cols: int, layer_label: str, head_label: str
) -> go.Scatter:
    """An invisible marker at a thumbnail's centre (one trace a subplot: a trace has one pair of
    axes). Its hover replaces the heatmap's, which Plotly hides under a nearer point."""
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
    )
