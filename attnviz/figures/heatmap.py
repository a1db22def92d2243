"""The one heatmap builder: a matrix that reads like a matrix, for every page.

Row 0 is at the top (as in d2l's `show_heatmaps`); positions are integers and labels are tick
text, so repeated tokens never merge into one row; every label that may come from a person is
escaped before it reaches Plotly's pseudo-HTML. Large matrices are sent compact or as an image
(`attnviz.figures.budget`). Variants of the cells (cell text, hover text, thinned ticks, notes)
are arguments; marks on them are added in steps (`attnviz.figures.marks`): callers never reach
into `fig.data` afterwards.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go
from plotly.basedatatypes import BaseTraceType

from attnviz.figures.axes import NOTE_SPACE, Geometry, matrix_geometry, matrix_layout
from attnviz.figures.budget import HOVER_BYTES_LIMIT, encoding_for
from attnviz.figures.fit import CELL_FONTS
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
    colour_range,
    masked_markers,
    matrix_traces,
)
from attnviz.figures.style import FONT_SIZE, MASKED_COLOR, Kind, colorbar, note, text_width
from attnviz.i18n import Catalogue

BAR_TITLE_PX = 20  # px a colour bar's one-line title takes above its colours


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
    cell_text: object | None = None,
    hover_text: object | None = None,
    showscale: bool = True,
    bar_room: bool = False,
    across: float = 1,
    notes: Sequence[str] = (),
    masked_values: bool = False,
    bound: float | None = None,
    max_ticks: int | None = None,
    height: int | None = None,
) -> go.Figure:
    """A matrix as a heatmap: row 0 on top, masked cells as labelled gaps, escaped labels; marks
    are added on it in steps (`attnviz.figures.marks`).

    `kind`: "scores" and "values" diverge at 0, "weights" span 0..1, "activations" run from 0 to
    their largest; `bound` fixes the scale. `text`: the chart's words in one language. `hover`
    maps names to (n, m) arrays shown on hover (else the matrix, under `title`); `hover_text`
    ((n, m) strings, "\\n" between lines) replaces all of it, `cell_text` the numbers.
    `masked_values` writes masked cells' numbers in their gaps, not a "×". `bar_room` keeps the
    colour bar's margin without its bar. `notes`: lines under the chart, markup escaped by the
    caller (`marks.boxed_note`). `max_ticks` caps the tick labels a side. `across` charts a row:
    sized for that share of the page, numbers and ticks where they fit (`figures.fit`).
    """
    z = as_array(matrix)
    n, m = z.shape
    rows, cols = _labels(n, m, row_labels, col_labels)
    allowed = _allowed(z, mask)
    ranges, bar, right = _scale(z, allowed, kind, bound, across, showscale or bar_room)
    texts = _cell_texts(z, cell_text, allowed, masked_values)
    noted = allowed is not None or bool(notes) or encoding_for(n, m) == "image"
    geometry = matrix_geometry(n, m, rows, across, right, height, noted, texts)
    wanted = max(n, m) <= NUMBERS_LIMIT if show_numbers is None else show_numbers
    show_numbers = wanted and geometry.font is not None  # never over each other
    names = (row_name or text("fig.hover.query"), col_name or text("fig.hover.key"))
    cells = Cells(z, kind, rows, cols, names, allowed, masked_values, bound, showscale)
    drawn = _draw(cells, hover or {title: z}, hover_text, cell_text, show_numbers, geometry, text)
    _colour_bar(bar, ranges, drawn, cells, geometry, text)
    traces, crossed = _crossed(drawn, cells)
    layout = matrix_layout(title, drawn, rows, cols, text, x_title, y_title, max_ticks, geometry)
    layout["margin"]["r"] = right
    lines = _notes(drawn, cells, crossed, show_numbers, notes, text)
    if lines:
        _write_notes(layout, lines, geometry)
    return go.Figure(data=traces, layout=layout)


def _scale(
    z: np.ndarray,
    allowed: np.ndarray | None,
    kind: Kind,
    bound: float | None,
    across: float,
    room: bool,
) -> tuple[dict[str, float], dict[str, Any], int]:
    """The colour range of the cells shown, their colour bar (narrowed from three charts
    across) and the right margin it takes (10 px without `room` for a bar)."""
    ranges = colour_range(z if allowed is None else np.where(allowed, z, np.nan), kind, bound)
    bar, right = colorbar(ranges["zmin"], ranges["zmax"], thin=across >= 3)
    return ranges, bar, right if room else 10


def _allowed(z: np.ndarray, mask: object | None) -> np.ndarray | None:
    """The cells a `mask` lets through, as z's shape; None when it lets every cell through."""
    if mask is None:
        return None
    allowed = np.broadcast_to(np.asarray(mask, dtype=bool), z.shape)
    return None if allowed.all() else allowed


def _crossed(drawn: Drawn, cells: Cells) -> tuple[list[BaseTraceType], bool]:
    """The drawn traces, with a × on each masked cell where cells are large enough to hold one
    (and hold no numbers of their own); whether they do."""
    n, m = cells.z.shape
    crossed = drawn.encoding == "full" and max(n, m) <= MARK_LIMIT and not cells.masked_values
    if cells.allowed is None or not crossed:
        return list(drawn.traces), crossed
    return [*drawn.traces, masked_markers(cells.allowed)], crossed


