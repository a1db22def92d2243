"""A pretrained model's attention as the Model attention page draws it: the model view (every
layer x head) and one head beside its layer's average over heads."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import plotly.graph_objects as go
import torch

from attnviz.figures.axes import TOP_SPACE
from attnviz.figures.grid import head_grid
from attnviz.figures.heatmap import heatmap
from attnviz.figures.labels import escape_label, unique_labels
from attnviz.figures.marks import select, select_cells
from attnviz.figures.style import Kind, labels_width, style_layout
from attnviz.i18n import Catalogue


def model_view(
    attentions: torch.Tensor,
    text: Catalogue,
    *,
    selectable: bool = False,
    title: str | None = None,
    bound: float = 1.0,
) -> go.Figure:
    """Every head of (L, H, r, c) `attentions`, layers down and heads across (`head_grid`)."""
    return head_grid(
        attentions,
        title=title or text("model.grid_title"),
        layer_label=text("fig.layer"),
        head_label=text("fig.head"),
        selectable=selectable,
        bound=bound,
    )


def stretched_bound(values: torch.Tensor, share: float = 0.999, side: int = 512) -> float:
    """A colour scale's top for a long input's weights, which a row spreads over thousands of
    keys: the `share` quantile of the matrix as drawn (mean-pooled to at most `side` a side),
    so that a diagonal or a column stands out; never above 1 nor below 1e-3."""
    drawn = values.float()
    if drawn.shape[-1] > side or drawn.shape[-2] > side:
        drawn = torch.nn.functional.adaptive_avg_pool2d(
            drawn.reshape(-1, *drawn.shape[-2:]),
            (min(side, drawn.shape[-2]), min(side, drawn.shape[-1])),
        )
    flat = drawn.flatten()
    k = max(1, min(flat.numel(), round(share * flat.numel())))
    return float(min(1.0, max(1e-3, float(flat.kthvalue(k).values))))


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
    *,
    bound: float | None = None,
    title: str | None = None,
) -> go.Figure:
    """One head's (r, c) weights, queries down and keys across, sized two charts across;
    `bound` stops the colour scale short of 1 (a long input's, `stretched_bound`)."""
    title = title or text("model.head_title", layer=layer, head=head)
    return heatmap(attentions[layer, head], title=title, bound=bound, **_labels(rows, cols, text))


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
    kind: Kind = "weights",
) -> go.Figure:
    """(L, H) one number per head, layers down and heads across, on the weights' scale (0 to
    1, or to `bound`; `kind="scores"` diverging about 0 for signed values); a click on a cell
    reports (layer, head) as its (row, column)."""
    layers, heads = values.shape
    fig = heatmap(
        values,
        title=title,
        kind=kind,
        bound=bound,
        text=text,
        row_labels=[str(layer) for layer in range(layers)],
        col_labels=[str(head) for head in range(heads)],
        row_name=text("fig.layer"),
        col_name=text("fig.head"),
        y_title=y_title or text("fig.layer"),
        x_title=x_title or text("fig.head"),
        show_numbers=False,
        across=across,
    )
    if selectable:
        select_cells(fig)
    return fig if selected is None else select(fig, *selected)


BAR_COLOR = "#4575b4"
LENS_ROW = 22  # px a row of the logit lens
LENS_CHARS = 7  # characters of a token a lens cell holds (hover has it whole)
BAR_ROW = 26  # px a bar


def next_token_bars(
    tokens: Sequence[str],
    probs: Sequence[float],
    title: str,
    text: Catalogue,
    *,
    top: float = 1.0,
) -> go.Figure:
    """The top next tokens as horizontal bars, the most probable on top, on an axis from 0 to
    `top` (charts set side by side for comparison share one: `shared_top`)."""
    labels = unique_labels([escape_label(token) for token in tokens])
    layout = style_layout(title, height=BAR_ROW * len(labels) + 120, top=60)
    layout.update(
        margin={"l": round(labels_width(labels)) + 20, "r": 20, "t": 60, "b": 50},
        xaxis={"title": {"text": text("model.next.probability")}, "range": [0, top]},
        yaxis={"autorange": "reversed", "type": "category"},
        plot_bgcolor="white",
    )
    bars = go.Bar(
        x=list(probs),
        y=labels,
        orientation="h",
        marker={"color": BAR_COLOR},
        text=[f"{p:.1%}" for p in probs],
        textposition="outside",
        cliponaxis=False,
        hovertemplate="%{y}: %{x:.4f}<extra></extra>",
    )
    return go.Figure(bars, layout)


def logit_lens_figure(
    tokens: Sequence[Sequence[str]],
    probs: torch.Tensor,
    hover: Sequence[Sequence[str]],
    *,
    positions: Sequence[str],
    title: str,
    text: Catalogue,
) -> go.Figure:
    """The logit lens as a grid: row 0 the embeddings, then each layer's output (the last the
    model's own), a column per position; each cell the row's most probable next token, coloured
    by the probability that row gives the output's own top token at that position."""
    rows = [text("fig.embeddings"), *(str(i) for i in range(len(tokens) - 1))]
    return heatmap(
        probs,
        title=title,
        kind="weights",
        text=text,
        row_labels=rows,
        col_labels=list(positions),
        row_name=text("fig.layer"),
        col_name=text("fig.position"),
        y_title=text("fig.after_layer"),
        x_title=text("fig.position"),
        cell_text=[[_short(token) for token in row] for row in tokens],  # escaped by heatmap
        hover_text=hover,
        max_ticks=len(rows),
        height=LENS_ROW * len(rows) + TOP_SPACE + 10,  # rows tall enough for their tokens
        show_numbers=True,  # the tokens, where they fit
    )


def before_after_bars(
    before: torch.Tensor,
    after: torch.Tensor,
    name: Callable[[int], str],
    titles: tuple[str, str],
    text: Catalogue,
) -> tuple[go.Figure, go.Figure]:
    """The 10 most probable next tokens of two (V,) distributions, on one axis; `name` reads
    a token id (each alternative alone)."""
    tops = [probs.topk(10) for probs in (before, after)]
    end = shared_top(*(top.values.tolist() for top in tops))
    first, second = (
        next_token_bars(
            [name(int(i)) for i in top.indices], top.values.tolist(), title, text, top=end
        )
        for top, title in zip(tops, titles, strict=True)
    )
    return first, second


def shared_top(*probs: Sequence[float]) -> float:
    """One axis end for bars compared side by side: the largest bar and room for its label
    (a quarter more), in steps of 0.05, at most 1."""
    largest = max((float(p) for row in probs for p in row), default=1.0)
    return min(1.0, math.ceil(largest * 1.25 / 0.05) * 0.05)


def _short(token: str) -> str:
    return token if len(token) <= LENS_CHARS else token[: LENS_CHARS - 1] + "…"
