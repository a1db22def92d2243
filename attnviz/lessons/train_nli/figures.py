"""Figures of the training page: the loss and accuracy curves per epoch, and the alignment of
the watched dev pair after an epoch. Builders return `go.Figure` and never draw."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from attnviz.figures.heatmap import heatmap
from attnviz.figures.labels import escape_label
from attnviz.figures.style import style_layout
from attnviz.i18n import Catalogue

# Okabe-Ito colours: loss vermillion, training accuracy sky blue, dev accuracy blue.
LOSS_COLOR, TRAIN_COLOR, DEV_COLOR = "#D55E00", "#56B4E9", "#0072B2"


def curves_figure(
    loss: Sequence[float],
    train_accuracy: Sequence[float],
    dev_accuracy: Sequence[float | None],
    epochs: int,
    text: Catalogue,
) -> go.Figure:
    """Loss (left axis) and accuracy (right axis, 0 to 1) per epoch, the x axis over every
    epoch of the job, so the curves grow into it as training goes."""
    x = list(range(1, len(loss) + 1))
    traces = [
        go.Scatter(x=x, y=list(loss), name=escape_label(text("train_nli.loss")),
                   mode="lines+markers", line={"color": LOSS_COLOR}, yaxis="y"),
        go.Scatter(x=x, y=list(train_accuracy), name=escape_label(text("train_nli.train_accuracy")),
                   mode="lines+markers", line={"color": TRAIN_COLOR, "dash": "dot"}, yaxis="y2"),
        go.Scatter(x=x, y=list(dev_accuracy), name=escape_label(text("train_nli.dev_accuracy")),
                   mode="lines+markers", line={"color": DEV_COLOR}, yaxis="y2"),
    ]  # fmt: skip
    layout = style_layout(text("train_nli.curves"), height=360, top=70, background="white")
    layout["xaxis"] = {
        "title": escape_label(text("train_nli.epoch_axis")),
        "range": [0.5, max(epochs, 1) + 0.5],
        "dtick": 1 if epochs <= 15 else 2,
        "automargin": True,
    }
    top = max([1.2, *[v * 1.05 for v in loss]])
    layout["yaxis"] = {"title": escape_label(text("train_nli.loss_axis")), "range": [0, top],
                       "automargin": True}  # fmt: skip
    # Ticks of its own every 0.2: left to plotly, the right axis took fractions of the left one's.
    layout["yaxis2"] = {"title": escape_label(text("train_nli.accuracy_axis")), "range": [0, 1],
                        "tickmode": "linear", "tick0": 0, "dtick": 0.2, "overlaying": "y",
                        "side": "right", "automargin": True}  # fmt: skip
    layout["legend"] = {"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0.0}
    return go.Figure(data=traces, layout=layout)


def alignment_figure(
    weights: Sequence[Sequence[float]],
    hypothesis: Sequence[str],
    premise: Sequence[str],
    epoch: int,
    text: Catalogue,
) -> go.Figure:
    """The trained F's alignment of the watched pair: hypothesis tokens down, each row's
    softmax over the premise tokens across (the NLI page's default view)."""
    return heatmap(
        weights,
        title=text("train_nli.alignment_title", epoch=epoch),
        kind="weights",
        text=text,
        row_labels=list(hypothesis),
        col_labels=list(premise),
        row_name=text("nli.hypothesis_tokens"),
        col_name=text("nli.premise_tokens"),
        y_title=text("nli.hypothesis_tokens"),
        x_title=text("nli.premise_tokens"),
        hover={text("fig.hover.weight"): weights},
    )
