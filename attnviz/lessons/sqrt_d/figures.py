"""Figures of the "why sqrt(d)" lesson: histograms of q·k and curves against d (Vaswani et al.
2017, footnote 4). Builders return `go.Figure` and never draw; tensors in, traces out."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
import torch
from plotly.subplots import make_subplots

from attnviz.figures.labels import escape_label
from attnviz.figures.style import FONT_SIZE, style
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


def _style(fig: go.Figure, title: str, height: int) -> go.Figure:
    # attnviz.figures' look, on a white plot area with a light grid and the legend on top.
    style(fig, title, height, top=60, background="white")
    fig.update_layout(
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0.0},
    )
    fig.update_xaxes(automargin=True, gridcolor=GRID_COLOR, zeroline=False, showline=True)
    fig.update_yaxes(automargin=True, gridcolor=GRID_COLOR, zeroline=False, showline=True)
    for annotation in fig.layout.annotations:  # subplot titles
        annotation.font = {"size": FONT_SIZE + 1}
    return fig


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
    fig = make_subplots(
        rows=2,
        cols=1,
        shared_xaxes=True,
        vertical_spacing=0.12,
        subplot_titles=[
            escape_label(text("sqrt_d.fig.hist_raw", d=d)),
            escape_label(text("sqrt_d.fig.hist_scaled", d=d)),
        ],
    )
    for row, (x, variance, color, name_key) in enumerate(
        (
            (raw_x, float(d), RAW_COLOR, "sqrt_d.fig.raw"),
            (scaled_x, 1.0, SCALED_COLOR, "sqrt_d.fig.scaled"),
        ),
        start=1,
    ):
        name = escape_label(text(name_key))
        fig.add_trace(
            go.Histogram(
                showlegend=False,
                x=x,
                xbins=bins,
                histnorm="probability density",
                name=name,
                marker={"color": color, "line": {"color": "white", "width": 0.5}},
                opacity=0.85,
                hovertemplate=f"%{{x}}: %{{y:.3g}}<extra>{name}</extra>",
            ),
            row=row,
            col=1,
        )
        fig.add_trace(
            go.Scatter(
                x=grid,
                y=_normal_density(grid, variance),
                mode="lines",
                name=escape_label(text("sqrt_d.fig.normal")),
                line={"color": THEORY_COLOR, "dash": "dash", "width": 2},
                showlegend=False,
                hoverinfo="skip",
            ),
            row=row,
            col=1,
        )
    fig.update_yaxes(title={"text": escape_label(text("sqrt_d.fig.density"))})
    fig.update_xaxes(title={"text": escape_label(text("sqrt_d.fig.score_axis"))}, row=2, col=1)
    fig.update_xaxes(showticklabels=True, row=1, col=1)
    fig.update_layout(bargap=0.0)
    return _style(fig, text("sqrt_d.fig.hist_title", samples=len(raw_x)), height=560)


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
    fig = go.Figure()
    fig.add_trace(_curve(ds, _array(curve["raw"]), text("sqrt_d.fig.raw"), "raw", RAW_COLOR, True))
    fig.add_trace(
        _curve(ds, _array(curve["scaled"]), text("sqrt_d.fig.scaled"), "scaled", SCALED_COLOR, True)
    )
    fig.add_trace(_reference(ds, ds, text("sqrt_d.fig.theory_d"), True))
    fig.add_trace(_reference(ds, np.ones_like(ds), text("sqrt_d.fig.theory_1"), True))
    fig.add_trace(_current(d, [raw_var, scaled_var], True, text))
    fig.update_xaxes(**_log2_axis(ds, text))
    fig.update_yaxes(
        type="log", dtick=1, title={"text": escape_label(text("sqrt_d.fig.variance_axis"))}
    )
    fig = _style(fig, text("sqrt_d.fig.variance_title"), height=460)
    # Above the line Var = d the upper left is empty, and a legend on top would wrap into rows.
    fig.update_layout(
        legend={
            "orientation": "v",
            "x": 0.02,
            "xanchor": "left",
            "y": 0.98,
            "yanchor": "top",
            "bgcolor": "rgba(255, 255, 255, 0.85)",
        }
    )
    return fig


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
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.1)
    panels = (
        ("max_weight", 1 / m, text("sqrt_d.fig.uniform_weight", m=m)),
        ("entropy", math.log(m), text("sqrt_d.fig.uniform_entropy", m=m)),
    )
    for col, (name, uniform, uniform_label) in enumerate(panels, start=1):
        first = col == 1
        fig.add_trace(
            _curve(ds, _array(raw[name]), text("sqrt_d.fig.raw"), "raw", RAW_COLOR, first), 1, col
        )
        fig.add_trace(
            _curve(
                ds, _array(scaled[name]), text("sqrt_d.fig.scaled"), "scaled", SCALED_COLOR, first
            ),
            1,
            col,
        )
        fig.add_trace(_reference(ds, np.full_like(ds, uniform), uniform_label, True), 1, col)
        at_d = [float(current[0][name][0]), float(current[1][name][0])]
        fig.add_trace(_current(d, at_d, first, text), 1, col)
        fig.update_xaxes(**_log2_axis(ds, text), row=1, col=col)
    fig.update_yaxes(range=[0, 1.05], title={"text": escape_label(text("sqrt_d.fig.weight_axis"))})
    fig.update_yaxes(
        range=[0, math.log(m) * 1.08],
        title={"text": escape_label(text("sqrt_d.fig.entropy_axis"))},
        row=1,
        col=2,
    )
    return _style(fig, text("sqrt_d.fig.saturation_title", m=m), height=500)


def gradient(
    raw: dict[str, torch.Tensor],
    scaled: dict[str, torch.Tensor],
    d: int,
    current: tuple[dict[str, torch.Tensor], dict[str, torch.Tensor]],
    text: Catalogue,
) -> go.Figure:
    """Frobenius norm of the softmax Jacobian against d, without and with scaling."""
    ds = _array(raw["d"])  # (D,)
    fig = go.Figure()
    fig.add_trace(
        _curve(ds, _array(raw["jacobian_norm"]), text("sqrt_d.fig.raw"), "raw", RAW_COLOR, True)
    )
    fig.add_trace(
        _curve(
            ds,
            _array(scaled["jacobian_norm"]),
            text("sqrt_d.fig.scaled"),
            "scaled",
            SCALED_COLOR,
            True,
        )
    )
    at_d = [float(current[0]["jacobian_norm"][0]), float(current[1]["jacobian_norm"][0])]
    fig.add_trace(_current(d, at_d, True, text))
    fig.update_xaxes(**_log2_axis(ds, text))
    fig.update_yaxes(rangemode="tozero", title={"text": escape_label(text("sqrt_d.fig.grad_axis"))})
    return _style(fig, text("sqrt_d.fig.grad_title"), height=460)
