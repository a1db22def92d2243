"""The look every attnviz chart shares: colour scales, fonts, the title and the layout."""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable
from typing import Any, Literal

import plotly.graph_objects as go

from attnviz.figures.labels import escape_label

Kind = Literal["scores", "weights", "values", "activations"]

# Colour-blind-safe scales that survive a projector: ColorBrewer's diverging RdBu / PuOr
# centred at 0, viridis for weights on a fixed 0..1 range, and ColorBrewer's sequential
# YlGnBu from 0 for activations (ReLU outputs, never negative: no half of the scale unused).
COLORSCALES: dict[str, str] = {
    "scores": "RdBu_r",
    "weights": "Viridis",
    "values": "PuOr_r",
    "activations": "YlGnBu",
}
MASKED_COLOR = "#bdbdbd"
FONT_SIZE = 15
# Plotly's own font list, then the app's Hangul web font (.streamlit/config.toml's fontFaces):
# a chart's SVG text on a page finds Hangul there when the machine has no Korean font.
FONT_FAMILY = '"Open Sans", verdana, arial, sans-serif, attnviz-hangul'


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
        "font": {"size": FONT_SIZE, "family": FONT_FAMILY},
        "height": height,
        "margin": {"l": 10, "r": 10, "t": top, "b": 10},
        "plot_bgcolor": background,
        "paper_bgcolor": "white",
        "hoverlabel": {"font": {"size": FONT_SIZE}},
    }


# Margins that already hold what they must (tick labels, axis titles, the colour bar) spare
# Chromium a second drawing of every chart: with axis automargin Plotly draws a chart, finds the
# labels pushing past the margins, and draws it all again (every chart of every page did, at
# 0.05-0.15 s a chart). Estimates err wide; where one falls short (an unusual font, a very long
# token), automargin still makes room, at the cost of that second drawing.
CHAR_WIDTH = 0.62  # of the font size, a wide-ish Latin letter or digit of Plotly's sans serif
WIDE_WIDTH = 1.0  # Hangul, CJK and other full-width characters
NARROW = frozenset("iIjl.,:;'|!()[]{}ft ")
BROAD = frozenset("mwMW@%")
Y_TITLE_SPACE = 40  # a y axis title and the gap to its tick labels, at FONT_SIZE
COLORBAR_X = 1.0  # the colour bar starts where the plot ends (Plotly's 1.02 depends on width)
COLORBAR_XPAD = 14
MAX_TICK_CHARS = 8


def text_width(text: str, size: float = FONT_SIZE) -> float:
    """About how many pixels `text` takes at `size` (an overestimate for common fonts)."""
    width = 0.0
    for char in text:
        if unicodedata.east_asian_width(char) in ("W", "F"):
            width += WIDE_WIDTH
        elif char in NARROW:
            width += 0.34
        elif char in BROAD:
            width += 0.9
        else:
            width += CHAR_WIDTH
    return width * size


def labels_width(labels: Iterable[str], size: float = FONT_SIZE) -> float:
    """The widest of `labels`, in pixels (`text_width`), 0 for none."""
    return max((text_width(label, size) for label in labels), default=0.0)


def tick_chars(low: float, high: float) -> int:
    """The most characters an automatic tick label between `low` and `high` can take: a sign,
    the integer digits and as many decimals as the finest tick step Plotly picks (a twelfth of
    the range)."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return 6
    span = abs(high - low) or abs(high) or 1.0
    decimals = max(0, -math.floor(math.log10(span / 12)))
    digits = len(str(int(max(abs(low), abs(high)))))
    # Beyond MAX_TICK_CHARS Plotly writes "20k" or "1e-9" instead.
    return min(MAX_TICK_CHARS, (low < 0) + digits + (decimals + 1 if decimals else 0))


def ticks_width(low: float, high: float, size: float = FONT_SIZE) -> float:
    """The pixels the widest automatic tick label between `low` and `high` takes."""
    return tick_chars(low, high) * CHAR_WIDTH * size


def colorbar(low: float, high: float, thin: bool = False) -> tuple[dict[str, Any], int]:
    """A colour bar's settings (at COLORBAR_X; `thin` for charts set three across) and the right
    margin that holds it with its tick labels from `low` to `high`."""
    thickness, xpad = (12, 4) if thin else (30, COLORBAR_XPAD)
    labels = ticks_width(low, high)
    settings = {"x": COLORBAR_X, "xanchor": "left", "xpad": xpad, "thickness": thickness}
    return settings, math.ceil(2 * xpad + thickness + labels + 8)


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