def _notes(
    drawn: Drawn,
    cells: Cells,
    crossed: bool,
    numbers_shown: bool,
    notes: Sequence[str],
    text: Catalogue,
) -> list[str]:
    """The lines under the chart: what masked cells look like, the caller's `notes`, and how
    many cells a pixel of a pooled image holds."""
    lines = []
    if cells.allowed is not None:
        # Cells up to MARK_LIMIT a side hold a ×; smaller ones are only grey (the plot's
        # background shows through the gap, or the image's pixel is MASKED_COLOR).
        sign = MASK_MARK if crossed else f'<span style="color:{MASKED_COLOR}">■</span>'
        said = "fig.masked_shown" if cells.masked_values and numbers_shown else "fig.masked"
        lines.append(f"{sign} = {escape_label(text(said))}")
    lines += notes
    if drawn.pool != (1, 1):
        lines.append(escape_label(text("fig.pooled", rows=drawn.pool[0], cols=drawn.pool[1])))
    return lines


def _labels(
    n: int, m: int, row_labels: Sequence[object] | None, col_labels: Sequence[object] | None
) -> tuple[list[str], list[str]]:
    """The rows' and columns' labels made unique (q0, q1, ... and k0, k1, ... by default)."""
    rows = unique_labels(row_labels if row_labels is not None else default_labels("q", n))
    cols = unique_labels(col_labels if col_labels is not None else default_labels("k", m))
    if len(rows) != n or len(cols) != m:
        raise ValueError(f"{len(rows)} row and {len(cols)} column labels for a {n}×{m} matrix")
    return rows, cols


@dataclass(frozen=True)
class Cells:
    """What a heatmap draws: its (n, m) matrix `z`, colour scale, labels (unique), the rows' and
    columns' names, the cells it may show (None: all), whether masked cells show their numbers,
    the scale's fixed bound, whether it has a colour bar."""

    z: np.ndarray
    kind: Kind
    rows: list[str]
    cols: list[str]
    names: tuple[str, str]
    allowed: np.ndarray | None
    masked_values: bool
    bound: float | None
    showscale: bool


def _draw(
    cells: Cells,
    hover: Mapping[str, object],
    hover_text: object | None,
    cell_text: object | None,
    show_numbers: bool,
    geometry: Geometry,
    text: Catalogue,
) -> Drawn:
    """The matrix's traces (`matrix_traces`) with the caller's hover text, and its cell text
    where numbers are shown."""
    n, m = cells.z.shape
    # Hover values are only sent as per-cell text: the other encodings do not read them.
    wanted = encoding_for(n, m) == "full" and hover_text is None
    hover_arrays = {k: as_array(v) for k, v in hover.items()} if wanted else {}
    drawn = matrix_traces(
        cells.z,
        kind=cells.kind,
        row_labels=cells.rows,
        col_labels=cells.cols,
        row_name=cells.names[0],
        col_name=cells.names[1],
        mask=cells.allowed,
        hover=hover_arrays,
        show_numbers=show_numbers and cell_text is None,
        text=text,
        showscale=cells.showscale,
        # A matrix small enough for click targets (`marks.select_cells`) keeps half the budget:
        # their overlay repeats the hover text.
        hover_bytes=HOVER_BYTES_LIMIT // 2 if n * m <= SELECT_CELL_LIMIT else HOVER_BYTES_LIMIT,
        masked_numbers=cells.masked_values,
        bound=cells.bound,
        number_size=geometry.font or CELL_FONTS[0],
    )
    if drawn.encoding == "full":
        allowed = None if cells.masked_values else cells.allowed
        cell_text = cell_text if show_numbers else None
        _replace_texts(drawn, cell_text, hover_text, allowed)
        if cell_text is not None:
            drawn.traces[0].textfont = {"size": geometry.font or CELL_FONTS[0]}
    return drawn


def _colour_bar(
    bar: dict[str, Any],
    ranges: dict[str, float],
    drawn: Drawn,
    cells: Cells,
    geometry: Geometry,
    text: Catalogue,
) -> None:
    """Give the drawn heatmap its colour bar: as long as a square's side, its ticks for that
    length, a title naming the top of a weights scale that stops short of 1."""
    n, m = cells.z.shape
    bar_px = geometry.plot_height
    titled = cells.kind == "weights" and cells.bound is not None
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


def _write_notes(layout: dict[str, Any], lines: list[str], geometry: Geometry) -> None:
    """`lines` under the plot, right-aligned: on one line, or a line each where one would run
    past the chart's left edge."""
    plain = [html.unescape(re.sub("<[^>]+>", "", line)) for line in lines]
    stacked = text_width("   ".join(plain), FONT_SIZE - 2) > geometry.plot_width
    extra = (len(lines) - 1) * (FONT_SIZE + 2) if stacked else 0
    layout["margin"]["b"] = NOTE_SPACE + extra
    layout["height"] += extra
    joined = ("<br>" if stacked else "   ").join(lines)
    below = -6 / geometry.plot_height  # 6 px under the plot, in paper units
    layout.setdefault("annotations", []).append(
        {**note(joined, x=1.0, y=below, font={"size": FONT_SIZE - 2}), "align": "right"}
    )


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
