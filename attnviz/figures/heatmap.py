"""The one heatmap builder: a matrix that reads like a matrix, for every page.

Row 0 is at the top (as in d2l's `show_heatmaps`); positions are integers and labels are tick
text, so repeated tokens never merge into one row; every label that may come from a person is
escaped before it reaches Plotly's pseudo-HTML. Large matrices are sent compact or as an image
(`attnviz.figures.budget`). Variants (cell text, hover text, a framed row, thinned ticks) are
arguments: callers never reach into `fig.data` afterwards.
"""

from __future__ import annotations

import html
import math
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from attnviz.figures.budget import HOVER_BYTES_LIMIT, encoding_for
from attnviz.figures.fit import (
    CELL_FONTS,
    cell_font,
    chart_width,
    fitted_ticks,
    matrix_height,
    standing_height,
)
from attnviz.figures.labels import default_labels, escape_label, unique_labels
from attnviz.figures.matrix import (
    MARK_LIMIT,
    MASK_MARK,
    NUMBERS_LIMIT,
    SELECT_CELL_LIMIT,
    Drawn,
    as_array,
    bar_ticks,
    cell_number,
    cell_overlay,
    colour_range,
    masked_markers,
    matrix_traces,
    numbered_axis,
    rows_down,
)
from attnviz.figures.style import (
    FONT_SIZE,
    MASKED_COLOR,
    Y_TITLE_SPACE,
    Kind,
    colorbar,
    labels_width,
    note,
    style_layout,
    text_width,
)
from attnviz.i18n import Catalogue

TOP_SPACE = 110  # px above the plot: the title, the keys' axis title and its tick labels
NOTE_SPACE = 36  # px below the plot for the note under it ("× = masked")
BAR_TITLE_PX = 20  # px a colour bar's one-line title takes above its colours
FRAME_COLOR = "#d62728"  # a framed row (the chosen sequence of a batch), boxed cells
SELECTED_COLOR = "#000000"  # the selected cell, inside its row's dotted frame
UPRIGHT_LIMIT = 6  # characters of a CJK y title drawn upright, one a line; longer ones turn
# From the tick labels' estimated width to the upright title: the tick marks and Plotly's padding
# (10 px, measured in Chromium) and a gap; the title still fits in Y_TITLE_SPACE.
UPRIGHT_GAP = 16


