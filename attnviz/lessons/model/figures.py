"""The model lesson's own figures: a causal language model's most probable next tokens (the
neuron view's vectors are `attnviz.figures.heatmap.vector_rows`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from attnviz.figures.labels import escape_label, unique_labels
from attnviz.figures.style import labels_width, style_layout
from attnviz.i18n import Catalogue

BAR_COLOR = "#4575b4"
BAR_ROW = 26  # px a bar


def next_token_bars(
    tokens: Sequence[str], probs: Sequence[float], title: str, text: Catalogue
) -> go.Figure:
    """The top next tokens as horizontal bars, the most probable on top."""
    labels = unique_labels([escape_label(token) for token in tokens])
    layout = style_layout(title, height=BAR_ROW * len(labels) + 120, top=60)
    layout.update(
        margin={"l": round(labels_width(labels)) + 20, "r": 20, "t": 60, "b": 50},
        xaxis={"title": {"text": text("model.next.probability")}, "range": [0, 1]},
        yaxis={"autorange": "reversed", "type": "category"},
        plot_bgcolor="white",
    )
    bars = go.Bar(
        x=list(probs),
        y=labels,
        orientation="h",
        marker={"color": BAR_COLOR},
        text=[f"{p:.1%}" for p in probs],
        textposition="outside",
        cliponaxis=False,
        hovertemplate="%{y}: %{x:.4f}<extra></extra>",
    )
    return go.Figure(bars, layout)


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
    layout = style_layout(title, height=360, top=60)
    layout.update(
        xaxis={"title": {"text": text("model.sink.layer_axis")}, "dtick": 5},
        yaxis={"title": {"text": text("model.sink.norm_axis")}, "type": "log"},
        plot_bgcolor="white",
        legend={"orientation": "h", "y": -0.25},
    )
    return go.Figure(traces, layout)
