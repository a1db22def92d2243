"""The NLI lesson's figures: one pair's alignment scores e, both softmax directions and the hard
alignment; the comparisons of G and the aggregated vectors; the verdict and confusion matrices."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go
import torch

from attnviz.figures.fit import colorbar_ticks, fitted_ticks
from attnviz.figures.heatmap import heatmap
from attnviz.figures.labels import escape_label, unique_labels
from attnviz.figures.marks import boxed_note, mark_cells
from attnviz.figures.matrix import as_array, axis_ticks, matrix_traces
from attnviz.figures.panels import panels
from attnviz.figures.style import FONT_SIZE, colorbar, labels_width, style_layout
from attnviz.i18n import Catalogue
from attnviz.lessons.nli.compute import PairView
from attnviz.nli.data import LABEL_KEYS, LABELS

ALIGNMENTS = ("e", "weights", "other")  # one pair's alignment charts, by name
# The panels of `alignments_figure`, in order: with a trained model and without.
TRAINED_PANELS = ("trained_weights", "weights", "trained_e", "e", "trained_other", "other")
UNTRAINED_PANELS = ("e", "weights", "other")
# Okabe-Ito: bluish green, grey-blue, vermillion; readable for every common colour vision.
VERDICT_COLOURS = {"entailment": "#009E73", "neutral": "#56B4E9", "contradiction": "#D55E00"}


def alignment_figures(
    view: PairView, row_name: str, col_name: str, text: Catalogue
) -> dict[str, go.Figure]:
    """e, the row-wise weights with the hard alignment (each row's argmax) boxed, and the other
    direction, by name ("e", "weights", "other"; ALIGNMENTS)."""
    labels: dict[str, Any] = {
        "text": text,
        "row_labels": view.rows,
        "col_labels": view.cols,
        "row_name": row_name,
        "col_name": col_name,
        "y_title": row_name,
        "x_title": col_name,
        "across": 2,
    }
    hover = {text("fig.hover.score"): view.e, text("fig.hover.weight"): view.weights}
    rows_title = text("nli.weights_rows_title", rows=row_name, cols=col_name)
    cols_title = text("nli.weights_cols_title", rows=row_name, cols=col_name)
    hard = [(int(row), int(col)) for row, col in torch.nonzero(view.hard > 0.5)]
    notes = [boxed_note(text("nli.hard_note"))] if hard else []
    weights = heatmap(
        view.weights, title=rows_title, kind="weights", hover=hover, notes=notes, **labels
    )
    figs = [
        heatmap(view.e, title=text("nli.e_title"), kind="scores", hover=hover, **labels),
        mark_cells(weights, hard),
        heatmap(view.other, title=cols_title, kind="weights", **labels),
    ]
    return dict(zip(ALIGNMENTS, figs, strict=True))


def alignments_figure(
    untrained: PairView, trained: PairView | None, row_name: str, col_name: str, text: Catalogue
) -> go.Figure:
    """Every alignment chart of one pair as one figure of panels, two across: the trained
    model's (left) beside the untrained one's, the row-wise weights (the hard alignment boxed),
    e and the other direction down (`TRAINED_PANELS`); without a trained model, e beside the
    weights and the other direction below (`UNTRAINED_PANELS`). Side by side on one colour scale
    (the two models' weights, their other directions), two panels share one colour bar."""
    figs = alignment_figures(untrained, row_name, col_name, text)
    if trained is None:
        return panels([figs[name] for name in UNTRAINED_PANELS], columns=2)
    trained_figs = alignment_figures(trained, row_name, col_name, text)
    figs |= {f"trained_{name}": fig for name, fig in trained_figs.items()}
    return panels([figs[name] for name in TRAINED_PANELS], columns=2)


# The compare figure's geometry, in pixels: rows share what is left of a bounded plot height.
ROW_PX = 22  # a row's height, until there are more than ROWS_PX / ROW_PX of them
ROWS_PX = 420  # the height the G rows share at most (128-token sentences: 1.6 px a row)
PANEL_GAP = 44  # between panels: the next panel's title
AGGREGATE_ROW_PX = 36
MIN_PANEL_PX = 120  # a G panel's least height: a short hypothesis beside a long premise
COMPARE_TOP, COMPARE_BOTTOM = 86, 58  # the title and the first panel's; the dimension axis


def panel_heights(premise_rows: int, hypothesis_rows: int) -> list[float]:
    """The px of the premise's G panel, the hypothesis's and v's. The G rows share ROWS_PX at
    most (ROW_PX a row while they fit), but neither G panel gets less than MIN_PANEL_PX (or its
    rows at ROW_PX, if fewer): a 4-token hypothesis beside a 128-token premise keeps readable
    rows. v's two rows are never thinner than AGGREGATE_ROW_PX: its colour bar needs the length."""
    shared = ROWS_PX / (premise_rows + hypothesis_rows)

    def panel(rows: int, share: float) -> float:
        return min(rows * ROW_PX, max(MIN_PANEL_PX, share))

    hypothesis = panel(hypothesis_rows, hypothesis_rows * shared)
    premise = panel(premise_rows, ROWS_PX - hypothesis)
    return [premise, hypothesis, 2 * max(min(ROW_PX, shared), AGGREGATE_ROW_PX)]


def compare_figure(
    compare_a: object,
    compare_b: object,
    aggregate: object,
    premise: Sequence[str],
    hypothesis: Sequence[str],
    text: Catalogue,
) -> go.Figure:
    """Compare and aggregate as one figure: G's output per premise token and per hypothesis
    token (la, g) and (lb, g), then their sums v_A and v_B (2, g), stacked on one dimension
    axis. G ends in a ReLU, so every value is >= 0: the two G panels share one scale from 0,
    and v (a sum over tokens, larger) has its own."""
    matrices = [as_array(compare_a), as_array(compare_b), as_array(aggregate)]
    labels = [unique_labels(premise), unique_labels(hypothesis), ["v_A", "v_B"]]
    titles = [text("nli.compare_a"), text("nli.compare_b"), text("nli.aggregate")]
    row_names = [text("nli.premise_tokens"), text("nli.hypothesis_tokens"), ""]
    dims = [str(i) for i in range(matrices[0].shape[1])]
    rows = [len(names) for names in labels]
    heights = panel_heights(rows[0], rows[1])
    domains, plot_px = panel_domains(heights)
    scales = [
        float(max(np.nanmax(matrices[0], initial=0.0), np.nanmax(matrices[1], initial=0.0))),
        float(np.nanmax(matrices[2], initial=0.0)),
    ]
    traces: list[Any] = []
    layout = style_layout(
        text("nli.compare_title"),
        height=COMPARE_TOP + round(plot_px) + COMPARE_BOTTOM,
        top=COMPARE_TOP,
    )
    right = 10
    for panel, (z, names, row_name) in enumerate(zip(matrices, labels, row_names, strict=True)):
        top = scales[0] if panel < 2 else scales[1]
        trace = compare_trace(z, names, dims, row_name or text("nli.vector"), panel, top, text)
        if trace.showscale:
            trace.colorbar, width = compare_colorbar(panel, domains, plot_px, top)
            right = max(right, width)
        traces.append(trace)
        layout[f"yaxis{'' if panel == 0 else panel + 1}"] = panel_axis(
            domains[panel], names, heights[panel]
        )
    layout["xaxis"] = dimension_axis(dims, len(rows), text)
    layout["annotations"] = panel_titles(titles, domains)
    every_label = [label for names in labels for label in names]
    layout["margin"] |= {"l": math.ceil(16 + labels_width(every_label)), "r": right,
                         "b": COMPARE_BOTTOM}  # fmt: skip
    return go.Figure(data=traces, layout=layout)


def panel_domains(heights: Sequence[float]) -> tuple[list[list[float]], float]:
    """Each panel's share of the plot height, top down, with PANEL_GAP px left empty between
    them, and the plot's height in px."""
    plot_px = sum(heights) + PANEL_GAP * (len(heights) - 1)
    domains, y = [], plot_px
    for height in heights:
        domains.append([max(0.0, (y - height) / plot_px), y / plot_px])
        y -= height + PANEL_GAP
    return domains, plot_px


def compare_trace(
    z: np.ndarray,
    names: list[str],
    dims: list[str],
    row_name: str,
    panel: int,
    top: float,
    text: Catalogue,
) -> Any:
    """Panel `panel`'s heatmap on the shared dimension axis, coloured from 0 to `top`; the
    first G panel and v carry a colour bar (one for the two G panels, one for v)."""
    drawn = matrix_traces(
        z,
        kind="activations",
        row_labels=names,
        col_labels=dims,
        row_name=row_name,
        col_name=text("nli.dims"),
        mask=None,
        hover={text("fig.hover.value"): z},
        show_numbers=False,
        text=text,
        showscale=panel in (0, 2),
    )
    trace = drawn.traces[0]
    trace.update(zmin=0.0, zmax=top or 1.0, xaxis="x", yaxis="y" if panel == 0 else f"y{panel + 1}")
    return trace


def panel_axis(domain: list[float], names: list[str], height: float) -> dict[str, Any]:
    """A panel's token axis, top down, with the labels its `height` in px holds (128-token rows
    are 1.6 px each)."""
    return {
        "domain": domain,
        "anchor": "x",
        "showgrid": False,
        "zeroline": False,
        "autorange": "reversed",
        **fitted_ticks(names, height, across=False),
    }


def dimension_axis(dims: list[str], panels: int, text: Catalogue) -> dict[str, Any]:
    """The dimension axis the panels share, under the lowest of `panels`."""
    return {
        "title": escape_label(text("nli.dims")),
        "anchor": f"y{panels}",
        "showgrid": False,
        "zeroline": False,
        "range": [-0.5, len(dims) - 0.5],
        **axis_ticks(dims),
    }


def compare_colorbar(
    panel: int, domains: list[list[float]], plot_px: float, top: float
) -> tuple[dict[str, Any], int]:
    """Panel `panel`'s colour bar and the right margin it needs: G's spans both G panels (top
    of the first to the bottom of the second), v's its own panel."""
    low = domains[1][0] if panel == 0 else domains[2][0]
    high = domains[panel][1]
    settings, width = colorbar(0.0, top or 1.0)
    ticks = colorbar_ticks((high - low) * plot_px)  # as many labels as its length holds
    return settings | {"y": low, "yanchor": "bottom", "len": high - low, "nticks": ticks}, width


def panel_titles(titles: Sequence[str], domains: list[list[float]]) -> list[dict[str, Any]]:
    """Each panel's title, left-aligned just above it."""
    return [
        {
            "text": escape_label(title),
            "xref": "paper",
            "yref": "paper",
            "x": 0.0,
            "y": domain[1],
            "xanchor": "left",
            "yanchor": "bottom",
            "yshift": 4,
            "showarrow": False,
            "font": {"size": FONT_SIZE},
        }
        for title, domain in zip(titles, domains, strict=True)
    ]


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


def confusion_figure(
    table: list[list[int]], title: str, text: Catalogue, across: float = 1
) -> go.Figure:
    """A confusion matrix: gold labels down, predictions across; colour and number are the same
    quantity, each row's share (a row sums to 1), as its colour bar's title says; the count on
    hover. `across`: the charts the page sets side by side (its share of the column)."""
    counts = torch.tensor(table, dtype=torch.float64)  # (3, 3)
    shares = counts / counts.sum(dim=1, keepdim=True).clamp_min(1)
    names = [text(LABEL_KEYS[label]) for label in LABELS]
    figure = heatmap(
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
        hover={text("nli.confusion.share"): shares, text("nli.confusion.count"): counts},
        height=340,
        across=across,
    )
    # The colour bar names what colour and number both are (the counts are in the hover).
    bar_title = {"text": escape_label(text("nli.confusion.bar")), "side": "top",
                 "font": {"size": FONT_SIZE - 2}}  # fmt: skip
    return figure.update_traces(colorbar_title=bar_title)


def accuracy_bars(
    groups: Sequence[str],
    found: Sequence[tuple[float, int]],
    title: str,
    axis: str,
    text: Catalogue,
) -> go.Figure:
    """Accuracy per group as vertical bars on 0..1, each with its accuracy and pair count written
    above it (an empty group has no bar)."""
    names = [escape_label(group) for group in groups]
    values = [None if math.isnan(accuracy) else accuracy for accuracy, _ in found]
    written = [
        "" if value is None else text("nli.score.bar", accuracy=f"{value:.2f}", pairs=f"{n:,}")
        for value, (_, n) in zip(values, found, strict=True)
    ]
    bar = go.Bar(
        x=names, y=values, text=written, textposition="outside", marker_color="#4c78a8",
        cliponaxis=False, constraintext="none", textfont={"size": FONT_SIZE - 2},
        hovertemplate="%{x}: %{y:.4f}<extra></extra>",
    )  # fmt: skip
    layout = style_layout(title, height=250, background="white")
    layout["yaxis"] = {"range": [0, 1.3], "title": escape_label(text("nli.score.accuracy")),
                       "tickvals": [0, 0.25, 0.5, 0.75, 1.0], "automargin": True}  # fmt: skip
    layout["xaxis"] = {"title": escape_label(axis), "automargin": True, "type": "category"}
    layout["margin"] |= {"l": 70, "b": 60}
    return go.Figure(data=[bar], layout=layout)
