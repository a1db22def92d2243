"""What fits where: a matrix chart's size from the room a page gives it, and which numbers and
tick labels that size can hold without overlapping.

Plotly draws every tick label and cell number it is given, over each other when they do not
fit, and rotates crowded x labels on its own (into the title above a top axis). A builder knows
how many charts a page sets side by side (`across`), so it sizes the chart, thins its labels and
writes cell numbers only where they fit, from the same text-width estimates that size margins
(`attnviz.figures.style.text_width`). The estimates assume the wide layout of a window 1,400 px
across with the sidebar open (`MAIN_WIDTH`); a wider window only adds room.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

from attnviz.figures.labels import escape_label
from attnviz.figures.style import FONT_SIZE, labels_width, text_width

MAIN_WIDTH = 940  # px of the main column: a 1,400-px window, wide layout, sidebar open
COLUMN_GAP = 16  # px between Streamlit columns
CELL_FONTS = (FONT_SIZE - 1, FONT_SIZE - 3, FONT_SIZE - 5)  # tried in turn for cell numbers
CELL_PAD = 4  # px of space a cell number keeps from its neighbours
LINE_HEIGHT = 1.3  # a text's box, in font sizes, top to bottom
NUMBER_CHARS = {**dict.fromkeys("0123456789e", 0.57), "-": 0.37, ".": 0.3}  # of the font size
SLACK = 0.9  # of the estimated cell: a page's real column runs a few px narrower
TICK_GAP = 8  # px between two tick labels side by side
LINE_PITCH = FONT_SIZE + 3  # px a horizontal tick label needs across the axis
TICK_FONTS = (FONT_SIZE, FONT_SIZE - 3, FONT_SIZE - 5)  # tried in turn for tick labels
AUTO_TICK_PX = 44  # px per automatic (numeric) tick
ROW_RANGE = (18, 44)  # px of a row of a matrix that is not square, at least and at most
HEIGHT_RANGE = (200, 760)  # px of a matrix chart
MIN_PLOT = 90  # px of a matrix's plot, at least


def colorbar_ticks(plot_height: float) -> int:
    """How many ticks a colour bar as tall as the plot holds without overlapping."""
    return max(2, int(plot_height // (2 * LINE_PITCH)))


def chart_width(across: float) -> float:
    """The px of one of `across` charts set side by side in the main column."""
    return (MAIN_WIDTH - COLUMN_GAP * (across - 1)) / across


def matrix_height(n: int, m: int, plot_width: float, frame: float) -> int:
    """A chart height whose cells are square for a square matrix, and otherwise rows of about
    a cell's width (within ROW_RANGE); `frame` is the px of margins above and below."""
    cell = plot_width / m
    row = cell if n == m else min(max(cell, ROW_RANGE[0]), ROW_RANGE[1])
    low, high = HEIGHT_RANGE
    # at least MIN_PLOT px of plot: the rotated y axis title stays beside it
    return int(min(high, max(low, frame + MIN_PLOT, n * row + frame)))


def number_width(text: str, size: float) -> float:
    """About how many px a cell's text takes: digits at their own width (tabular figures are
    narrower than the letters `text_width` allows for), the rest as `text_width` measures."""
    return sum(NUMBER_CHARS.get(char, 0.0) for char in text) * size + text_width(
        "".join(char for char in text if char not in NUMBER_CHARS), size
    )


def cell_font(texts: Sequence[str], cell_width: float, cell_height: float) -> int | None:
    """The largest of CELL_FONTS at which the widest of `texts` fits a cell, or None."""
    width, height = SLACK * cell_width, SLACK * cell_height
    distinct = set(texts)
    for size in CELL_FONTS:
        widest = max((number_width(text, size) for text in distinct), default=0.0)
        if widest + CELL_PAD <= width and LINE_HEIGHT * size <= height:
            return size
    return None


def fitted_ticks(
    labels: Sequence[str],
    room: float,
    *,
    across: bool,
    numbered: bool = False,
    keep_last: int = 0,
    limit: int | None = None,
) -> dict[str, object]:
    """Tick settings for `labels` along `room` px: every label where they fit, else every k-th
    (and always the `keep_last` last ones, such as a total). `across` is an x axis (labels side
    by side), else a y axis (labels stacked). `numbered` labels (q0, q1, ... or positions) get
    Plotly's automatic numeric ticks. `limit` caps the labels shown."""
    count = len(labels) - keep_last
    if numbered:
        return {"automargin": True, "tickmode": "auto", "nticks": max(2, int(room // AUTO_TICK_PX))}
    angle, size, step = 0, FONT_SIZE, 1  # angle 0: never Plotly's own rotation into the title
    for size in TICK_FONTS:  # every label at the largest size that holds them, upright if need be
        pitch = labels_width(labels, size) + TICK_GAP if across else size + 3
        if across and count * pitch > room and count * (size + 3) <= room:
            angle, pitch = -90, size + 3  # side by side they do not fit, standing they do
        if count * pitch + keep_last * pitch <= room:
            break
    else:  # even the smallest does not hold them all: every k-th, at the middle size
        size = TICK_FONTS[1]
        pitch = size + 3 if not across or angle else labels_width(labels, size) + TICK_GAP
        step = max(1, math.ceil(count * pitch / max(room - keep_last * pitch, 1.0)))
    if limit is not None:
        step = max(step, math.ceil(count / limit))
    shown = [*range(0, count, step), *range(count, count + keep_last)]
    ticks: dict[str, object] = {
        "automargin": True,
        "tickmode": "array",
        "tickvals": list(shown),
        "ticktext": [escape_label(labels[i]) for i in shown],
        "tickfont": {"size": size},
    }
    if across:
        ticks["tickangle"] = angle
    return ticks


def standing_height(ticks: dict[str, object]) -> float:
    """The px that x tick labels turned upright (`fitted_ticks`) take beyond one line."""
    if ticks.get("tickangle") != -90:
        return 0.0
    texts = [html.unescape(str(label)) for label in ticks["ticktext"]]  # type: ignore[attr-defined]
    return max(0.0, labels_width(texts) - FONT_SIZE)
