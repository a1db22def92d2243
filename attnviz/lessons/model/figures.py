"""The model lesson's own figures: the residual stream's norms (a causal language model's next
tokens are `attnviz.figures.model.next_token_bars`; the neuron view's vectors
`attnviz.figures.heatmap.vector_rows`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from attnviz.figures.labels import escape_label
from attnviz.figures.model import BAR_COLOR, next_token_bars  # noqa: F401  (kept here too)
from attnviz.figures.style import FONT_SIZE, Y_TITLE_SPACE, style_layout, ticks_width
from attnviz.i18n import Catalogue

ROW = math.ceil(1.6 * FONT_SIZE)  # a row of tick labels, or an axis title, with its gap
LEGEND_ROW = math.ceil(1.3 * FONT_SIZE)
LEGEND_ROWS = 3  # its three entries, one a row, where the chart is narrow (beside the sinks)


def residual_norms_figure(
    norms: Sequence[Sequence[float]], title: str, text: Catalogue
) -> go.Figure:
    """(L + 1, T) residual-stream norms: position 0 against the median and the largest of the
    other positions, layer by layer (0 = the embeddings), on a log scale."""
    table = np.asarray(norms, dtype=float)
    layers = list(range(table.shape[0]))
    others = table[:, 1:] if table.shape[1] > 1 else table
    lines = [
        (text("model.sink.norm_first"), table[:, 0], "#d62728", "solid"),
        (text("model.sink.norm_median"), np.median(others, axis=1), BAR_COLOR, "solid"),
        (text("model.sink.norm_max"), others.max(axis=1), BAR_COLOR, "dot"),
    ]
    traces = [
        go.Scatter(
            x=layers,
            y=values,
            name=escape_label(name),
            mode="lines+markers",
            line={"color": color, "dash": dash},
            hovertemplate=f"{escape_label(name)}<br>%{{x}}: %{{y:.4g}}<extra></extra>",
        )
        for name, values, color, dash in lines
    ]
    layout = style_layout(title, height=400, top=60)
    # Room for the log axis's labels ("10k") and the y title beside them; below the plot, the
    # x labels, the x title and the legend, at the foot of the figure so that the x title never
    # lies over it.
    left = Y_TITLE_SPACE + ticks_width(0.0, float(np.nanmax(table, initial=1.0))) + 10
    bottom = 2 * ROW + LEGEND_ROWS * LEGEND_ROW + 10
    layout["margin"].update(l=math.ceil(left), b=bottom)
    layout.update(
        xaxis={"title": {"text": text("model.sink.layer_axis")}, "dtick": 5, "automargin": True},
        yaxis={
            "title": {"text": text("model.sink.norm_axis")},
            "type": "log",
            "automargin": True,
        },
        plot_bgcolor="white",
        legend={
            "orientation": "h", "yref": "container", "y": 0.0, "yanchor": "bottom",
            "x": 0.0, "xanchor": "left",
        },
    )  # fmt: skip
    return go.Figure(traces, layout)
