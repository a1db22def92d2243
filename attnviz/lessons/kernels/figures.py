"""Figures and formulas of the kernel-regression lesson: the fitted curves, the loss versus h,
the weights, and the worked example in LaTeX.

Builders return `go.Figure` and draw nothing. The weights use the one heatmap builder,
`attnviz.figures.heatmap`, with its ticks thinned (50 labels would overlap).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
import torch

from attnviz.figures import formulas
from attnviz.figures.heatmap import heatmap
from attnviz.figures.labels import escape_label
from attnviz.figures.style import style
from attnviz.i18n import Catalogue

# Okabe-Ito: distinguishable with every common colour-vision deficiency.
DATA_COLOR = "#56B4E9"
TRUTH_COLOR = "#000000"
CURVE_COLORS = ("#D55E00", "#CC79A7", "#0072B2")
GAP_COLOR = "#D55E00"
TICK_LIMIT = 12  # at most this many tick labels on a weights axis
EXAMPLE_TERMS = 4  # terms of the worked example before \dots
KERNEL_TEX = {
    "gaussian": r"K(u) = e^{-u^2/2}",
    "boxcar": r"K(u) = \mathbb{1}\left[\,|u| \le 1\,\right]",
    "constant": r"K(u) = 1",
    "epanechnikov": r"K(u) = \max\left(1 - u^2,\ 0\right)",
}


@dataclass(frozen=True)
class Curve:
    """One prediction curve: f̂ at the test points and where it exists."""

    name: str
    y_hat: torch.Tensor  # (q,)
    has_neighbour: torch.Tensor  # (q,) bool
    color: str = CURVE_COLORS[0]


def point_labels(x: torch.Tensor) -> list[str]:
    """x=1.23 for each point."""
    return [f"x={float(v):.2f}" for v in x]


def weights_heatmap(
    weights: torch.Tensor, x_query: torch.Tensor, x_train: torch.Tensor, title: str, text: Catalogue
) -> go.Figure:
    """alpha (q, n) as a weights heatmap: test points down, training inputs across."""
    rows, cols = point_labels(x_query), point_labels(x_train)
    return heatmap(
        weights,
        title=title,
        kind="weights",
        text=text,
        row_labels=rows,
        col_labels=cols,
        row_name=text("kernels.hover.test"),
        col_name=text("kernels.hover.train"),
        x_title=text("kernels.train_points"),
        y_title=text("kernels.test_points"),
        hover={text("fig.hover.weight"): weights},
        show_numbers=False,
        max_ticks=TICK_LIMIT,
        height=620,
        across=2,
        # A band of weights at most ~0.15 is faint on 0..1: the scale runs to their maximum.
        bound=weights_bound(weights),
    )


def weights_bound(weights: torch.Tensor) -> float | None:
    """The top of the weights' colour scale: their maximum when it is under a half, else 1."""
    top = float(weights.max()) if weights.numel() else 1.0
    return top if 0 < top < 0.5 else None


# Under the plot, clear of the x axis title, so no curve or point hides behind it.
LEGEND_BELOW = {"orientation": "h", "x": 0.0, "y": -0.22, "yanchor": "top"}


def _layout(fig: go.Figure, title: str, x_title: str, y_title: str) -> go.Figure:
    style(fig, title, height=560, top=60, background="white")
    # Fixed room, measured in Chromium, for the tick labels, the axis titles and the legend
    # below them, so each chart is drawn once (tests/e2e/test_margins_browser.py checks it).
    fig.update_layout(legend=LEGEND_BELOW, margin={"l": 62, "b": 185})
    grid = {"showgrid": True, "gridcolor": "#e5e5e5", "zeroline": False, "automargin": True}
    fig.update_xaxes(title=escape_label(x_title), **grid)
    fig.update_yaxes(title=escape_label(y_title), **grid)
    return fig


def _with_gaps(y_hat: torch.Tensor, has_neighbour: torch.Tensor) -> list[float | None]:
    # None, not NaN: Plotly breaks the line there, and the JSON says "no value".
    return [float(v) if ok else None for v, ok in zip(y_hat, has_neighbour, strict=True)]


def _curve_trace(x_test: torch.Tensor, curve: Curve) -> go.Scatter:
    return go.Scatter(
        x=x_test.numpy(),
        y=_with_gaps(curve.y_hat, curve.has_neighbour),
        # Markers too when there are gaps: a prediction between two gaps is one point.
        mode="lines" if bool(curve.has_neighbour.all()) else "lines+markers",
        marker={"size": 5},
        connectgaps=False,
        name=escape_label(curve.name),
        line={"color": curve.color, "width": 3},
        hovertemplate="x=%{x:.2f}<br>f̂(x)=%{y:.3f}<extra></extra>",
    )


def _gap_trace(
    gaps: list[float], floor: float, bandwidth: float | None, text: Catalogue
) -> go.Scatter:
    """A × under each test point that has no prediction."""
    h = "?" if bandwidth is None else f"{bandwidth:.3g}"
    return go.Scatter(
        x=gaps,
        y=[floor] * len(gaps),
        mode="markers",
        name=escape_label(text("kernels.fig.gap")),
        marker={"symbol": "x-thin-open", "size": 11, "color": GAP_COLOR},
        customdata=[escape_label(text("kernels.fig.gap_hover", x=f"{x:.2f}", h=h)) for x in gaps],
        hovertemplate="%{customdata}<extra></extra>",
    )


