"""The look every attnviz chart shares: colour scales, fonts, the title and the layout."""

from __future__ import annotations

from typing import Any, Literal

import plotly.graph_objects as go

from attnviz.figures.labels import escape_label

Kind = Literal["scores", "weights", "values"]

# Colour-blind-safe scales that survive a projector: ColorBrewer's diverging RdBu / PuOr
# centred at 0, and viridis for weights on a fixed 0..1 range.
COLORSCALES: dict[str, str] = {"scores": "RdBu_r", "weights": "Viridis", "values": "PuOr_r"}
MASKED_COLOR = "#bdbdbd"
FONT_SIZE = 15


def style_layout(
    title: str, height: int, top: int = 50, background: str = MASKED_COLOR
) -> dict[str, Any]:
    """The layout every attnviz chart shares, as a plain dict: title top left, projector-sized
    fonts, auto margins. `background` shows through heatmap gaps (masked cells); curves and
    bars use white.

    Builders pass one layout dict to `go.Figure`: Plotly validates it once, where each
    `update_layout` / `update_xaxes` call walks its property paths again (~20 ms a heatmap).
    """
    return {
        "title": {
            "text": escape_label(title),
            "font": {"size": FONT_SIZE + 3},
            "x": 0.0,
            "xanchor": "left",
            "yref": "container",
            "y": 1.0,
            "yanchor": "top",
            "pad": {"t": 8},
            "automargin": True,
        },
        "font": {"size": FONT_SIZE},
        "height": height,
        "margin": {"l": 10, "r": 10, "t": top, "b": 10},
        "plot_bgcolor": background,
        "paper_bgcolor": "white",
        "hoverlabel": {"font": {"size": FONT_SIZE}},
    }


def style(
    fig: go.Figure, title: str, height: int, top: int = 50, background: str = MASKED_COLOR
) -> go.Figure:
    """`style_layout` applied to a built figure, with automatic margins on every axis."""
    fig.update_layout(style_layout(title, height, top, background))
    fig.update_xaxes(automargin=True)
    fig.update_yaxes(automargin=True)
    return fig


def note(text: str, *, x: float, y: float, **extra: Any) -> dict[str, Any]:
    """An annotation in paper coordinates, hanging from (x, y) by its top right corner."""
    return {
        "text": text,
        "xref": "paper",
        "yref": "paper",
        "x": x,
        "y": y,
        "xanchor": "right",
        "yanchor": "top",
        "showarrow": False,
        **extra,
    }
