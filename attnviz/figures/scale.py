"""A figure's text larger, with the room around it: presenter mode's charts, or a notebook's
figure for a projector.

Every builder sizes its chart in pixels for the main column's width (`attnviz.figures.fit`):
fonts, margins that hold tick labels, colour bars, the height that makes cells square. Scaling
each of those pixel sizes by one factor gives the same layout at a larger size, which a wider
column holds as the builder planned (presenter mode folds the sidebar: 1.25 times the width at
a 1,400-px window). Positions on the axes and in paper fractions are left as they are, so a
click still lands on the cell under it.
"""

from __future__ import annotations

import weakref
from typing import Any

import plotly.graph_objects as go

# Pixel lengths a figure's layout and traces carry, by property name; a `size` is scaled only
# where it is a font's (a marker's or a histogram bin's size is not text).
PIXELS = frozenset(
    {"height", "thickness", "xpad", "ypad", "standoff", "xshift", "yshift", "borderpad", "ticklen"}
)
BOXES = frozenset({"margin", "pad"})  # their l, r, t, b (and a margin's pad) are pixels
# id of a figure alive -> its scaled copies by scale (figures are unhashable: they compare by
# content); an entry goes with its figure.
_SCALED: dict[int, dict[float, go.Figure]] = {}


def _scaled_props(props: dict[str, Any], scale: float, parent: str = "") -> dict[str, Any]:
    """`props` (a layout's or a trace's styling, under the property `parent`) with its pixel
    sizes scaled."""
    out: dict[str, Any] = {}
    for name, value in props.items():
        if name == "template":  # Plotly's own defaults, drawn with the fonts set above it
            out[name] = value
        elif isinstance(value, dict):
            out[name] = _scaled_props(value, scale, name)
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            out[name] = [_scaled_props(item, scale) for item in value]  # annotations, shapes
        elif (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and (name in PIXELS or parent in BOXES or (name == "size" and parent.endswith("font")))
        ):
            out[name] = value * scale
        else:
            out[name] = value
    return out


def scaled(fig: go.Figure, scale: float) -> go.Figure:
    """`fig` with its text and the pixels around it `scale` times larger (`fig` itself at 1).

    The scaled figure is kept as long as `fig` lives: a cached figure is scaled once per scale.
    """
    if scale == 1:
        return fig
    done = _SCALED.get(id(fig))
    if done is None:
        done = _SCALED[id(fig)] = {}
        weakref.finalize(fig, _SCALED.pop, id(fig), None)
    if scale not in done:
        done[scale] = _build(fig, scale)
    return done[scale]


def _build(fig: go.Figure, scale: float) -> go.Figure:
    layout = _scaled_props(fig.layout.to_plotly_json(), scale)
    out = go.Figure(layout=layout)
    for trace in fig.data:
        out.add_trace(trace)
        styling = {
            name: trace[name].to_plotly_json()
            for name in ("textfont", "colorbar", "hoverlabel", "insidetextfont", "outsidetextfont")
            if name in trace and trace[name].to_plotly_json()
        }
        if styling:
            out.data[-1].update(_scaled_props(styling, scale))
    return out
