"""How one output row is made: the per-query breakdown of raw and masked scores, weights and
each value's contribution weight_j * v_j, in three panels side by side."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go
from plotly.basedatatypes import BaseTraceType

from attnviz.figures.fit import HEIGHT_RANGE, LINE_PITCH, MAIN_WIDTH, cell_font, fitted_ticks
from attnviz.figures.labels import default_labels, escape_label, unique_labels
from attnviz.figures.marks import SELECTED_COLOR, row_frame
from attnviz.figures.matrix import (
    MASK_MARK,
    NUMBERS_LIMIT,
    Drawn,
    as_array,
    cell_number,
    matrix_traces,
    numbered_axis,
    rows_down,
)
from attnviz.figures.style import FONT_SIZE, note, style_layout, ticks_width
from attnviz.i18n import Catalogue

BREAKDOWN_SPACING = 0.08  # the gap between the breakdown's panels, a fraction of its width
PANELS = (0.34, 0.22, 0.44)  # the panels' shares of the width the gaps leave
BREAKDOWN_KEYS = 32  # keys drawn in a per-query breakdown; the others are summed in one row


def panel_slot(panel: int, bars: int) -> float:
    """About the px of one bar's slot in a panel (its share of the width, `bars` a panel)."""
    return (MAIN_WIDTH - 60) * PANELS[panel] * (1 - 2 * BREAKDOWN_SPACING) / bars


def query_breakdown(
    *,
    query: int,
    scores: object,
    masked_scores: object,
    weights: object,
    values: object,
    query_label: str | None = None,
    key_labels: Sequence[object] | None = None,
    mask: object | None = None,
    selected_key: int | None = None,
    text: Catalogue,
) -> go.Figure:
    """How output row `query` is made: per key its raw and masked score, its weight, and
    weight_j * v_j (the rows of the right panel add up to the output row at its bottom).
    `selected_key` outlines that key's bars and frames its row of the right panel."""
    shown = shown_keys(scores, masked_scores, weights, values, key_labels, mask, selected_key)
    m, d_v = shown.contributions.shape
    others = [text("fig.breakdown.others", count=shown.total - m)] if shown.rest else []
    rows = [*shown.keys, *others, text("fig.breakdown.output")]
    dims = default_labels("v", d_v)
    drawn = _table(shown, rows, dims, text)
    # Tall enough for a line per row of the right panel (up to BREAKDOWN_KEYS + 2 rows).
    height = min(HEIGHT_RANGE[1], max(420, 125 + LINE_PITCH * len(rows)))
    label = query_label if query_label is not None else f"q{query}"
    title = text("fig.breakdown.title", query=label)
    layout = style_layout(title, height=height, background="white")
    shown_scores = np.concatenate([shown.raw, shown.masked[shown.allowed], [0.0]])
    low, high = float(np.nanmin(shown_scores)), float(np.nanmax(shown_scores))
    # Room for the scores' tick labels on the left, the key labels and the legend below.
    layout["margin"] |= {"l": math.ceil(12 + ticks_width(low, high)), "b": 75}
    annotations = _panels(layout, text)
    plot_height = _panel_ticks(layout, shown, rows, dims, drawn, text)
    # The legend sits at the foot of the figure, below the rotated key labels, not over them.
    legend = {"orientation": "h", "yref": "container", "y": 0.0, "yanchor": "bottom"}
    layout.update(barmode="group", legend=legend)
    foot = _foot(shown, text)
    if foot:
        # at the foot of the figure, right, beside the legend (a fixed height from the bottom)
        lines = "<br>".join(escape_label(line) for line in foot)
        bottom = -(layout["margin"]["b"] - 4) / plot_height  # the figure's foot, in paper units
        foot_note = note(lines, x=1.0, y=bottom, yanchor="bottom")
        annotations.append({**foot_note, "align": "right", "font": {"size": FONT_SIZE - 3}})
    layout["annotations"] = annotations
    if shown.chosen.any():
        row = int(np.argmax(shown.chosen))
        layout["shapes"] = [row_frame(row, d_v, dash="dot", axes="3")]
    return go.Figure(data=[*_bars(shown, text), drawn.traces[0]], layout=layout)


