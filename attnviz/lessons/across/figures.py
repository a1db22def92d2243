"""The across-layers lesson's figures: a rollout or flow matrix, one row's attribution through
the layers, a head statistic as a layers x heads grid (a click reports its head), and
per-token bars of rollout, flow and saliency."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import plotly.graph_objects as go
import torch

from attnviz.figures.fit import LINE_PITCH, TICK_GAP, chart_width
from attnviz.figures.heatmap import heatmap
from attnviz.figures.labels import escape_label, unique_labels
from attnviz.figures.matrix import largest
from attnviz.figures.model import head_values
from attnviz.figures.style import Y_TITLE_SPACE, labels_width, style_layout, ticks_width
from attnviz.i18n import Catalogue

BAR_COLORS = ("#4575b4", "#d73027", "#fdae61")  # ColorBrewer RdYlBu's ends and an orange
BAR_HEIGHT = 300  # px of one panel of bars
AXIS_ROOM = 90  # px of a bar chart's width that its y axis, ticks and title take
STATISTICS_A_ROW = 2  # head-statistics grids side by side: each at least 300 px wide


def token_matrix(
    matrix: torch.Tensor, tokens: Sequence[str], title: str, text: Catalogue, across: float = 2
) -> go.Figure:
    """(T, T) rollout or flow: outputs (positions of the top layer) down, input tokens across."""
    return heatmap(
        matrix,
        title=title,
        kind="activations",
        text=text,
        row_labels=tokens,
        col_labels=tokens,
        row_name=text("across.output"),
        col_name=text("across.input"),
        y_title=text("across.outputs"),
        x_title=text("across.inputs"),
        across=across,
    )


def row_by_layer(
    rollout: torch.Tensor, row: int, tokens: Sequence[str], title: str, text: Catalogue
) -> go.Figure:
    """(L, T, T) rollout -> (L, T): what position `row` draws from each input token, through
    layers 0..l in row l."""
    layers = rollout.shape[0]
    return heatmap(
        rollout[:, row],  # (L, T)
        title=title,
        kind="activations",
        text=text,
        row_labels=[text("across.layer.option", layer=layer) for layer in range(layers)],
        col_labels=tokens,
        row_name=text("across.through"),
        col_name=text("across.input"),
        y_title=text("across.through"),
        x_title=text("across.inputs"),
        across=2,
    )


def statistic_grid(
    values: torch.Tensor,
    *,
    title: str,
    share: bool,
    text: Catalogue,
    selected: tuple[int, int] | None = None,
) -> go.Figure:
    """(L, H) one statistic per head, layers down, heads across, two grids a row; a click on
    a cell reports (layer, head) as its (row, column); `selected` is boxed. Every statistic is
    drawn on the weights' scale (high is yellow): a `share` on 0..1, the others from 0 to their
    largest head."""
    return head_values(
        values,
        title=title,
        text=text,
        bound=None if share else largest(values),
        y_title=text("across.layers"),
        x_title=text("across.heads"),
        selectable=True,
        selected=selected,
        across=STATISTICS_A_ROW,
    )


def token_bars(
    tokens: Sequence[str],
    panels: Sequence[Mapping[str, torch.Tensor]],
    *,
    title: str,
    y_titles: Sequence[str],
    boundaries: Sequence[float] = (),
    across: float = 1,
) -> go.Figure:
    """Per-token bars, one panel (a shared token axis, panels stacked) per mapping of series
    names to (T,) values; `boundaries` draws a dashed line between sentences. `across` is how
    many charts the page sets side by side: the token labels stand upright when they would not
    fit across that share of the page."""
    if len(panels) != len(y_titles):
        raise ValueError(f"{len(panels)} panels and {len(y_titles)} axis titles")
    labels = [escape_label(label) for label in unique_labels(tokens)]
    upright = labels_upright(tokens, across)
    count = len(panels)
    traces: list[go.Bar] = []
    layout = style_layout(title, height=BAR_HEIGHT * count + 120, top=70, background="white")
    layout |= {"barmode": "group", "legend": {"orientation": "h", "y": 1.0, "yanchor": "bottom"}}
    for index, (series, y_title) in enumerate(zip(panels, y_titles, strict=True)):
        axis = "" if index == 0 else str(index + 1)
        traces += panel_bars(series, labels, axis, first_colour=len(traces))
        layout |= panel_axes(index, count, axis, labels, y_title, upright)
    left, bottom = bar_margins(tokens, panels, upright)
    layout["margin"]["l"] = left
    layout["margin"]["b"] = bottom
    layout["height"] += bottom
    layout["shapes"] = [
        {
            "type": "line", "xref": "x", "yref": "paper", "x0": x, "x1": x, "y0": 0, "y1": 1,
            "line": {"dash": "dash", "color": "#888", "width": 1},
        }
        for x in boundaries
    ]  # fmt: skip
    return go.Figure(data=traces, layout=layout)


def labels_upright(tokens: Sequence[str], across: float) -> bool:
    """Whether the token labels stand upright: lying, they would not fit their slots across
    `across`'s share of the page."""
    slot = (chart_width(across) - AXIS_ROOM) / max(len(tokens), 1)  # px a token
    return labels_width(unique_labels(tokens)) + TICK_GAP > slot


