"""A heatmap's size and axes: the px its plot gets for its share of the page, and a layout that
reads like a matrix (the keys' axis on top, row 0 on top, each axis's labels thinned to what its
length holds, a short CJK y title upright)."""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from typing import Any

from attnviz.figures.fit import cell_font, chart_width, fitted_ticks, matrix_height, standing_height
from attnviz.figures.labels import escape_label
from attnviz.figures.matrix import Drawn, numbered_axis, rows_down
from attnviz.figures.style import FONT_SIZE, Y_TITLE_SPACE, labels_width, style_layout
from attnviz.i18n import Catalogue

TOP_SPACE = 110  # px above the plot: the title, the keys' axis title and its tick labels
NOTE_SPACE = 36  # px below the plot for the notes under it ("× = masked")
UPRIGHT_LIMIT = 6  # characters of a CJK y title drawn upright, one a line; longer ones turn
# From the tick labels' estimated width to the upright title: the tick marks and Plotly's padding
# (10 px, measured in Chromium) and a gap; the title still fits in Y_TITLE_SPACE.
UPRIGHT_GAP = 16


@dataclass(frozen=True)
class Geometry:
    """A heatmap's size: px of its plot, its chart height, margins, and the cell numbers' font
    (None: they do not fit)."""

    plot_width: float
    plot_height: float
    height: int
    left: int
    top: int
    font: int | None


def matrix_geometry(
    n: int,
    m: int,
    rows: list[str],
    across: float,
    right: int,
    height: int | None,
    noted: bool,
    texts: list[str],
) -> Geometry:
    """The chart's size for `across` charts a row, and whether `texts` fit its cells."""
    ticks = [str(n - 1)] if numbered_axis(rows) else rows
    left = math.ceil(Y_TITLE_SPACE + labels_width(ticks))
    plot_width = max(40.0, chart_width(across) - left - right)
    frame = TOP_SPACE + (NOTE_SPACE if noted else 10)
    if height is None:
        height = matrix_height(n, m, plot_width, frame)
    plot_height = max(20.0, height - frame)
    font = cell_font(texts, plot_width / m, plot_height / n) if texts else None
    return Geometry(plot_width, plot_height, height, left, TOP_SPACE, font)


def matrix_layout(
    title: str,
    drawn: Drawn,
    rows: list[str],
    cols: list[str],
    text: Catalogue,
    x_title: str | None,
    y_title: str | None,
    max_ticks: int | None,
    geometry: Geometry,
) -> dict[str, Any]:
    """The heatmap's layout: keys' axis on top like a matrix's column labels, rows down, each
    axis's labels thinned to what its length holds."""
    n, m = len(rows), len(cols)
    x_room, y_room = geometry.plot_width, geometry.plot_height
    capped: dict[str, Any] = {"limit": max_ticks}  # a caller's cap on the labels a side
    x_ticks = fitted_ticks(cols, x_room, across=True, numbered=numbered_axis(cols), **capped)
    top = geometry.top + math.ceil(standing_height(x_ticks))
    # The keys' axis sits on top: leave room above it for the title.
    layout = style_layout(title, height=geometry.height + top - geometry.top, top=top)
    layout["xaxis"] = {
        "title": escape_label(x_title or text("fig.keys")),
        "side": "top",
        "showgrid": False,
        "zeroline": False,
        "range": [-0.5, m - 0.5],
        **x_ticks,
    }
    y_text = y_title or text("fig.queries")
    upright = upright_y_title(y_text, geometry.left - Y_TITLE_SPACE)
    layout["yaxis"] = {
        "title": "" if upright else escape_label(y_text),
        "showgrid": False,
        "zeroline": False,
        **fitted_ticks(rows, y_room, across=False, numbered=numbered_axis(rows), **capped),
        **rows_down(n, drawn),
    }
    if n == m and drawn.encoding != "image":
        # square cells: the plot keeps to a square of its width or height, whichever is less
        layout["yaxis"] |= {"scaleanchor": "x", "constrain": "domain", "constraintoward": "top"}
        layout["xaxis"]["constrain"] = "domain"
    if upright:
        layout["annotations"] = [upright]
    layout["margin"]["l"] = geometry.left
    return layout


def upright_y_title(title: str, ticks_px: float) -> dict[str, Any] | None:
    """A short CJK y title as an annotation left of the tick labels, one character a line (read
    top down, as CJK is written vertically); None for any other title, which the y axis draws.

    Plotly turns every y axis title a quarter turn, which lays Hangul and Han on their side.
    """
    chars = title.replace(" ", "")
    wide = all(unicodedata.east_asian_width(char) in ("W", "F") for char in chars)
    if not chars or not wide or len(chars) > UPRIGHT_LIMIT:
        return None
    return {
        "text": "<br>".join(chars),  # wide characters only: nothing for Plotly to read as markup
        "xref": "paper",
        "yref": "paper",
        "x": 0.0,
        "y": 0.5,
        "xanchor": "right",
        "yanchor": "middle",
        "xshift": -math.ceil(ticks_px + UPRIGHT_GAP),
        "textangle": 0,
        "showarrow": False,
        "font": {"size": FONT_SIZE},
    }
