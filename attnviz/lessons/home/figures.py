"""The landing page's picture: queries, keys and values -> scores -> mask -> softmax -> output."""

from __future__ import annotations

import plotly.graph_objects as go

from attnviz.figures.labels import escape_label
from attnviz.figures.style import style
from attnviz.i18n import Catalogue


def pipeline_figure(text: Catalogue) -> go.Figure:
    """The picture of the landing page: Q, K, V -> scores -> mask -> softmax -> output."""
    boxes = [
        ("pipeline.queries", 0.0, 2.0, "#fde0dd"),
        ("pipeline.keys", 0.0, 1.0, "#e0ecf4"),
        ("pipeline.values", 0.0, 0.0, "#e5f5e0"),
        ("pipeline.scores", 1.0, 1.5, "#f0f0f0"),
        ("pipeline.mask", 2.0, 1.5, "#f0f0f0"),
        ("pipeline.softmax", 3.0, 1.5, "#f0f0f0"),
        ("pipeline.output", 3.0, 0.0, "#fff7bc"),
    ]
    arrows = [(0, 3), (1, 3), (3, 4), (4, 5), (5, 6), (2, 6)]
    fig = go.Figure()
    for key, x, y, color in boxes:
        fig.add_shape(
            type="rect",
            x0=x - 0.42,
            x1=x + 0.42,
            y0=y - 0.28,
            y1=y + 0.28,
            fillcolor=color,
            line={"color": "#555555"},
        )
        fig.add_annotation(
            x=x, y=y, text=escape_label(text(key)), showarrow=False, font={"size": 14}
        )
    for start, end in arrows:
        _, x0, y0, _ = boxes[start]
        _, x1, y1, _ = boxes[end]
        fig.add_annotation(
            x=x1 - 0.42 if x1 > x0 else x1,
            y=y1 + (0.28 if y1 < y0 else 0.0),
            ax=x0 + 0.42 if x1 > x0 else x0,
            ay=y0 - (0.28 if y1 < y0 else 0.0),
            xref="x",
            yref="y",
            axref="x",
            ayref="y",
            showarrow=True,
            arrowhead=3,
            arrowwidth=2,
            arrowcolor="#555555",
            text="",
        )
    fig.update_xaxes(visible=False, range=[-0.5, 3.5])
    fig.update_yaxes(visible=False, range=[-0.4, 2.4])
    return style(fig, text("home.pipeline_title"), height=330).update_layout(plot_bgcolor="white")