def panel_bars(
    series: Mapping[str, torch.Tensor], labels: list[str], axis: str, first_colour: int
) -> list[go.Bar]:
    """One panel's bars on axes x`axis` and y`axis`, a trace a series, coloured on through
    BAR_COLORS from `first_colour`."""
    return [
        go.Bar(
            x=list(range(len(labels))),
            y=torch.as_tensor(values, dtype=torch.float64).tolist(),
            name=escape_label(name),
            marker={"color": BAR_COLORS[(first_colour + offset) % len(BAR_COLORS)]},
            customdata=labels,
            hovertemplate=f"%{{customdata}}<br>{escape_label(name)}: %{{y:.4g}}<extra></extra>",
            xaxis=f"x{axis}",
            yaxis=f"y{axis}",
        )
        for offset, (name, values) in enumerate(series.items())
    ]


def panel_axes(
    index: int, count: int, axis: str, labels: list[str], y_title: str, upright: bool
) -> dict[str, dict[str, object]]:
    """The x and y axes of panel `index` of `count`, stacked from the top with a gap between
    them; only the lowest writes the token labels."""
    gap = 0.08
    height = (1 - gap * (count - 1)) / count
    top = 1 - index * (height + gap)
    positions = list(range(len(labels)))
    return {
        f"xaxis{axis}": {
            "domain": [0, 1],
            "anchor": f"y{axis}",
            "matches": None if index == 0 else "x",
            "tickmode": "array",
            "tickvals": positions,
            "ticktext": labels if index == count - 1 else [""] * len(labels),
            "showgrid": False,
        }
        | ({"tickangle": -90} if upright else {}),
        f"yaxis{axis}": {
            "domain": [max(top - height, 0), top],
            "anchor": f"x{axis}",
            "title": {"text": escape_label(y_title)},
            "zeroline": True,
            "zerolinecolor": "#888",
            "gridcolor": "#eee",
        },
    }


def bar_margins(
    tokens: Sequence[str], panels: Sequence[Mapping[str, torch.Tensor]], upright: bool
) -> tuple[int, int]:
    """The left and bottom margins (px) that hold the tick labels and titles already
    (attnviz.figures.style): the widest y tick label of any panel, and the token labels lying
    or standing under the lowest one."""
    numbers = torch.cat(
        [torch.as_tensor(v, dtype=torch.float64).reshape(-1) for p in panels for v in p.values()]
    )
    low, high = min(0.0, float(numbers.min())), max(0.0, float(numbers.max()))
    label_room = labels_width(unique_labels(tokens)) if upright else LINE_PITCH
    return math.ceil(ticks_width(low, high) + Y_TITLE_SPACE + 12), math.ceil(label_room + 16)
