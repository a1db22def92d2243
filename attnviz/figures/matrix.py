"""The traces every matrix figure shares: a matrix in the encoding its size allows
(`attnviz.figures.budget`), its hover text, the numbers in its cells, the marks of masked cells,
the click overlay and the axis ticks. The heatmap and the breakdown's table are built on these.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go
from plotly.basedatatypes import BaseTraceType

from attnviz.figures.budget import HOVER_BYTES_LIMIT, Encoding, encoding_for, json_size
from attnviz.figures.fit import colorbar_ticks
from attnviz.figures.image import image_traces
from attnviz.figures.labels import default_labels, escape_label
from attnviz.figures.style import COLORSCALES, FONT_SIZE, MASKED_COLOR, Kind
from attnviz.i18n import Catalogue

NUMBERS_LIMIT = 12  # numbers drawn in the cells up to this many rows and columns
MASK_MARK = "×"
TICKS_NAMED = 24  # numbered labels (q0, q1, ...) get a tick each up to this many
# The click overlay is one SVG point a cell, and Plotly redraws every point at each change: the
# Playground's three 64 x 64 overlays took 2.3 s of a 3.3 s repaint in Chromium (benchmarks/
# bench_controls.py). Beyond 32 a side, where a cell of a ~400 px plot is under 13 px, the
# query is picked in the breakdown's selector instead.
SELECT_CELL_LIMIT = 32 * 32
# The × marks and cell gaps only where a cell is large enough to hold them (~15 px at 32).
MARK_LIMIT = 32


def as_array(matrix: object) -> np.ndarray:
    """A 2-D float64 array of a tensor or array-like; ValueError naming the shape otherwise."""
    array = np.asarray(matrix.detach().cpu() if hasattr(matrix, "detach") else matrix)
    if array.ndim != 2:
        raise ValueError(f"a heatmap needs a 2-D matrix, got shape {array.shape}")
    return array.astype(np.float64)


def number(value: float, digits: int = 4) -> str:
    """A value for hover and cells: `digits` significant digits, "-inf" for a -inf fill."""
    if np.isneginf(value):
        return "-inf"
    return f"{value:.{digits}g}"


def cell_number(value: float) -> str:
    """A number written in its cell, one format for every kind: two significant digits without
    the leading zero (".41", "-.49", "7.2", "140"), "0" under 0.005 in size (a weight of 1e-7
    and its contribution alike), a fill value as "-1e6" and "-inf"."""
    if np.isneginf(value):
        return "-inf"
    size = abs(value)
    if size < 0.005:
        return "0"
    if size >= 1e4:
        mantissa, exponent = f"{value:.0e}".split("e")
        return f"{mantissa}e{int(exponent)}"
    if size >= 99.5:
        return f"{value:.0f}"
    return f"{value:.2g}".replace("0.", ".", 1)


def weight_number(value: float) -> str:
    """A weight written in a table's cell, where there is room for its digits: `cell_number`'s
    two significant digits from 0.005 up (".041"), and the same two below it (".004", "4.1e-5"
    under 0.0001), so that "0" means an exact 0, a masked key, and nothing else."""
    size = abs(value)
    if size == 0 or size >= 0.005 or np.isnan(value):
        return cell_number(value)
    if size >= 1e-4:
        return f"{value:.2g}".replace("0.", ".", 1)
    mantissa, exponent = f"{value:.1e}".split("e")
    return f"{mantissa}e{int(exponent)}"


@dataclass(frozen=True)
class Drawn:
    """A matrix's traces, their encoding, and (rows, columns) of cells in each image pixel."""

    traces: list[BaseTraceType]
    encoding: Encoding
    pool: tuple[int, int] = (1, 1)


def colour_range(shown: np.ndarray, kind: Kind, bound: float | None = None) -> dict[str, float]:
    """Weights on 0..1; activations from 0 to their largest; scores and values on a scale
    symmetric about 0 (their largest |value|). A given `bound` replaces the largest value: one
    scale for charts set side by side, or weights on 0..their maximum."""
    if kind == "weights" and bound is None:
        return {"zmin": 0.0, "zmax": 1.0}
    if bound is None:
        bound = largest(shown)
    if kind == "weights":
        return {"zmin": 0.0, "zmax": bound or 1.0}
    if kind == "activations":
        return {"zmin": 0.0, "zmax": bound or 1.0}
    return {"zmid": 0.0, "zmin": -bound or -1.0, "zmax": bound or 1.0}