def heatmap(
    matrix: object,
    *,
    title: str,
    kind: Kind,
    text: Catalogue,
    row_labels: Sequence[object] | None = None,
    col_labels: Sequence[object] | None = None,
    row_name: str | None = None,
    col_name: str | None = None,
    x_title: str | None = None,
    y_title: str | None = None,
    mask: object | None = None,
    hover: Mapping[str, object] | None = None,
    show_numbers: bool | None = None,
    selectable: bool = False,
    cell_text: object | None = None,
    hover_text: object | None = None,
    showscale: bool = True,
    bar_room: bool = False,
    across: float = 1,
    frame_row: int | None = None,
    marked: Sequence[tuple[int, int]] = (),
    marked_note: str | None = None,
    selected: tuple[int, int | None] | None = None,
    masked_values: bool = False,
    bound: float | None = None,
    max_ticks: int | None = None,
    height: int | None = None,
    vlines: Sequence[float] = (),
) -> go.Figure:
    """A matrix as a heatmap: row 0 on top, masked cells as labelled gaps, escaped labels.

    `kind` picks the colour scale: "scores" and "values" diverge at 0, "weights" span 0..1,
    "activations" run from 0 to their largest.
    `text` gives the chart's words (hover names, axis titles, "masked") in one language.
    `hover` maps names to (n, m) arrays shown on hover (raw score, weight, ...); the matrix
    itself is shown under `title` when `hover` is not given, and `hover_text` ((n, m) strings,
    lines split by "\\n", escaped here) replaces all of it. `cell_text` ((n, m) strings) is
    written in the cells instead of the numbers. `masked_values` writes the masked cells'
    numbers (the fill value, a masked weight's 0, a fully masked row's 1/m) in their gaps
    instead of a "×". `bound` fixes the colour scale (`matrix.colour_range`). `bar_room` keeps
    the colour bar's margin when `showscale` is off: cells the size of a neighbour's with a bar.

    Marks: `selectable` adds the "cells" overlay (last in `fig.data`) that makes a click report
    its cell, up to SELECT_CELL_LIMIT; `selected` (row, column) frames that row with a dotted
    line and boxes the cell (column None: the row only), the selection a page shares;
    `frame_row` frames one row, `marked` boxes each of those (row, column) cells (explained by
    `marked_note` under the chart). Layout: `max_ticks` thins long tick labels to at most that
    many a side, `vlines` draws vertical lines at those column positions. `across` is how many
    charts the page sets side by side: the chart is sized for that share of the page (square
    cells for a square matrix), its colour bar narrowed from three across, and its cell numbers
    and tick labels written only where they fit (`attnviz.figures.fit`).
    """
    z = as_array(matrix)
    n, m = z.shape
    rows = unique_labels(row_labels if row_labels is not None else default_labels("q", n))
    cols = unique_labels(col_labels if col_labels is not None else default_labels("k", m))
    if len(rows) != n or len(cols) != m:
        raise ValueError(f"{len(rows)} row and {len(cols)} column labels for a {n}×{m} matrix")
    allowed = None if mask is None else np.broadcast_to(np.asarray(mask, dtype=bool), z.shape)
    if allowed is not None and allowed.all():
        allowed = None
    overlay = selectable and n * m <= SELECT_CELL_LIMIT
    encoding = encoding_for(n, m)
    # Hover values are only sent as per-cell text: the other encodings do not read them.
    wanted = encoding == "full" and hover_text is None
    hover_arrays = {k: as_array(v) for k, v in (hover or {title: z}).items()} if wanted else {}
    shown = z if allowed is None else np.where(allowed, z, np.nan)
    ranges = colour_range(shown, kind, bound)
    bar, right = colorbar(ranges["zmin"], ranges["zmax"], thin=across >= 3)
    if not (showscale or bar_room):
        right = 10
    texts = _cell_texts(z, cell_text, allowed, masked_values)
    noted = allowed is not None or bool(marked and marked_note) or encoding == "image"
    geometry = _geometry(n, m, rows, across, right, height, noted, texts)
    if show_numbers is None:
        show_numbers = max(n, m) <= NUMBERS_LIMIT
    show_numbers = show_numbers and geometry.font is not None  # never over each other
    drawn = matrix_traces(
        z,
        kind=kind,
        row_labels=rows,
        col_labels=cols,
        row_name=row_name or text("fig.hover.query"),
        col_name=col_name or text("fig.hover.key"),
        mask=allowed,
        hover=hover_arrays,
        show_numbers=show_numbers and cell_text is None,
        text=text,
        showscale=showscale,
        # The overlay repeats the hover text: half the budget each.
        hover_bytes=HOVER_BYTES_LIMIT // 2 if overlay else HOVER_BYTES_LIMIT,
        masked_numbers=masked_values,
        bound=bound,
        number_size=geometry.font or CELL_FONTS[0],
    )
    if drawn.encoding == "full":
        cells = cell_text if show_numbers else None
        _replace_texts(drawn, cells, hover_text, None if masked_values else allowed)
        if cells is not None:
            drawn.traces[0].textfont = {"size": geometry.font or CELL_FONTS[0]}
    bar_px = geometry.plot_height
    titled = kind == "weights" and bound is not None
    if titled:  # a scale that stops short of 1 says so
        top = text("fig.scale_max", top=cell_number(ranges["zmax"]))
        bar["title"] = {"text": escape_label(top), "side": "top", "font": {"size": FONT_SIZE - 2}}
    if n == m and drawn.encoding != "image" and geometry.plot_height > geometry.plot_width:
        # The square keeps to the plot's width, at its top: the bar's colours run beside it,
        # its title above.
        bar_px = geometry.plot_width
        above = BAR_TITLE_PX if titled else 0
        bar |= {
            "len": bar_px + above, "lenmode": "pixels", "ypad": 0, "yanchor": "top",
            "y": 1 + above / geometry.plot_height,
        }  # fmt: skip
    diverging = "zmid" in ranges
    bar |= bar_ticks(ranges["zmin"], ranges["zmax"], bar_px, diverging=diverging, titled=titled)
    for trace in drawn.traces:
        if isinstance(trace, go.Heatmap) and trace.showscale:
            trace.colorbar = bar
    marks = drawn.encoding == "full" and max(n, m) <= MARK_LIMIT and not masked_values
    traces = list(drawn.traces)
    if allowed is not None and marks:
        traces.append(masked_markers(allowed))
    if overlay:
        traces.append(cell_overlay(drawn, n, m))
    layout = _layout(title, drawn, rows, cols, text, x_title, y_title, max_ticks, geometry)
    layout["margin"]["r"] = right
    notes = []
    if allowed is not None:
        # Cells up to MARK_LIMIT a side hold a ×; smaller ones are only grey (the plot's
        # background shows through the gap, or the image's pixel is MASKED_COLOR).
        sign = MASK_MARK if marks else f'<span style="color:{MASKED_COLOR}">■</span>'
        said = "fig.masked_shown" if masked_values and show_numbers else "fig.masked"
        notes.append(f"{sign} = {escape_label(text(said))}")
    if marked and marked_note:
        notes.append(f'<span style="color:{FRAME_COLOR}">□</span> = {escape_label(marked_note)}')
    if drawn.pool != (1, 1):
        rows_k, cols_k = drawn.pool
        notes.append(escape_label(text("fig.pooled", rows=rows_k, cols=cols_k)))
    if overlay:
        layout["hoverdistance"] = -1  # no cut-off: a click on a large cell still counts
    if notes:
        # one line, or a line each where one would run past the chart's left edge
        room = geometry.plot_width
        plain = [html.unescape(re.sub("<[^>]+>", "", line)) for line in notes]
        stacked = text_width("   ".join(plain), FONT_SIZE - 2) > room
        extra = (len(notes) - 1) * (FONT_SIZE + 2) if stacked else 0
        layout["margin"]["b"] = NOTE_SPACE + extra  # room for the "× = masked" note
        layout["height"] += extra
        joined = ("<br>" if stacked else "   ").join(notes)
        below = -6 / geometry.plot_height  # 6 px under the plot, in paper units
        layout.setdefault("annotations", []).append(
            {**note(joined, x=1.0, y=below, font={"size": FONT_SIZE - 2}), "align": "right"}
        )
    shapes = [row_frame(frame_row, m)] if frame_row is not None else []
    shapes += [_box(row, col) for row, col in marked]
    if selected is not None and 0 <= selected[0] < n:
        shapes.append(row_frame(selected[0], m, dash="dot"))
        if selected[1] is not None and 0 <= selected[1] < m:
            shapes.append(_box(selected[0], selected[1], color=SELECTED_COLOR))
    shapes += [_vline(x) for x in vlines]
    if shapes:
        layout["shapes"] = shapes
    return go.Figure(data=traces, layout=layout)


