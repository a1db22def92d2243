"""Figures of the kernel-regression page: the fitted curves, the loss versus h, the weights.

Builders return `go.Figure` and draw nothing. The weights use the one heatmap builder,
`figures.heatmap`; only its ticks are thinned here (50 labels would overlap).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
import torch

from attnviz import figures
from attnviz.figures import escape_label, heatmap
from attnviz.i18n import t

# Okabe-Ito: distinguishable with every common colour-vision deficiency.
DATA_COLOR = "#56B4E9"
TRUTH_COLOR = "#000000"
CURVE_COLORS = ("#D55E00", "#CC79A7", "#0072B2")
GAP_COLOR = "#D55E00"
TICK_LIMIT = 12  # at most this many tick labels on a weights axis


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


def _every(labels: list[str]) -> dict[str, object]:
    step = max(1, -(-len(labels) // TICK_LIMIT))
    shown = range(0, len(labels), step)
    return {
        "tickmode": "array",
        "tickvals": list(shown),
        "ticktext": [escape_label(labels[i]) for i in shown],
    }


def weights_heatmap(
    weights: torch.Tensor, x_query: torch.Tensor, x_train: torch.Tensor, title: str
) -> go.Figure:
    """alpha (q, n) as a weights heatmap: test points down, training inputs across."""
    rows, cols = point_labels(x_query), point_labels(x_train)
    fig = heatmap(
        weights,
        title=title,
        kind="weights",
        row_labels=rows,
        col_labels=cols,
        row_name=t("kernels.hover.test"),
        col_name=t("kernels.hover.train"),
        x_title=t("kernels.train_points"),
        y_title=t("kernels.test_points"),
        hover={t("fig.hover.weight"): weights},
        show_numbers=False,
    )
    fig.update_xaxes(tickangle=-45, **_every(cols))
    fig.update_yaxes(**_every(rows))
    return fig.update_layout(height=620)


# Under the plot, clear of the x axis title, so no curve or point hides behind it.
LEGEND_BELOW = {"orientation": "h", "x": 0.0, "y": -0.22, "yanchor": "top"}


def _layout(fig: go.Figure, title: str, x_title: str, y_title: str) -> go.Figure:
    figures.style(fig, title, height=560, top=60, background="white")
    fig.update_layout(legend=LEGEND_BELOW)
    grid = {"showgrid": True, "gridcolor": "#e5e5e5", "zeroline": False, "automargin": True}
    fig.update_xaxes(title=escape_label(x_title), **grid)
    fig.update_yaxes(title=escape_label(y_title), **grid)
    return fig


def _with_gaps(y_hat: torch.Tensor, has_neighbour: torch.Tensor) -> list[float | None]:
    # None, not NaN: Plotly breaks the line there, and the JSON says "no value".
    return [float(v) if ok else None for v, ok in zip(y_hat, has_neighbour, strict=True)]


def fit_figure(
    x_train: torch.Tensor,
    y_train: torch.Tensor,
    x_test: torch.Tensor,
    y_true: torch.Tensor,
    curves: Sequence[Curve],
    *,
    title: str,
    bandwidth: float | None = None,
    probe: tuple[float, float] | None = None,
) -> go.Figure:
    """Training data, the true f and prediction curves; test points without a neighbour leave
    a gap in their curve and a × under it, and `probe` (x, f̂(x)) is drawn as a diamond."""
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=x_train.numpy(),
            y=y_train.numpy(),
            mode="markers",
            name=escape_label(t("kernels.fig.data")),
            marker={"color": DATA_COLOR, "size": 8, "line": {"color": "#1f4e79", "width": 1}},
            hovertemplate="x=%{x:.3f}<br>y=%{y:.3f}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=x_test.numpy(),
            y=y_true.numpy(),
            mode="lines",
            name=escape_label(t("kernels.fig.truth")),
            line={"color": TRUTH_COLOR, "dash": "dash", "width": 2},
            hovertemplate="x=%{x:.2f}<br>f(x)=%{y:.3f}<extra></extra>",
        )
    )
    floor = float(min(y_train.min(), y_true.min())) - 0.4 if len(y_train) else -0.4
    for curve in curves:
        fig.add_trace(
            go.Scatter(
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
        )
    # The gaps of the first curve (the page's one curve with a kernel that can leave gaps).
    gaps = [] if not curves else [float(x) for x in x_test[~curves[0].has_neighbour]]
    if gaps:
        h = "?" if bandwidth is None else f"{bandwidth:.3g}"
        fig.add_trace(
            go.Scatter(
                x=gaps,
                y=[floor] * len(gaps),
                mode="markers",
                name=escape_label(t("kernels.fig.gap")),
                marker={"symbol": "x-thin-open", "size": 11, "color": GAP_COLOR},
                customdata=[
                    escape_label(t("kernels.fig.gap_hover", x=f"{x:.2f}", h=h)) for x in gaps
                ],
                hovertemplate="%{customdata}<extra></extra>",
            )
        )
    if probe is not None:
        fig.add_trace(
            go.Scatter(
                x=[probe[0]],
                y=[probe[1]],
                mode="markers",
                name=escape_label(t("kernels.fig.probe")),
                marker={"symbol": "diamond", "size": 14, "color": "#F0E442",
                        "line": {"color": "#000000", "width": 2}},
                hovertemplate="x=%{x:.3f}<br>f̂(x)=%{y:.3f}<extra></extra>",
            )
        )  # fmt: skip
    return _layout(fig, title, t("kernels.fig.x"), t("kernels.fig.y"))


def loss_figure(
    bandwidths: torch.Tensor,
    train_loss: torch.Tensor,
    loo_loss: torch.Tensor,
    fitted: Sequence[tuple[float, float]],
    *,
    title: str,
) -> go.Figure:
    """Training and leave-one-out loss over a grid of h (log axis), with the fitted (h, loss)."""
    fig = go.Figure()
    h = bandwidths.numpy()
    for values, key, color in (
        (train_loss, "kernels.fig.train_loss", CURVE_COLORS[1]),
        (loo_loss, "kernels.fig.loo_loss", CURVE_COLORS[2]),
    ):
        name = escape_label(t(key))
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
            name=escape_label(t("kernels.fig.fitted")),
            marker={"symbol": "star", "size": 16, "color": "#E69F00",
                    "line": {"color": "#000000", "width": 1}},
            hovertemplate="h=%{x:.3g}<br>%{y:.4f}<extra></extra>",
        )
    )  # fmt: skip
    fig = _layout(fig, title, t("kernels.fig.h"), t("kernels.fig.loss"))
    return fig.update_xaxes(type="log")