def bar_ticks(
    low: float, high: float, length: float, *, diverging: bool, titled: bool = False
) -> dict[str, object]:
    """A colour bar's tick settings for `length` px from `low` to `high`: Plotly's own where
    five or more labels fit; on a shorter bar its two ends and its middle (0 for a diverging
    scale) in the cells' format, since Plotly's few round ticks can leave a lone "0". A bar
    whose title names its top ("0 to max 2.1") leaves that end to the title."""
    count = colorbar_ticks(length)
    if count >= 5 or not high > low:
        return {"nticks": count}
    values = [low, 0.0 if diverging else (low + high) / 2, high] if count >= 3 else [low, high]
    if titled:
        values = values[:-1]
    return {"tickmode": "array", "tickvals": values, "ticktext": [cell_number(v) for v in values]}


def largest(matrix: object) -> float:
    """The largest finite |value| of a matrix (1 for none): a colour scale's bound."""
    array = as_array(matrix)
    finite = array[np.isfinite(array)]
    return float(np.abs(finite).max()) if finite.size else 1.0


def hover_text(
    row_labels: list[str],
    col_labels: list[str],
    hover: Mapping[str, np.ndarray],
    mask: np.ndarray | None,
    row: str,
    col: str,
    masked: str,
    limit: int = HOVER_BYTES_LIMIT,
) -> np.ndarray | None:
    """Per cell: query and key labels, every hover value and `masked` where masked, escaped;
    None when the text would pass `limit` bytes (long labels)."""
    rows = [escape_label(r) for r in row_labels]
    cols = [escape_label(c) for c in col_labels]
    row_text = np.array([f"{row} {r}<br>{col} " for r in rows], dtype=object)[:, None]
    text = row_text + np.array(cols, dtype=object)[None, :]  # (n, m)
    for name, values in hover.items():
        formatted = np.char.mod("%.4g", values).astype(object)  # as _number: "-inf" stays
        text = text + f"<br>{escape_label(name)}: " + formatted
    if mask is not None:
        text = np.where(mask, text, text + f"<br><b>{escape_label(masked)}</b>")
    # The text's JSON size, with quotes and a comma for each cell.
    if json_size("".join(text.flat)) + 3 * text.size > limit:
        return None
    return text


def matrix_traces(
    z: np.ndarray,
    *,
    kind: Kind,
    row_labels: list[str],
    col_labels: list[str],
    row_name: str,
    col_name: str,
    mask: np.ndarray | None,
    hover: Mapping[str, np.ndarray],
    show_numbers: bool,
    text: Catalogue,
    showscale: bool = True,
    hover_bytes: int = HOVER_BYTES_LIMIT,
    masked_numbers: bool = False,
    bound: float | None = None,
    number_size: int = FONT_SIZE - 1,
) -> Drawn:
    """The traces of a matrix in the encoding its size allows (`encoding_for`), "compact" where
    the hover text would pass `hover_bytes`. `masked_numbers` writes masked cells' numbers too
    (the cells stay gaps); `bound` fixes the colour scale (`colour_range`)."""
    n, m = z.shape
    shown = z if mask is None else np.where(mask, z, np.nan)  # masked: a gap, not a colour
    ranges = colour_range(shown, kind, bound)
    row, col = escape_label(row_name), escape_label(col_name)
    encoding = encoding_for(n, m)
    if encoding == "image":
        traces, pool = image_traces(
            shown, kind=kind, ranges=ranges, row=row, col=col, showscale=showscale, text=text
        )
        return Drawn(traces, "image", pool)
    texts = None
    if encoding == "full":
        masked = text("fig.masked")
        texts = hover_text(row_labels, col_labels, hover, mask, row, col, masked, hover_bytes)
        encoding = "full" if texts is not None else "compact"  # long labels: over the budget
    gap = 1 if max(n, m) <= MARK_LIMIT else 0
    # Every cell masked: Plotly draws nothing of a heatmap whose every z is NaN (no numbers, no
    # hover), so the cells are drawn in the gaps' grey instead, with no colour bar to read.
    blank = mask is not None and not mask.any()
    sent = shown if encoding == "full" else shown.astype(np.float32)  # float32: half the bytes
    trace = go.Heatmap(
        z=np.zeros_like(shown) if blank else sent,
        x=np.arange(m),
        y=np.arange(n),
        colorscale=[[0, MASKED_COLOR], [1, MASKED_COLOR]] if blank else COLORSCALES[kind],
        showscale=showscale and not blank,
        # Compact hover would print a masked cell's value as "NaN": the grey says enough.
        hoverongaps=texts is not None,
        customdata=texts,
        hovertemplate=_template(texts is not None, row, col, blank, text),
        xgap=gap,
        ygap=gap,
        **ranges,
    )
    if show_numbers and encoding == "full":
        numbers = np.vectorize(cell_number, otypes=[object])(z)
        trace.text = numbers if mask is None or masked_numbers else np.where(mask, numbers, "")
        trace.update(texttemplate="%{text}", textfont={"size": number_size})
    return Drawn([trace], encoding)


