"""The landing page's picture: queries, keys and values -> scores -> mask -> softmax -> output."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from attnviz.figures.labels import escape_label
from attnviz.figures.style import style_layout
from attnviz.i18n import Catalogue

BOXES = [  # (words, x, y, fill)
    ("pipeline.queries", 0.0, 2.0, "#fde0dd"),
    ("pipeline.keys", 0.0, 1.0, "#e0ecf4"),
    ("pipeline.values", 0.0, 0.0, "#e5f5e0"),
    ("pipeline.scores", 1.0, 1.5, "#f0f0f0"),
    ("pipeline.mask", 2.0, 1.5, "#f0f0f0"),
    ("pipeline.softmax", 3.0, 1.5, "#f0f0f0"),
    ("pipeline.output", 3.0, 0.0, "#fff7bc"),
]
ARROWS = [(0, 3), (1, 3), (3, 4), (4, 5), (5, 6), (2, 6)]  # (from box, to box)
HALF_WIDTH, HALF_HEIGHT = 0.42, 0.28
LINE = "#555555"


def _arrow(start: int, end: int) -> dict[str, Any]:
    """An arrow from one box's edge to the next one's."""
    _, x0, y0, _ = BOXES[start]
    _, x1, y1, _ = BOXES[end]
    return {
        "x": x1 - HALF_WIDTH if x1 > x0 else x1,
        "y": y1 + (HALF_HEIGHT if y1 < y0 else 0.0),
        "ax": x0 + HALF_WIDTH if x1 > x0 else x0,
        "ay": y0 - (HALF_HEIGHT if y1 < y0 else 0.0),
        "xref": "x",
        "yref": "y",
        "axref": "x",
        "ayref": "y",
        "showarrow": True,
        "arrowhead": 3,
        "arrowwidth": 2,
        "arrowcolor": LINE,
        "text": "",
    }


def pipeline_figure(text: Catalogue) -> go.Figure:
    """The picture of the landing page: Q, K, V -> scores -> mask -> softmax -> output."""
    shapes = [
        {"type": "rect", "x0": x - HALF_WIDTH, "x1": x + HALF_WIDTH, "y0": y - HALF_HEIGHT,
         "y1": y + HALF_HEIGHT, "fillcolor": color, "line": {"color": LINE}}
        for _, x, y, color in BOXES
    ]  # fmt: skip
    words = [
        {"x": x, "y": y, "text": escape_label(text(key)), "showarrow": False, "font": {"size": 14}}
        for key, x, y, _ in BOXES
    ]
    # One layout dict, as every builder: add_shape and add_annotation validate the figure again
    # at each call (13 calls, ~50 ms).
    layout = style_layout(text("home.pipeline_title"), height=330, background="white") | {
        "shapes": shapes,
        "annotations": words + [_arrow(start, end) for start, end in ARROWS],
        "xaxis": {"visible": False, "range": [-0.5, 3.5]},
        "yaxis": {"visible": False, "range": [-0.4, 2.4]},
    }
    return go.Figure(layout=layout)
