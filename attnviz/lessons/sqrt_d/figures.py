"""Figures of the "why sqrt(d)" lesson: histograms of q·k and curves against d (Vaswani et al.
2017, footnote 4). Builders return `go.Figure` and never draw; tensors in, traces out."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import plotly.graph_objects as go
import torch

from attnviz.figures.labels import escape_label
from attnviz.figures.style import FONT_SIZE, style_layout
from attnviz.i18n import Catalogue

# Okabe-Ito colours (safe for colour-blind readers): without scaling vermillion, with scaling
# blue, theory dark grey.
RAW_COLOR = "#D55E00"
SCALED_COLOR = "#0072B2"
THEORY_COLOR = "#444444"
GRID_COLOR = "#e5e5e5"
BINS = 80  # bins across the shared x range of both histograms
CURVE_POINTS = 201


def _array(x: torch.Tensor | np.ndarray | float) -> np.ndarray:
    return np.asarray(x.detach().cpu() if isinstance(x, torch.Tensor) else x, dtype=np.float64)


# Every axis: a light grid and a line, no zero line, automatic margins as the fallback.
AXIS = {"automargin": True, "gridcolor": GRID_COLOR, "zeroline": False, "showline": True}


def _layout(title: str, height: int, axes: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """attnviz.figures' look on a white plot area with a light grid and the legend on top, and
    `axes` ("xaxis", "yaxis2", ...) over AXIS. One layout dict, as every builder: make_subplots,
    add_trace and update_xaxes each walk the figure again (~0.15 s for the page's four)."""
    layout = style_layout(title, height, top=60, background="white") | {
        "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0.0},
    }
    # Fixed room, measured in Chromium, for these charts' tick labels (up to four characters)
    # and axis titles, so each is drawn once (tests/e2e/test_margins_browser.py checks it).
    layout["margin"] |= {"l": 72, "b": 55}
    for name, axis in axes.items():
        layout[name] = AXIS | axis
    return layout


def _panel_title(text: str, x: float, y: float) -> dict[str, Any]:
    """A panel's title centred above it (where make_subplots puts subplot_titles)."""
    return {"text": escape_label(text), "x": x, "y": y, "xref": "paper", "yref": "paper",
            "xanchor": "center", "yanchor": "bottom", "showarrow": False,
            "font": {"size": FONT_SIZE + 1}}  # fmt: skip


def _log2_axis(ds: np.ndarray, text: Catalogue) -> dict[str, object]:
    """A log x axis with ticks at 1, 4, 16, ...: a label at every power of 2 would overlap."""
    ticks = [int(d) for d in ds if math.log2(d) % 2 == 0]
    return {
        "type": "log",
        "tickvals": ticks,
        "ticktext": [str(d) for d in ticks],
        "title": {"text": escape_label(text("sqrt_d.fig.d_axis"))},
    }


def _normal_density(x: np.ndarray, variance: float) -> np.ndarray:
    return np.exp(-(x**2) / (2 * variance)) / math.sqrt(2 * math.pi * variance)


def histogram(raw: torch.Tensor, scaled: torch.Tensor, d: int, text: Catalogue) -> go.Figure:
    """Histograms of q·k (top) and q·k/sqrt(d) (bottom) on one x axis with the same bins,
    each with the normal density of its theoretical variance (d and 1) drawn over it."""
    raw_x, scaled_x = _array(raw), _array(scaled)  # (S,), (S,)
    limit = float(max(np.abs(raw_x).max(), np.abs(scaled_x).max(), 3.0))
    size = 2 * limit / BINS
    bins = {"start": -limit, "end": limit + size, "size": size}
    grid = np.linspace(-limit, limit, CURVE_POINTS)  # (P,)
    traces: list[go.Histogram | go.Scatter] = []
    for axes, (x, variance, color, name_key) in zip(
        ("", "2"),
        (
            (raw_x, float(d), RAW_COLOR, "sqrt_d.fig.raw"),
            (scaled_x, 1.0, SCALED_COLOR, "sqrt_d.fig.scaled"),
        ),
        strict=True,
    ):
        traces.append(_sample_histogram(x, bins, color, text(name_key), axes))
        traces.append(_normal_curve(grid, variance, text("sqrt_d.fig.normal"), axes))
    return go.Figure(data=traces, layout=_histogram_layout(len(raw_x), d, text))


def _sample_histogram(
    x: np.ndarray, bins: dict[str, float], color: str, name: str, axes: str
) -> go.Histogram:
    """The samples `x` as a probability density over `bins`, on axes x`axes` and y`axes`."""
    name = escape_label(name)
    return go.Histogram(
        showlegend=False,
        x=x,
        xbins=bins,
        histnorm="probability density",
        name=name,
        marker={"color": color, "line": {"color": "white", "width": 0.5}},
        opacity=0.85,
        hovertemplate=f"%{{x}}: %{{y:.3g}}<extra>{name}</extra>",
        xaxis=f"x{axes}",
        yaxis=f"y{axes}",
    )


def _normal_curve(grid: np.ndarray, variance: float, name: str, axes: str) -> go.Scatter:
    """The normal density of `variance` over `grid`, dashed, on axes x`axes` and y`axes`."""
    return go.Scatter(
        x=grid,
        y=_normal_density(grid, variance),
        mode="lines",
        name=escape_label(name),
        line={"color": THEORY_COLOR, "dash": "dash", "width": 2},
        showlegend=False,
        hoverinfo="skip",
        xaxis=f"x{axes}",
        yaxis=f"y{axes}",
    )


def _histogram_layout(samples: int, d: int, text: Catalogue) -> dict[str, Any]:
    """The histograms' layout: two panels on one x range, 0.12 of the height apart, each titled
    above."""
    density = {"title": {"text": escape_label(text("sqrt_d.fig.density"))}}
    layout = _layout(
        text("sqrt_d.fig.hist_title", samples=samples),
        560,
        {
            "xaxis": {"anchor": "y", "domain": [0.0, 1.0], "matches": "x2"},
            "xaxis2": {"anchor": "y2", "domain": [0.0, 1.0],
                       "title": {"text": escape_label(text("sqrt_d.fig.score_axis"))}},
            "yaxis": {"anchor": "x", "domain": [0.56, 1.0], **density},
            "yaxis2": {"anchor": "x2", "domain": [0.0, 0.44], **density},
        },
    )  # fmt: skip
    layout["bargap"] = 0.0
    layout["annotations"] = [
        _panel_title(text("sqrt_d.fig.hist_raw", d=d), 0.5, 1.0),
        _panel_title(text("sqrt_d.fig.hist_scaled", d=d), 0.5, 0.44),
    ]
    return layout


def _curve(
    x: np.ndarray, y: np.ndarray, name: str, group: str, color: str, legend: bool
) -> go.Scatter:
    name = escape_label(name)
    return go.Scatter(
        x=x,
        y=y,
        mode="lines+markers",
        name=name,
        legendgroup=group,
        showlegend=legend,
        line={"color": color, "width": 3, "dash": "solid" if color == SCALED_COLOR else "dot"},
        marker={"size": 9, "symbol": "circle" if color == SCALED_COLOR else "square"},
        hovertemplate=f"d = %{{x}}: %{{y:.4g}}<extra>{name}</extra>",
    )


def _current(d: int, y: list[float], legend: bool, text: Catalogue) -> go.Scatter:
    """Large open diamonds at the chosen d, on both curves of a panel."""
    name = escape_label(text("sqrt_d.fig.current", d=d))
    return go.Scatter(
        x=[d] * len(y),
        y=y,
        mode="markers",
        name=name,
        legendgroup="current",
        showlegend=legend,
        marker={
            "size": 18,
            "symbol": "diamond-open",
            "color": THEORY_COLOR,
            "line": {"width": 3, "color": THEORY_COLOR},
        },
        hovertemplate=f"d = %{{x}}: %{{y:.4g}}<extra>{name}</extra>",
    )


def _reference(x: np.ndarray, y: np.ndarray, name: str, legend: bool) -> go.Scatter:
    return go.Scatter(
        x=x,
        y=y,
        mode="lines",
        name=escape_label(name),
        showlegend=legend,
        line={"color": THEORY_COLOR, "dash": "dash", "width": 2},
        hoverinfo="skip",
    )


def variance(
    curve: dict[str, torch.Tensor], d: int, raw_var: float, scaled_var: float, text: Catalogue
) -> go.Figure:
    """Sample variance of q·k and q·k/sqrt(d) against d on log axes, with Var = d and Var = 1."""
    ds = _array(curve["d"])  # (D,)
    traces = [
        _curve(ds, _array(curve["raw"]), text("sqrt_d.fig.raw"), "raw", RAW_COLOR, True),
        _curve(
            ds, _array(curve["scaled"]), text("sqrt_d.fig.scaled"), "scaled", SCALED_COLOR, True
        ),
        _reference(ds, ds, text("sqrt_d.fig.theory_d"), True),
        _reference(ds, np.ones_like(ds), text("sqrt_d.fig.theory_1"), True),
        _current(d, [raw_var, scaled_var], True, text),
    ]
    y_title = {"text": escape_label(text("sqrt_d.fig.variance_axis"))}
    layout = _layout(
        text("sqrt_d.fig.variance_title"),
        460,
        {"xaxis": _log2_axis(ds, text), "yaxis": {"type": "log", "dtick": 1, "title": y_title}},
    )
    # Above the line Var = d the upper left is empty, and a legend on top would wrap into rows.
    layout["legend"] = {
        "orientation": "v",
        "x": 0.02,
        "xanchor": "left",
        "y": 0.98,
        "yanchor": "top",
        "bgcolor": "rgba(255, 255, 255, 0.85)",
    }
    return go.Figure(data=traces, layout=layout)


def saturation(
    raw: dict[str, torch.Tensor],
    scaled: dict[str, torch.Tensor],
    m: int,
    d: int,
    current: tuple[dict[str, torch.Tensor], dict[str, torch.Tensor]],
    text: Catalogue,
) -> go.Figure:
    """Largest softmax weight (left) and entropy of the weights (right) against d, without
    and with scaling; dashed lines mark the uniform softmax (1/m and log m)."""
    ds = _array(raw["d"])  # (D,)
    panels = (
        ("max_weight", 1 / m, text("sqrt_d.fig.uniform_weight", m=m)),
        ("entropy", math.log(m), text("sqrt_d.fig.uniform_entropy", m=m)),
    )
    traces = []
    for axes, (name, uniform, uniform_label) in zip(("", "2"), panels, strict=True):
        first = not axes
        panel = [
            _curve(ds, _array(raw[name]), text("sqrt_d.fig.raw"), "raw", RAW_COLOR, first),
            _curve(
                ds, _array(scaled[name]), text("sqrt_d.fig.scaled"), "scaled", SCALED_COLOR, first
            ),
            _reference(ds, np.full_like(ds, uniform), uniform_label, True),
            _current(d, [float(current[0][name][0]), float(current[1][name][0])], first, text),
        ]
        traces += [trace.update(xaxis=f"x{axes}", yaxis=f"y{axes}") for trace in panel]
    # Two panels side by side, 0.1 of the width apart.
    layout = _layout(
        text("sqrt_d.fig.saturation_title", m=m),
        500,
        {
            "xaxis": {"anchor": "y", "domain": [0.0, 0.45], **_log2_axis(ds, text)},
            "xaxis2": {"anchor": "y2", "domain": [0.55, 1.0], **_log2_axis(ds, text)},
            "yaxis": {"anchor": "x", "domain": [0.0, 1.0], "range": [0, 1.05],
                      "title": {"text": escape_label(text("sqrt_d.fig.weight_axis"))}},
            "yaxis2": {"anchor": "x2", "domain": [0.0, 1.0], "range": [0, math.log(m) * 1.08],
                       "title": {"text": escape_label(text("sqrt_d.fig.entropy_axis"))}},
        },
    )  # fmt: skip
    return go.Figure(data=traces, layout=layout)


def gradient(
    raw: dict[str, torch.Tensor],
    scaled: dict[str, torch.Tensor],
    d: int,
    current: tuple[dict[str, torch.Tensor], dict[str, torch.Tensor]],
    text: Catalogue,
) -> go.Figure:
    """Frobenius norm of the softmax Jacobian against d, without and with scaling."""
    ds = _array(raw["d"])  # (D,)
    traces = [
        _curve(ds, _array(raw["jacobian_norm"]), text("sqrt_d.fig.raw"), "raw", RAW_COLOR, True),
        _curve(
            ds,
            _array(scaled["jacobian_norm"]),
            text("sqrt_d.fig.scaled"),
            "scaled",
            SCALED_COLOR,
            True,
        ),
        _current(
            d,
            [float(current[0]["jacobian_norm"][0]), float(current[1]["jacobian_norm"][0])],
            True,
            text,
        ),
    ]
    y_title = {"text": escape_label(text("sqrt_d.fig.grad_axis"))}
    layout = _layout(
        text("sqrt_d.fig.grad_title"),
        460,
        {"xaxis": _log2_axis(ds, text), "yaxis": {"rangemode": "tozero", "title": y_title}},
    )
    return go.Figure(data=traces, layout=layout)
