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
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from attnviz.figures.budget import HOVER_BYTES_LIMIT, encoding_for
from attnviz.figures.labels import default_labels, escape_label, unique_labels
from attnviz.figures.matrix import (
    MARK_LIMIT,
    MASK_MARK,
    NUMBERS_LIMIT,
    SELECT_CELL_LIMIT,
    Drawn,
    as_array,
    axis_ticks,
    cell_overlay,
    masked_markers,
    matrix_traces,
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
)
from attnviz.i18n import Catalogue

FRAME_COLOR = "#d62728"  # a framed row (the chosen sequence of a batch)
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
    thin_scale: bool = False,
    frame_row: int | None = None,
    marked: Sequence[tuple[int, int]] = (),
    marked_note: str | None = None,
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
    written in the cells instead of the numbers. `selectable` adds the "cells" overlay (last in
    `fig.data`) that makes a click report its cell, up to SELECT_CELL_LIMIT. `frame_row` draws
    a frame around one row, `marked` a box around each of those (row, column) cells (explained
    by `marked_note` under the chart), `max_ticks` thins long tick labels to at most that many
    a side, `vlines` draws vertical lines at those column positions, `thin_scale` narrows the colour
    bar for charts set three across.
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
    # Hover values are only sent as per-cell text: the other encodings do not read them.
    wanted = encoding_for(n, m) == "full" and hover_text is None
    hover_arrays = {k: as_array(v) for k, v in (hover or {title: z}).items()} if wanted else {}
    if show_numbers is None:
        show_numbers = max(n, m) <= NUMBERS_LIMIT
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
    )
    if drawn.encoding == "full":
        _replace_texts(drawn, cell_text, hover_text, allowed)
    right = 10
    for trace in drawn.traces:
        if isinstance(trace, go.Heatmap) and trace.showscale:
            trace.colorbar, right = colorbar(trace.zmin, trace.zmax, thin=thin_scale)
    marks = drawn.encoding == "full" and max(n, m) <= MARK_LIMIT
    traces = list(drawn.traces)
    if allowed is not None and marks:
        traces.append(masked_markers(allowed))
    if overlay:
        traces.append(cell_overlay(drawn, n, m))
    layout = _layout(title, drawn, rows, cols, text, x_title, y_title, max_ticks, height)
    layout["margin"]["r"] = right
    notes = []
    if allowed is not None:
        # Cells up to MARK_LIMIT a side hold a ×; smaller ones are only grey (the plot's
        # background shows through the gap, or the image's pixel is MASKED_COLOR).
        sign = MASK_MARK if marks else f'<span style="color:{MASKED_COLOR}">■</span>'
        notes.append(f"{sign} = {escape_label(text('fig.masked'))}")
    if marked and marked_note:
        notes.append(f'<span style="color:{FRAME_COLOR}">□</span> = {escape_label(marked_note)}')
    if drawn.pool != (1, 1):
        rows_k, cols_k = drawn.pool
        notes.append(escape_label(text("fig.pooled", rows=rows_k, cols=cols_k)))
    if overlay:
        layout["hoverdistance"] = -1  # no cut-off: a click on a large cell still counts
    if notes:
        layout["margin"]["b"] = 36  # room for the "× = masked" note
        layout.setdefault("annotations", []).append(
            note("   ".join(notes), x=1.0, y=-0.02, font={"size": FONT_SIZE - 2})
        )
    shapes = [_frame(frame_row, m)] if frame_row is not None else []
    shapes += [_box(row, col) for row, col in marked]
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


def _layout(
    title: str,
    drawn: Drawn,
    rows: list[str],
    cols: list[str],
    text: Catalogue,
    x_title: str | None,
    y_title: str | None,
    max_ticks: int | None,
    height: int | None,
) -> dict[str, Any]:
    """The heatmap's layout: keys' axis on top like a matrix's column labels, rows down."""
    n, m = len(rows), len(cols)
    # The keys' axis sits on top: leave room above it for the title.
    layout = style_layout(title, height=height or int(min(760, max(320, 150 + 40 * n))), top=110)
    layout["xaxis"] = {
        "title": escape_label(x_title or text("fig.keys")),
        "side": "top",
        "showgrid": False,
        "zeroline": False,
        "range": [-0.5, m - 0.5],
        **thinned_ticks(cols, max_ticks),
    }
    ticks = thinned_ticks(rows, max_ticks)
    ticks_px = labels_width(_tick_texts(ticks, n))
    y_text = y_title or text("fig.queries")
    upright = upright_y_title(y_text, ticks_px)
    layout["yaxis"] = {
        "title": "" if upright else escape_label(y_text),
        "showgrid": False,
        "zeroline": False,
        **ticks,
        **rows_down(n, drawn),
    }
    if upright:
        layout["annotations"] = [upright]
    layout["margin"]["l"] = math.ceil(Y_TITLE_SPACE + ticks_px)
    if max_ticks is not None and m > max_ticks:
        layout["xaxis"]["tickangle"] = -45
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


def _tick_texts(axis: dict[str, Any], count: int) -> list[str]:
    """The tick labels an axis will show: its own, or Plotly's numbers up to `count`."""
    if "ticktext" in axis:
        return [html.unescape(label) for label in axis["ticktext"]]
    return [str(count - 1)]


def thinned_ticks(labels: list[str], limit: int | None) -> dict[str, object]:
    """`axis_ticks`, or every k-th label when there are more than `limit`."""
    if limit is None or len(labels) <= limit:
        return axis_ticks(labels)
    shown = range(0, len(labels), -(-len(labels) // limit))
    return {
        "automargin": True,
        "tickmode": "array",
        "tickvals": list(shown),
        "ticktext": [escape_label(labels[i]) for i in shown],
    }


def _frame(row: int, m: int) -> dict[str, Any]:
    line = {"color": FRAME_COLOR, "width": 3}
    return {
        "type": "rect",
        "x0": -0.5,
        "x1": m - 0.5,
        "y0": row - 0.5,
        "y1": row + 0.5,
        "line": line,
    }


def _box(row: int, col: int) -> dict[str, Any]:
    line = {"color": FRAME_COLOR, "width": 3}
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
) -> go.Figure:
    """Vectors as rows of a heatmap (compare and aggregate outputs), numbered dimensions across."""
    matrix = as_array(vectors)
    return heatmap(
        matrix,
        title=title,
        kind="values",
        text=text,
        row_labels=row_labels,
        col_labels=[str(i) for i in range(matrix.shape[1])],
        row_name="",
        col_name=dim_label,
        x_title=dim_label,
        y_title=" ",
        show_numbers=False,
    )