def _probe_trace(probe: tuple[float, float], text: Catalogue) -> go.Scatter:
    """The worked example's (x, f̂(x)) as a diamond."""
    return go.Scatter(
        x=[probe[0]],
        y=[probe[1]],
        mode="markers",
        name=escape_label(text("kernels.fig.probe")),
        marker={"symbol": "diamond", "size": 14, "color": "#F0E442",
                "line": {"color": "#000000", "width": 2}},
        hovertemplate="x=%{x:.3f}<br>f̂(x)=%{y:.3f}<extra></extra>",
    )  # fmt: skip


def fit_figure(
    x_train: torch.Tensor,
    y_train: torch.Tensor,
    x_test: torch.Tensor,
    y_true: torch.Tensor,
    curves: Sequence[Curve],
    *,
    title: str,
    text: Catalogue,
    bandwidth: float | None = None,
    probe: tuple[float, float] | None = None,
) -> go.Figure:
    """Training data, the true f and prediction curves; test points without a neighbour leave
    a gap in their curve and a × under it, and `probe` (x, f̂(x)) is drawn as a diamond."""
    data = go.Scatter(
        x=x_train.numpy(),
        y=y_train.numpy(),
        mode="markers",
        name=escape_label(text("kernels.fig.data")),
        marker={"color": DATA_COLOR, "size": 8, "line": {"color": "#1f4e79", "width": 1}},
        hovertemplate="x=%{x:.3f}<br>y=%{y:.3f}<extra></extra>",
    )
    truth = go.Scatter(
        x=x_test.numpy(),
        y=y_true.numpy(),
        mode="lines",
        name=escape_label(text("kernels.fig.truth")),
        line={"color": TRUTH_COLOR, "dash": "dash", "width": 2},
        hovertemplate="x=%{x:.2f}<br>f(x)=%{y:.3f}<extra></extra>",
    )
    traces = [data, truth, *(_curve_trace(x_test, curve) for curve in curves)]
    # The gaps of the first curve (the page's one curve with a kernel that can leave gaps).
    gaps = [] if not curves else [float(x) for x in x_test[~curves[0].has_neighbour]]
    if gaps:
        floor = float(min(y_train.min(), y_true.min())) - 0.4 if len(y_train) else -0.4
        traces.append(_gap_trace(gaps, floor, bandwidth, text))
    if probe is not None:
        traces.append(_probe_trace(probe, text))
    return _layout(go.Figure(traces), title, text("kernels.fig.x"), text("kernels.fig.y"))


def loss_figure(
    bandwidths: torch.Tensor,
    train_loss: torch.Tensor,
    loo_loss: torch.Tensor,
    fitted: Sequence[tuple[float, float]],
    *,
    title: str,
    text: Catalogue,
) -> go.Figure:
    """Training and leave-one-out loss over a grid of h (log axis), with the fitted (h, loss)."""
    fig = go.Figure()
    h = bandwidths.numpy()
    for values, key, color in (
        (train_loss, "kernels.fig.train_loss", CURVE_COLORS[1]),
        (loo_loss, "kernels.fig.loo_loss", CURVE_COLORS[2]),
    ):
        name = escape_label(text(key))
        fig.add_trace(
            go.Scatter(
                x=h,
                y=values.numpy(),
                mode="lines",
                name=name,
                line={"color": color, "width": 3},
                hovertemplate=f"h=%{{x:.3g}}<br>%{{y:.4f}}<extra>{name}</extra>",
            )
        )
    points = np.asarray(fitted, dtype=float).reshape(-1, 2)
    fig.add_trace(
        go.Scatter(
            x=points[:, 0],
            y=points[:, 1],
            mode="markers",
            name=escape_label(text("kernels.fig.fitted")),
            marker={"symbol": "star", "size": 16, "color": "#E69F00",
                    "line": {"color": "#000000", "width": 1}},
            hovertemplate="h=%{x:.3g}<br>%{y:.4f}<extra></extra>",
        )
    )  # fmt: skip
    fig = _layout(fig, title, text("kernels.fig.h"), text("kernels.fig.loss"))
    return fig.update_xaxes(type="log")


def formula_tex(kernel: str, bandwidth: float, n: int) -> str:
    """f(x) and alpha with the current kernel, h and n."""
    h = formulas.number(bandwidth)
    return (
        rf"\hat f(x) = \sum_{{i=1}}^{{{n}}} \alpha(x, x_i)\, y_i, \qquad "
        rf"\alpha(x, x_i) = \frac{{K\left(\frac{{x - x_i}}{{{h}}}\right)}}"
        rf"{{\sum_{{j=1}}^{{{n}}} K\left(\frac{{x - x_j}}{{{h}}}\right)}}, \qquad "
        + KERNEL_TEX[kernel]
    )


def softmax_tex(bandwidth: float) -> str:
    """The Gaussian kernel's weights as softmax attention over -(x - x_i)^2 / (2 h^2)."""
    h = formulas.number(bandwidth)
    return (
        rf"\alpha(x, x_i) = \operatorname{{softmax}}_i\left(-\frac{{(x - x_i)^2}}"
        rf"{{2 \cdot {h}^2}}\right)"
    )


def example_tex(x: float, weights: torch.Tensor, y_train: torch.Tensor) -> str:
    """f̂(x) written out with its EXAMPLE_TERMS largest weights times their targets."""
    order = torch.argsort(weights, descending=True)[:EXAMPLE_TERMS]  # (<= 4,)
    terms = [
        rf"{formulas.number(float(weights[i]))} \cdot {formulas.number(float(y_train[i]))}"
        for i in order
    ]
    if weights.numel() > EXAMPLE_TERMS:
        terms.append(r"\dots")
    value = float(weights @ y_train)
    return rf"\hat f({formulas.number(x)}) = " + " + ".join(terms) + f" = {formulas.number(value)}"