def _template(texts: bool, row: str, col: str, blank: bool, text: Catalogue) -> str:
    """The hover of each cell: its text, or its position and value (`row`, `col` escaped)."""
    if texts:
        return "%{customdata}<extra></extra>"
    value = escape_label(text("fig.masked")) if blank else "%{z:.4g}"
    return f"{row} %{{y}}<br>{col} %{{x}}<br>{value}<extra></extra>"


def masked_markers(mask: np.ndarray) -> go.Scatter:
    """A × at each masked cell, so a gap reads as "masked" and not as missing data."""
    rows, cols = np.nonzero(~mask)
    return go.Scatter(
        x=cols,
        y=rows,
        mode="text",
        text=MASK_MARK,
        textfont={"size": FONT_SIZE if max(mask.shape) <= NUMBERS_LIMIT else FONT_SIZE - 5},
        hoverinfo="skip",
        showlegend=False,
    )


def cell_overlay(heat: go.Heatmap, n: int, m: int) -> go.Scatter:
    """One invisible marker on each cell centre of the (n, m) `heat`: Plotly selects scatter
    points, not heatmap cells, so this is what a click in `st.plotly_chart(on_select=...)`
    reports."""
    rows, cols = np.divmod(np.arange(n * m), m)  # Plotly sends int64 as the smallest int type
    # The overlay is nearest to the pointer, so Plotly shows its hover and not the heatmap's:
    # it repeats the heatmap's hover text.
    if heat.customdata is not None:
        hover = {"customdata": np.asarray(heat.customdata).reshape(-1)}
        template = "%{customdata}<extra></extra>"
    else:
        hover = {"customdata": np.asarray(heat.z, dtype=np.float32).reshape(-1)}
        template = heat.hovertemplate.replace("%{z", "%{customdata")
    return go.Scatter(
        x=cols,
        y=rows,
        mode="markers",
        name="cells",
        # Plotly.js hit-tests points of opacity 0 (checked in Chromium). Markers larger than a
        # cell would tie (Plotly scores every point under the pointer alike) and pick a
        # neighbour; with the layout's hoverdistance -1 the nearest centre, the cell's own,
        # wins from anywhere in the cell.
        marker={"opacity": 0},
        selected={"marker": {"opacity": 0}},
        unselected={"marker": {"opacity": 0}},
        hovertemplate=template,
        showlegend=False,
        **hover,
    )


def numbered_axis(labels: list[str]) -> bool:
    """Whether an axis of these labels gets numeric ticks: past 64 labels, or past TICKS_NAMED
    numbered ones (q0, q1, ... or 0, 1, ..., a vector's dimensions), which say no more than the
    position (a tick label per cell with automatic margins costs Chromium 0.2-0.4 s a chart
    at 64 labels, against ~50 ms)."""
    count = len(labels)
    prefix = labels[0].rstrip("0123456789") if labels else ""
    return count > 64 or (count > TICKS_NAMED and labels == default_labels(prefix, count))


def axis_ticks(labels: list[str]) -> dict[str, object]:
    """A tick per label (escaped) up to what can be read; numeric ticks beyond."""
    if numbered_axis(labels):
        # let Plotly thin the ticks; hover still gives every cell's position
        return {"automargin": True, "tickmode": "auto", "nticks": 16}
    return {
        "automargin": True,
        "tickmode": "array",
        "tickvals": list(range(len(labels))),
        "ticktext": [escape_label(label) for label in labels],
    }


def rows_down(n: int, drawn: Drawn) -> dict[str, Any]:
    """Row 0 on top, on a fixed range: an autorange would widen it for the click overlay's
    markers (and unsquare square cells), and an image's last block may reach past row n - 1.
    Plotly's square image pixels are not forced on a matrix that is not square."""
    rows = {"range": [n - 0.5, -0.5], "autorange": False}
    if drawn.encoding == "image":
        return {**rows, "scaleanchor": False}
    return rows