@dataclass(frozen=True)
class ShownKeys:
    """One query's keys as the breakdown draws them, in key order: every key up to
    BREAKDOWN_KEYS, else the keys with the largest weights and the others summed in `rest`."""

    raw: np.ndarray  # (k,) raw scores
    masked: np.ndarray  # (k,) masked scores
    weights: np.ndarray  # (k,)
    allowed: np.ndarray  # (k,) bool
    chosen: np.ndarray  # (k,) bool: the selected key
    contributions: np.ndarray  # (k, d_v) weight_j * v_j
    keys: list[str]
    rest: list[np.ndarray]  # [] or [(1, d_v)]: the other keys' contributions summed
    output: np.ndarray  # (1, d_v) the output row, every key's contribution summed
    total: int  # keys in all
    fill: float | None  # the masked keys' fill value (None: none masked)


def shown_keys(
    scores: object,
    masked_scores: object,
    weights: object,
    values: object,
    key_labels: Sequence[object] | None,
    mask: object | None,
    selected_key: int | None,
) -> ShownKeys:
    """The keys a breakdown shows of one query's row (`ShownKeys`)."""
    raw = np.asarray(scores, dtype=np.float64).reshape(-1)  # (m,)
    masked = np.asarray(masked_scores, dtype=np.float64).reshape(-1)  # (m,)
    w = np.asarray(weights, dtype=np.float64).reshape(-1)  # (m,)
    v = as_array(values)  # (m, d_v)
    m = v.shape[0]
    keys = unique_labels(key_labels if key_labels is not None else default_labels("k", m))
    allowed = np.ones(m, dtype=bool) if mask is None else np.asarray(mask, dtype=bool).reshape(-1)
    fill = float(masked[~allowed][0]) if not allowed.all() else None
    chosen = np.arange(m) == (-1 if selected_key is None else selected_key)  # (m,)
    contributions = w[:, None] * v  # (m, d_v)
    output = contributions.sum(axis=0, keepdims=True)  # (1, d_v)
    if m <= BREAKDOWN_KEYS:
        return ShownKeys(raw, masked, w, allowed, chosen, contributions, keys, [], output, m, fill)
    # Thousands of bars read as noise and take Chromium ~0.7 s to draw: the keys with the
    # largest weights, in key order, and the others summed in one row above the output.
    shown = np.sort(np.argsort(-w, kind="stable")[:BREAKDOWN_KEYS])  # (k,)
    others = np.setdiff1d(np.arange(m), shown)
    rest = [contributions[others].sum(axis=0, keepdims=True)]  # [(1, d_v)]
    return ShownKeys(
        raw[shown], masked[shown], w[shown], allowed[shown], chosen[shown],
        contributions[shown], [keys[i] for i in shown], rest, output, m, fill,
    )  # fmt: skip


def _bars(shown: ShownKeys, text: Catalogue) -> list[BaseTraceType]:
    """The left panel's raw and masked scores (a × on each masked key), the middle's weights."""
    allowed = shown.allowed
    masked = np.where(allowed, shown.masked, np.nan)
    traces = [
        _bar(shown, shown.raw, text("fig.breakdown.raw"), "#4575b4", ""),
        # Masked scores hold the fill value (-1e6, -inf): drawing it would flatten the chart,
        # so only the allowed keys get a bar and the masked ones a label.
        _bar(shown, masked, text("fig.breakdown.masked"), "#d73027", ""),
    ]
    if not allowed.all():
        x = np.arange(len(allowed))
        traces.append(
            go.Scatter(
                x=x[~allowed],
                y=np.zeros(int((~allowed).sum())),
                mode="text",
                # a × each, as on the heatmaps: words would overlap under narrow bars
                text=[MASK_MARK] * int((~allowed).sum()),
                textposition="top center",
                # no wider than a bar's slot in the scores panel
                textfont={"size": min(FONT_SIZE, max(6, int(1.1 * panel_slot(0, len(x)))))},
                showlegend=False,
                hoverinfo="skip",
            )
        )
    weights = text("fig.breakdown.weight")
    return [*traces, _bar(shown, shown.weights, weights, "#35b779", "2", numbers=True)]


def _bar(
    shown: ShownKeys, y: np.ndarray, name: str, color: str, axes: str, numbers: bool = False
) -> go.Bar:
    """A bar a key, named `name`, on the panel of `axes`; its numbers above where they fit."""
    m = len(y)
    name = escape_label(name)
    labels = [cell_number(v) for v in y]
    slot = panel_slot(1, m)
    size = cell_font(labels, slot, FONT_SIZE + 2) if numbers and m <= NUMBERS_LIMIT else None
    return go.Bar(
        x=np.arange(m),
        y=y,
        name=name,
        marker_color=color,
        customdata=[escape_label(k) for k in shown.keys],
        text=labels if size else None,
        textposition="outside",
        textfont={"size": size or FONT_SIZE},
        hovertemplate=f"%{{customdata}}: %{{y:.4g}}<extra>{name}</extra>",
        # the selected key's bars outlined, as its cell is boxed on the heatmaps
        marker_line={"color": SELECTED_COLOR, "width": np.where(shown.chosen, 3, 0)},
        xaxis=f"x{axes}",
        yaxis=f"y{axes}",
    )


