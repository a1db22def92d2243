"""One head as bertviz's head view draws it (Vig 2019): the tokens in two columns, queries on
the left and keys on the right, and a line from each query to each key, as opaque as its
weight. Hovering a token lists its strongest lines."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go
import torch

from attnviz.figures.labels import escape_label
from attnviz.figures.style import FONT_SIZE, style_layout, text_width
from attnviz.i18n import Catalogue

SHADES = 10  # lines are drawn in this many opacities (one trace each, not one trace a line)
FAINTEST = 0.5 / SHADES  # lighter lines would be invisible: they are left out
LINE_COLOR = "#4575b4"
ROW_HEIGHT = 24  # px a token
HOVER_TOP = 5  # lines listed when a token is hovered
LINES_WIDTH = 320  # px between the two columns


def head_lines(
    weights: object,
    query_labels: Sequence[object],
    key_labels: Sequence[object],
    *,
    title: str,
    text: Catalogue,
) -> go.Figure:
    """The (n, m) `weights` of one head as lines from n queries (left) to m keys (right).

    A line's opacity is its weight, in SHADES steps; weights under FAINTEST are not drawn.
    """
    w = torch.as_tensor(weights, dtype=torch.float32)
    if w.ndim != 2 or w.shape != (len(query_labels), len(key_labels)):
        raise ValueError(
            f"the head view needs (queries, keys) weights with a label each: weights "
            f"{tuple(w.shape)}, {len(query_labels)} query and {len(key_labels)} key labels"
        )
    queries = [escape_label(label) for label in query_labels]
    keys = [escape_label(label) for label in key_labels]
    shade = torch.round(w.clamp(0, 1) * SHADES).long().clamp(min=1)  # (n, m) 1..SHADES
    shade[w < FAINTEST] = 0
    traces: list[go.Scatter] = []
    for level in range(1, SHADES + 1):
        pairs = (shade == level).nonzero().tolist()
        if not pairs:
            continue
        xs: list[float | None] = []
        ys: list[float | None] = []
        for i, j in pairs:
            xs += [0, 1, None]
            ys += [i, j, None]
        line = {"color": LINE_COLOR, "width": 2}
        trace = {"mode": "lines", "line": line, "hoverinfo": "skip", "showlegend": False}
        traces.append(go.Scatter(x=xs, y=ys, opacity=level / SHADES, **trace))
    traces.append(_tokens(queries, keys, w, 0, text("fig.lines.row")))
    traces.append(_tokens(keys, queries, w.T, 1, text("fig.lines.col")))
    rows = max(len(queries), len(keys))
    side = max(text_width(label) for label in [*queries, *keys, "m"]) + 16
    layout = style_layout(title, height=rows * ROW_HEIGHT + 110, top=80)
    layout.update(
        width=round(2 * side + LINES_WIDTH),
        plot_bgcolor="white",
        margin={"l": side, "r": side, "t": 80, "b": 10},
        xaxis={"visible": False, "range": [-0.02, 1.02], "fixedrange": True},
        yaxis={"visible": False, "range": [rows - 0.5, -0.5], "fixedrange": True},
        annotations=[
            _heading(text("fig.lines.queries"), 0, "right"),
            _heading(text("fig.lines.keys"), 1, "left"),
        ],
    )
    return go.Figure(traces, layout)


def _tokens(labels: list[str], others: list[str], w: torch.Tensor, x: int, what: str) -> go.Scatter:
    """One column of tokens; each hover lists its HOVER_TOP strongest lines (`w` row-wise)."""
    top = torch.topk(w, min(HOVER_TOP, w.shape[1]), dim=1)
    hover = [
        f"<b>{label}</b><br>{what}:<br>"
        + "<br>".join(f"{others[j]}  {v:.2f}" for v, j in zip(vals, idx, strict=True))
        for label, vals, idx in zip(labels, top.values.tolist(), top.indices.tolist(), strict=True)
    ]
    return go.Scatter(
        x=[x] * len(labels),
        y=list(range(len(labels))),
        mode="markers+text",
        text=labels,
        textposition="middle left" if x == 0 else "middle right",
        textfont={"size": FONT_SIZE},
        marker={"size": 8, "color": LINE_COLOR},
        hovertext=hover,
        hoverinfo="text",
        showlegend=False,
        cliponaxis=False,  # the tokens stand in the margins, beside the plot
    )


def _heading(label: str, x: int, anchor: str) -> dict[str, object]:
    return {
        "text": f"<b>{escape_label(label)}</b>", "x": x, "y": 1, "xref": "x", "yref": "paper",
        "yanchor": "bottom", "xanchor": anchor, "showarrow": False, "yshift": 6,
    }  # fmt: skip