def _replace_texts(
    drawn: Drawn,
    cell_text: object | None,
    hover_text: object | None,
    allowed: np.ndarray | None,
) -> None:
    """Write `cell_text` into the cells and `hover_text` as the hover of a "full" matrix."""
    trace = drawn.traces[0]
    if cell_text is not None:
        cells = np.asarray(cell_text, dtype=object)
        if allowed is not None:
            cells = np.where(allowed, cells, "")
        trace.text = np.vectorize(escape_label, otypes=[object])(cells)
        trace.texttemplate = "%{text}"
        trace.textfont = {"size": FONT_SIZE - 1}
    if hover_text is not None:
        lines = np.vectorize(
            lambda s: "<br>".join(escape_label(line) for line in str(s).split("\n")),
            otypes=[object],
        )(np.asarray(hover_text, dtype=object))
        trace.customdata = lines
        trace.hovertemplate = "%{customdata}<extra></extra>"


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


def _cell_texts(
    z: np.ndarray, cell_text: object | None, allowed: np.ndarray | None, masked_values: bool
) -> list[str]:
    """The texts the cells would hold, to measure: `cell_text`, or the numbers (small only)."""
    if cell_text is not None:
        cells = np.asarray(cell_text, dtype=object)
    elif max(z.shape) <= NUMBERS_LIMIT:
        cells = np.vectorize(cell_number, otypes=[object])(z)
    else:
        return []
    if allowed is not None and not masked_values:
        cells = np.where(allowed, cells, "")
    return [str(c) for c in cells.flat]


def _geometry(
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


def _layout(
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


def row_frame(row: int, m: int, dash: str = "solid") -> dict[str, Any]:
    """A frame around row `row` of a matrix of `m` columns (a shape in data coordinates)."""
    line = {"color": FRAME_COLOR, "width": 3, "dash": dash}
    return {
        "type": "rect",
        "x0": -0.5,
        "x1": m - 0.5,
        "y0": row - 0.5,
        "y1": row + 0.5,
        "line": line,
    }


def _box(row: int, col: int, color: str = FRAME_COLOR) -> dict[str, Any]:
    line = {"color": color, "width": 3}
    return {
        "type": "rect",
        "x0": col - 0.5,
        "x1": col + 0.5,
        "y0": row - 0.5,
        "y1": row + 0.5,
        "line": line,
    }


def _vline(x: float) -> dict[str, Any]:
    line = {"color": "black", "width": 2}
    return {
        "type": "line",
        "xref": "x",
        "yref": "y domain",
        "x0": x,
        "x1": x,
        "y0": 0,
        "y1": 1,
        "line": line,
    }


def vector_rows(
    vectors: object,
    *,
    title: str,
    row_labels: Sequence[object],
    dim_label: str,
    text: Catalogue,
    row_name: str = "",
    across: float = 1,
) -> go.Figure:
    """Vectors as rows of a heatmap (compare and aggregate outputs, a head's q and k), numbered
    dimensions across, `across` charts a row."""
    matrix = as_array(vectors)
    return heatmap(
        matrix,
        title=title,
        kind="values",
        text=text,
        row_labels=row_labels,
        col_labels=[str(i) for i in range(matrix.shape[1])],
        row_name=row_name,
        col_name=dim_label,
        x_title=dim_label,
        y_title=" ",
        show_numbers=False,
        across=across,
    )