def _table(shown: ShownKeys, rows: list[str], dims: list[str], text: Catalogue) -> Drawn:
    """The right panel: each shown key's weight_j * v_j, the others' sum, the output row."""
    table = np.vstack([shown.contributions, *shown.rest, shown.output])  # (k [+ 1] + 1, d_v)
    drawn = matrix_traces(
        table,
        kind="values",
        row_labels=rows,
        col_labels=dims,
        row_name=text("fig.hover.key"),
        col_name=text("fig.dims"),
        mask=None,
        hover={text("fig.hover.value"): table},
        text=text,
        show_numbers=max(len(shown.keys) + 1, len(dims)) <= NUMBERS_LIMIT,
        showscale=False,
    )
    drawn.traces[0].update(xaxis="x3", yaxis="y3")
    return drawn


def _panels(layout: dict[str, Any], text: Catalogue) -> list[dict[str, Any]]:
    """Three panels side by side, widths 0.34 : 0.22 : 0.44 of what the 0.08 gaps leave, each
    titled above (as `make_subplots` lays them out, at a tenth of its cost): their axes set in
    `layout`, their titles returned."""
    titles = ("fig.breakdown.scores", "fig.breakdown.weights", "fig.breakdown.contrib")
    left = 0.0
    annotations = []
    for panel, (width, title_key) in enumerate(zip(PANELS, titles, strict=True)):
        axes = "" if panel == 0 else str(panel + 1)
        right = min(1.0, left + width * (1 - 2 * BREAKDOWN_SPACING))
        layout[f"xaxis{axes}"] = {"anchor": f"y{axes}", "domain": [left, right], "automargin": True}
        # Only the left panel's y axis meets the figure's edge: automatic margins on the
        # others would measure their labels for nothing (a layout pass each in Chromium).
        layout[f"yaxis{axes}"] = {
            "anchor": f"x{axes}",
            "domain": [0.0, 1.0],
            "automargin": not panel,
        }
        annotations.append(
            {
                **note(escape_label(text(title_key)), x=(left + right) / 2, y=1.0),
                "xanchor": "center",
                "yanchor": "bottom",
                "font": {"size": FONT_SIZE + 1},
            }
        )
        left = right + BREAKDOWN_SPACING
    return annotations


def _panel_ticks(
    layout: dict[str, Any],
    shown: ShownKeys,
    rows: list[str],
    dims: list[str],
    drawn: Drawn,
    text: Catalogue,
) -> float:
    """Each panel's labels thinned to what its width holds (`fit.fitted_ticks`); the plot's
    height in px."""
    plot_width = MAIN_WIDTH - layout["margin"]["l"] - layout["margin"]["r"]
    widths = [plot_width * share * (1 - 2 * BREAKDOWN_SPACING) for share in PANELS]
    plot_height = layout["height"] - layout["margin"]["t"] - layout["margin"]["b"]
    for axes, room in (("", widths[0]), ("2", widths[1])):
        if shown.rest:
            # The top keys are scattered (k17, k402, ...): rotated labels under 32 bars cannot
            # be read and cost Chromium a second layout; hover names each bar's key.
            layout[f"xaxis{axes}"].update(showticklabels=False, title=text("fig.keys"))
        else:
            layout[f"xaxis{axes}"].update(fitted_ticks(shown.keys, room, across=True))
    layout["xaxis3"].update(
        side="bottom", **fitted_ticks(dims, widths[2], across=True, numbered=numbered_axis(dims))
    )
    layout["yaxis3"].update(
        {
            **fitted_ticks(rows, plot_height, across=False, keep_last=1 + len(shown.rest)),
            **rows_down(len(rows), drawn),
            "automargin": False,
        }
    )
    if drawn.encoding == "image":
        layout["xaxis3"]["range"] = [-0.5, len(dims) - 0.5]
    layout["yaxis2"]["range"] = [0, 1.15]
    return plot_height


def _foot(shown: ShownKeys, text: Catalogue) -> list[str]:
    """The notes at the figure's foot: the masked keys' fill value, the keys left out."""
    foot = []
    if shown.fill is not None:
        foot.append(text("fig.breakdown.masked_note", fill=cell_number(shown.fill)))
    if shown.rest:
        foot.append(text("fig.breakdown.top", shown=len(shown.keys), total=shown.total))
    return foot
