"""Plotly figure builders: arrays and labels in, `go.Figure` out; nothing here draws on screen.

Heatmaps read like matrices (row 0 at the top, as in d2l's `show_heatmaps`): positions are
integers and labels are tick text, so repeated tokens never merge into one row. Every label
that may come from a person is escaped before it reaches Plotly's pseudo-HTML.

A matrix reaches the browser in one of three encodings chosen by its size (`encoding_for`), so
that no figure sends more than MAX_FIGURE_BYTES (Streamlit sends `fig.to_json()`): "full"
(float64 numbers and per-cell hover text with the labels and every hover value), "compact"
(float32 numbers as a base64 typed array; hover gives positions and the value) and "image"
(an indexed-colour PNG of the colour-mapped matrix, mean-pooled to at most IMAGE_MAX_SIDE
pixels a side, beside a colour bar). The numbers behind the limits come from
`python -m benchmarks.bench_payload`.
"""

from __future__ import annotations

import base64
import html
import json
import struct
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import plotly.graph_objects as go
import torch
import torch.nn.functional as F
from plotly.basedatatypes import BaseTraceType
from plotly.colors import convert_colors_to_same_type, get_colorscale, hex_to_rgb
from plotly.subplots import make_subplots

from attnviz.i18n import t

Kind = Literal["scores", "weights", "values"]
Encoding = Literal["full", "compact", "image"]

# Colour-blind-safe scales that survive a projector: ColorBrewer's diverging RdBu / PuOr
# centred at 0, and viridis for weights on a fixed 0..1 range.
COLORSCALES: dict[str, str] = {"scores": "RdBu_r", "weights": "Viridis", "values": "PuOr_r"}
MASKED_COLOR = "#bdbdbd"
NUMBERS_LIMIT = 12  # numbers drawn in the cells up to this many rows and columns
FONT_SIZE = 15
THUMBNAIL_CELLS = 48  # a side of a model-view thumbnail, beyond which it is pooled
MASK_MARK = "×"

MAX_FIGURE_BYTES = 2_000_000  # the most one figure may send to the browser
# Per-cell hover text costs ~115 bytes a cell in JSON (query, key, score, weight, "masked":
# Plotly writes each "<br>" as 14 bytes), so a 96 x 96 masked heatmap with two hover values
# sends ~1.15 MB and builds in ~0.1 s; 128 x 128 would pass 2 MB.
FULL_CELL_LIMIT = 96 * 96
HOVER_CELL_LIMIT = FULL_CELL_LIMIT  # the older name: per-cell hover text up to this many cells
HOVER_BYTES_LIMIT = 1_200_000  # beyond it (long labels) a "full" matrix is sent compact
# float32 costs ~6.5 bytes a cell: 0.42 MB at 256 x 256, which Chromium draws in ~50 ms; at
# 512 x 512 it is 1.4 MB (~80 ms) and at 2048 x 2048 23 MB (~0.8 s, 2.4 s through Streamlit),
# while the image of any size is under 0.3 MB and draws in ~35 ms.
IMAGE_CELL_LIMIT = 256 * 256
# An image pixel per screen pixel at most: the plot is ~600 px tall, and a larger image would
# be shrunk by the browser dropping rows (pixelated), not averaging them. Random N(0, 1)
# scores, the worst case for PNG, send 0.25 MB at 2048 x 2048 (pooled 4 x 4).
IMAGE_MAX_SIDE = 512
BREAKDOWN_SPACING = 0.08  # the gap between the breakdown's panels, a fraction of its width
BREAKDOWN_KEYS = 32  # keys drawn in a per-query breakdown; the others are summed in one row
TICKS_NAMED = 24  # numbered labels (q0, q1, ...) get a tick each up to this many
# The click overlay is one SVG point a cell: Chromium spends ~40 us a point drawing it (0.19 s
# at 64 x 64, 0.67 s at 128 x 128), and it repeats the hover text (+0.47 MB at 64 x 64).
# Beyond 64 a side, cells of a ~400 px plot are under 7 px: too small to aim at anyway.
SELECT_CELL_LIMIT = 64 * 64
# The × marks and cell gaps only where a cell is large enough to hold them (~15 px at 32).
MARK_LIMIT = 32
_LEVELS = 255  # colours of the scale in an image; palette entry 255 is MASKED_COLOR


def encoding_for(n: int, m: int) -> Encoding:
    """How an n x m matrix is sent to the browser: "full", "compact" or "image" (see above).

    `heatmap` may still send a "full"-sized matrix compact when its labels are so long that
    the per-cell hover text would pass HOVER_BYTES_LIMIT.
    """
    cells = n * m
    if cells <= FULL_CELL_LIMIT:
        return "full"
    if cells <= IMAGE_CELL_LIMIT:
        return "compact"
    return "image"


def escape_label(text: object) -> str:
    """`text` safe for Plotly labels and hover: HTML escaped, and no `%{...}` template syntax."""
    # Quotes stay as they are: with `<` escaped no tag (so no attribute) can start, and Plotly
    # decodes only a few named entities, so "&quot;" would be shown as typed.
    escaped = html.escape(str(text), quote=False)
    return escaped.replace("%{", "%&#123;").replace("}", "&#125;")


def unique_labels(labels: Sequence[object]) -> list[str]:
    """Labels with repeats numbered ("the", "the (2)"), so hover text tells them apart."""
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        text = str(label)
        seen[text] = seen.get(text, 0) + 1
        out.append(text if seen[text] == 1 else f"{text} ({seen[text]})")
    return out


def default_labels(prefix: str, count: int) -> list[str]:
    """q0, q1, ... for a matrix without token labels."""
    return [f"{prefix}{i}" for i in range(count)]


def _as_array(matrix: object) -> np.ndarray:
    array = np.asarray(matrix.detach().cpu() if hasattr(matrix, "detach") else matrix)
    if array.ndim != 2:
        raise ValueError(f"a heatmap needs a 2-D matrix, got shape {array.shape}")
    return array.astype(np.float64)


def _number(value: float, digits: int = 4) -> str:
    if np.isneginf(value):
        return "-inf"
    return f"{value:.{digits}g}"


def _cell_number(value: float) -> str:
    # Two significant digits fit a cell of a three-across layout; hover has four.
    return _number(value, digits=2)


def _cell_weight(value: float) -> str:
    # Weights lie in [0, 1]: ".16" reads at a glance where "0.16" or "4.1e-15" crowd a cell.
    if value >= 0.995:
        return "1"
    if value < 0.005:
        return "0"
    return f"{value:.2f}".removeprefix("0")


@dataclass(frozen=True)
class _Drawn:
    """A matrix's traces, their encoding, and (rows, columns) of cells in each image pixel."""

    traces: list[BaseTraceType]
    encoding: Encoding
    pool: tuple[int, int] = (1, 1)


def _colour_range(shown: np.ndarray, kind: Kind) -> dict[str, float]:
    if kind == "weights":
        return {"zmin": 0.0, "zmax": 1.0}
    finite = shown[np.isfinite(shown)]
    bound = float(np.abs(finite).max()) if finite.size else 1.0
    return {"zmid": 0.0, "zmin": -bound or -1.0, "zmax": bound or 1.0}


def _json_size(text: str) -> int:
    # Plotly writes < > / as \u003c, \u003e, \u002f: "<br>" costs 14 bytes.
    return len(json.dumps(text)) + 5 * sum(text.count(c) for c in "<>/")


_TRACE_DATA = ("x", "y", "z", "text", "customdata", "hovertext", "source")


def _data_bytes(value: object) -> int:
    if value is None:
        return 0
    if isinstance(value, str):
        return _json_size(value)
    array = np.asarray(value)
    if array.dtype.kind in "biuf":
        # A base64 typed array (Plotly's compact form), in which JSON writes "/" as \u002f:
        # masked cells (NaN) are mostly "/", so the exact count matters (~1 ms a MB).
        encoded = base64.b64encode(np.ascontiguousarray(array).tobytes())
        return len(encoded) + 5 * encoded.count(b"/") + 100
    # Text: one join and a count of the characters JSON escapes, with quotes and a comma each.
    return _json_size("".join(map(str, array.flat))) + 3 * array.size


def sent_bytes(fig: go.Figure) -> int:
    """About the size of `fig.to_json()`, what Streamlit sends, without serialising it: each
    trace's data arrays (numbers as base64, text with its JSON escapes), its styling and the
    layout (within 25 % of the JSON for every builder here, tested).

    Serialising to measure would cost what sending does (~20 ms a small figure); this reads
    the arrays in place (~0.1 ms).
    """
    total = 10_000  # the layout
    for trace in fig.data:
        total += 1_000 + sum(_data_bytes(getattr(trace, name, None)) for name in _TRACE_DATA)
    return total


def _hover_text(
    rows: list[str],
    cols: list[str],
    hover: Mapping[str, np.ndarray],
    mask: np.ndarray | None,
    row: str,
    col: str,
) -> np.ndarray:
    """Per cell: query and key labels and every hover value (and "masked"), already escaped."""
    row_text = np.array([f"{row} {r}<br>{col} " for r in rows], dtype=object)[:, None]
    text = row_text + np.array(cols, dtype=object)[None, :]  # (n, m)
    for name, values in hover.items():
        formatted = np.char.mod("%.4g", values).astype(object)  # as _number: "-inf" stays
        text = text + f"<br>{escape_label(name)}: " + formatted
    if mask is not None:
        text = np.where(mask, text, text + f"<br><b>{escape_label(t('fig.masked'))}</b>")
    return text


def _matrix_traces(
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
    showscale: bool = True,
    hover_bytes: int = HOVER_BYTES_LIMIT,
) -> _Drawn:
    """The traces of a matrix in the encoding its size allows (`encoding_for`); "full" turns
    "compact" when the per-cell hover text would pass `hover_bytes` (long labels)."""
    n, m = z.shape
    shown = z if mask is None else np.where(mask, z, np.nan)  # masked: a gap, not a colour
    ranges = _colour_range(shown, kind)
    row, col = escape_label(row_name), escape_label(col_name)
    encoding = encoding_for(n, m)
    if encoding == "image":
        return _image_traces(shown, kind=kind, ranges=ranges, row=row, col=col, showscale=showscale)
    texts = None
    if encoding == "full":
        rows = [escape_label(r) for r in row_labels]
        cols = [escape_label(c) for c in col_labels]
        texts = _hover_text(rows, cols, hover, mask, row, col)
        # The text's JSON size, with quotes and a comma for each cell.
        if _json_size("".join(texts.flat)) + 3 * texts.size > hover_bytes:
            texts, encoding = None, "compact"  # labels too long for per-cell hover text
    gap = 1 if max(n, m) <= MARK_LIMIT else 0
    trace = go.Heatmap(
        # float32 halves the bytes of float64; the full encoding keeps every digit.
        z=shown if encoding == "full" else shown.astype(np.float32),
        x=np.arange(m),
        y=np.arange(n),
        colorscale=COLORSCALES[kind],
        showscale=showscale,
        # Compact hover would print a masked cell's value as "NaN": the grey says enough.
        hoverongaps=texts is not None,
        xgap=gap,
        ygap=gap,
        **ranges,
    )
    if texts is not None:
        trace.customdata = texts
        trace.hovertemplate = "%{customdata}<extra></extra>"
    else:
        trace.hovertemplate = f"{row} %{{y}}<br>{col} %{{x}}<br>%{{z:.4g}}<extra></extra>"
    if show_numbers and encoding == "full":
        cell = _cell_weight if kind == "weights" else _cell_number
        numbers = np.vectorize(cell, otypes=[object])(z)
        if mask is not None:
            numbers = np.where(mask, numbers, "")
        trace.text = numbers
        trace.texttemplate = "%{text}"
        trace.textfont = {"size": FONT_SIZE - 1}
    return _Drawn([trace], encoding)


def _block_sums(a: np.ndarray, k_rows: int, k_cols: int) -> np.ndarray:
    """Sums of the k_rows x k_cols blocks of `a`, whose sides are multiples of them (two
    contiguous one-axis sums: a 4-D sum over axes (1, 3) takes three times as long)."""
    r, c = a.shape
    a = a.reshape(r, c // k_cols, k_cols).sum(axis=2)
    return a.reshape(r // k_rows, k_rows, c // k_cols).sum(axis=1)


def _pool_mean(z: np.ndarray, k_rows: int, k_cols: int) -> np.ndarray:
    """Means of k_rows x k_cols blocks over the cells that are not NaN (masked); NaN where
    a block has none. Blocks at the bottom and right edges may hold fewer cells."""
    if k_rows == k_cols == 1:
        return z
    n, m = z.shape
    present = ~np.isnan(z)
    padded = np.zeros((-(-n // k_rows) * k_rows, -(-m // k_cols) * k_cols))
    np.copyto(padded[:n, :m], z, where=present)  # NaN (masked) counts as 0 in the sums
    sums = _block_sums(padded, k_rows, k_cols)
    if present.all():
        # Cells a block holds: k_rows x k_cols, fewer at the bottom and right edges.
        counts = np.outer(
            np.minimum(k_rows, n - k_rows * np.arange(sums.shape[0])),
            np.minimum(k_cols, m - k_cols * np.arange(sums.shape[1])),
        )
    else:
        held = np.zeros(padded.shape)
        held[:n, :m] = present
        counts = _block_sums(held, k_rows, k_cols)
    return np.divide(sums, counts, out=np.full(sums.shape, np.nan), where=counts > 0)


def _palette(kind: Kind) -> np.ndarray:
    """(256, 3) uint8: the kind's colour scale in _LEVELS steps, then MASKED_COLOR.

    Plotly.js interpolates a colour scale linearly in RGB between its stops; so does this.
    """
    scale = get_colorscale(COLORSCALES[kind])
    stops = np.array([float(stop) for stop, _ in scale])
    colours, _ = convert_colors_to_same_type([colour for _, colour in scale], colortype="tuple")
    rgb = np.array(colours) * 255.0  # (stops, 3)
    levels = np.linspace(0.0, 1.0, _LEVELS)
    steps = np.stack([np.interp(levels, stops, rgb[:, c]) for c in range(3)], axis=1)
    return np.vstack([steps, hex_to_rgb(MASKED_COLOR)]).round().astype(np.uint8)


def _colour_indices(values: np.ndarray, zmin: float, zmax: float) -> np.ndarray:
    """Palette indices: the value's step on the colour scale, clipped; _LEVELS for NaN."""
    with np.errstate(invalid="ignore"):
        steps = np.rint((values - zmin) / (zmax - zmin) * (_LEVELS - 1))
    steps = np.clip(steps, 0, _LEVELS - 1)
    return np.where(np.isnan(steps), _LEVELS, steps).astype(np.uint8)


def _png(indices: np.ndarray, palette: np.ndarray) -> bytes:
    """An 8-bit indexed-colour PNG: one byte a pixel, a third of RGB before compression.

    Filter type 0 on every row, as the PNG specification advises for indexed colour: N(0, 1)
    scores at 512 x 512 take 0.25 MB so, 0.36 MB as RGB and 0.68 MB as RGB with the Sub filter.
    """
    height, width = indices.shape
    rows = np.hstack([np.zeros((height, 1), np.uint8), indices.astype(np.uint8)])

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits, indexed colour
    return b"".join(
        [
            b"\x89PNG\r\n\x1a\n",
            chunk(b"IHDR", header),
            chunk(b"PLTE", palette.tobytes()),
            chunk(b"IDAT", zlib.compress(rows.tobytes(), 6)),
            chunk(b"IEND", b""),
        ]
    )


def _colour_bar(kind: Kind, ranges: Mapping[str, float]) -> go.Heatmap:
    """The colour bar of an image: a one-cell heatmap with the matrix's scale and range, drawn
    fully transparent (Plotly draws no colour bar for an all-NaN heatmap)."""
    return go.Heatmap(
        z=[[ranges["zmin"]]],
        colorscale=COLORSCALES[kind],
        showscale=True,
        opacity=0,
        hoverinfo="skip",
        name="colour bar",
        **ranges,
    )


def _image_traces(
    shown: np.ndarray,
    *,
    kind: Kind,
    ranges: Mapping[str, float],
    row: str,
    col: str,
    showscale: bool,
) -> _Drawn:
    """The matrix as a PNG, each pixel the mean of a block of cells, masked cells in
    MASKED_COLOR. Each axis is pooled on its own, so a tall, narrow matrix keeps its columns."""
    n, m = shown.shape
    k_rows, k_cols = -(-n // IMAGE_MAX_SIDE), -(-m // IMAGE_MAX_SIDE)
    pooled = _pool_mean(shown, k_rows, k_cols)  # (ceil(n / k_rows), ceil(m / k_cols))
    png = _png(_colour_indices(pooled, ranges["zmin"], ranges["zmax"]), _palette(kind))
    pooled_note = t("fig.pooled", rows=k_rows, cols=k_cols)
    note = f"<br>{escape_label(pooled_note)}" if k_rows * k_cols > 1 else ""
    image = go.Image(
        source="data:image/png;base64," + base64.b64encode(png).decode("ascii"),
        # Pixel centres sit at the centres of their blocks, in cell coordinates.
        x0=(k_cols - 1) / 2,
        dx=k_cols,
        y0=(k_rows - 1) / 2,
        dy=k_rows,
        hovertemplate=f"{row} %{{y}}<br>{col} %{{x}}{note}<extra></extra>",
        name="image",
    )
    traces: list[BaseTraceType] = [image]
    if showscale:
        traces.append(_colour_bar(kind, ranges))
    return _Drawn(traces, "image", (k_rows, k_cols))


def _masked_markers(mask: np.ndarray) -> go.Scatter:
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


def _cell_overlay(drawn: _Drawn, n: int, m: int) -> go.Scatter:
    """One invisible marker on each cell centre: Plotly selects scatter points, not heatmap
    cells, so this is what a click in `st.plotly_chart(on_select=...)` reports."""
    rows, cols = np.divmod(np.arange(n * m), m)  # Plotly sends int64 as the smallest int type
    heat = drawn.traces[0]
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


def _axis_ticks(labels: list[str]) -> dict[str, object]:
    count = len(labels)
    # Numbered labels (q0, q1, ...) say no more than the position: past TICKS_NAMED of them,
    # numeric ticks, since a tick label per cell with automatic margins costs Chromium
    # 0.2-0.4 s a chart (64 labels) against ~50 ms.
    prefix = labels[0][:1] if labels else ""
    numbered = labels == default_labels(prefix, count)
    if count > 64 or (numbered and count > TICKS_NAMED):
        # let Plotly thin the ticks; hover still gives every cell's position
        return {"automargin": True, "tickmode": "auto", "nticks": 16}
    return {
        "automargin": True,
        "tickmode": "array",
        "tickvals": list(range(count)),
        "ticktext": [escape_label(label) for label in labels],
    }


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


def heatmap(
    matrix: object,
    *,
    title: str,
    kind: Kind,
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
) -> go.Figure:
    """A matrix as a heatmap: row 0 on top, masked cells as labelled gaps, escaped labels.

    `kind` picks the colour scale: "scores" and "values" diverge at 0, "weights" span 0..1.
    `hover` maps names to (n, m) arrays shown on hover (raw score, weight, ...); the matrix
    itself is shown under `title` when `hover` is not given. Large matrices are sent compact
    or as an image (`encoding_for`). `selectable` adds the "cells" overlay (last in
    `fig.data`) that makes a click report its cell (`selected_cell`), up to SELECT_CELL_LIMIT.
    """
    z = _as_array(matrix)
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
    wanted = encoding_for(n, m) == "full"
    hover_arrays = {k: _as_array(v) for k, v in (hover or {title: z}).items()} if wanted else {}
    if show_numbers is None:
        show_numbers = max(n, m) <= NUMBERS_LIMIT
    drawn = _matrix_traces(
        z,
        kind=kind,
        row_labels=rows,
        col_labels=cols,
        row_name=row_name or t("fig.hover.query"),
        col_name=col_name or t("fig.hover.key"),
        mask=allowed,
        hover=hover_arrays,
        show_numbers=show_numbers,
        # The overlay repeats the hover text: half the budget each.
        hover_bytes=HOVER_BYTES_LIMIT // 2 if overlay else HOVER_BYTES_LIMIT,
    )
    marks = drawn.encoding == "full" and max(n, m) <= MARK_LIMIT
    traces = list(drawn.traces)
    if allowed is not None and marks:
        traces.append(_masked_markers(allowed))
    if overlay:
        traces.append(_cell_overlay(drawn, n, m))
    notes = []
    if allowed is not None:
        # Cells up to MARK_LIMIT a side hold a ×; smaller ones are only grey (the plot's
        # background shows through the gap, or the image's pixel is MASKED_COLOR).
        sign = MASK_MARK if marks else f'<span style="color:{MASKED_COLOR}">■</span>'
        notes.append(f"{sign} = {escape_label(t('fig.masked'))}")
    if drawn.pool != (1, 1):
        rows_k, cols_k = drawn.pool
        notes.append(escape_label(t("fig.pooled", rows=rows_k, cols=cols_k)))
    # The keys' axis sits on top, like a matrix's column labels: leave room above it for the title.
    layout = style_layout(title, height=int(min(760, max(320, 150 + 40 * n))), top=105)
    layout["xaxis"] = {
        "title": escape_label(x_title or t("fig.keys")),
        "side": "top",
        "showgrid": False,
        "zeroline": False,
        "range": [-0.5, m - 0.5],
        **_axis_ticks(cols),
    }
    layout["yaxis"] = {
        "title": escape_label(y_title or t("fig.queries")),
        "showgrid": False,
        "zeroline": False,
        **_axis_ticks(rows),
        **_rows_down(n, drawn),
    }
    if overlay:
        layout["hoverdistance"] = -1  # no cut-off: a click on a large cell still counts
    if notes:
        layout["margin"]["b"] = 36  # room for the "× = masked" note
        layout["annotations"] = [
            _note("   ".join(notes), x=1.0, y=-0.02, font={"size": FONT_SIZE - 2})
        ]
    return go.Figure(data=traces, layout=layout)


def _note(text: str, *, x: float, y: float, **extra: Any) -> dict[str, Any]:
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


def _rows_down(n: int, drawn: _Drawn) -> dict[str, Any]:
    """Row 0 on top. An image's last block may reach past row n - 1, so its range is fixed,
    and Plotly's square image pixels are not forced on a matrix that is not square."""
    if drawn.encoding == "image":
        return {"range": [n - 0.5, -0.5], "autorange": False, "scaleanchor": False}
    return {"autorange": "reversed"}


def query_breakdown(
    *,
    query: int,
    scores: object,
    masked_scores: object,
    weights: object,
    values: object,
    query_label: str | None = None,
    key_labels: Sequence[object] | None = None,
    mask: object | None = None,
) -> go.Figure:
    """How output row `query` is made: per key its raw and masked score, its weight, and
    weight_j * v_j (the rows of the right panel add up to the output row at its bottom)."""
    raw = np.asarray(scores, dtype=np.float64).reshape(-1)  # (m,)
    masked = np.asarray(masked_scores, dtype=np.float64).reshape(-1)  # (m,)
    w = np.asarray(weights, dtype=np.float64).reshape(-1)  # (m,)
    v = _as_array(values)  # (m, d_v)
    m, d_v = v.shape
    keys = unique_labels(key_labels if key_labels is not None else default_labels("k", m))
    allowed = np.ones(m, dtype=bool) if mask is None else np.asarray(mask, dtype=bool).reshape(-1)
    label = query_label if query_label is not None else f"q{query}"
    contributions = w[:, None] * v  # (m, d_v)
    output = contributions.sum(axis=0, keepdims=True)  # (1, d_v)
    rest: list[np.ndarray] = []
    if m > BREAKDOWN_KEYS:
        # Thousands of bars read as noise and take Chromium ~0.7 s to draw: the keys with the
        # largest weights, in key order, and the others summed in one row above the output.
        shown = np.sort(np.argsort(-w, kind="stable")[:BREAKDOWN_KEYS])  # (k,)
        others = np.setdiff1d(np.arange(m), shown)
        rest = [contributions[others].sum(axis=0, keepdims=True)]  # [(1, d_v)]
        rest_label = t("fig.breakdown.others", count=len(others))
        raw, masked, w, allowed = raw[shown], masked[shown], w[shown], allowed[shown]
        contributions, keys = contributions[shown], [keys[i] for i in shown]
        m = len(shown)

    x = np.arange(m)
    key_text = [escape_label(k) for k in keys]

    def bar(y: np.ndarray, name_key: str, color: str, axes: str, numbers: bool = False) -> go.Bar:
        name = escape_label(t(name_key))
        return go.Bar(
            x=x,
            y=y,
            name=name,
            marker_color=color,
            customdata=key_text,
            text=[_cell_number(v) for v in y] if numbers and m <= NUMBERS_LIMIT else None,
            textposition="outside",
            hovertemplate=f"%{{customdata}}: %{{y:.4g}}<extra>{name}</extra>",
            xaxis=f"x{axes}",
            yaxis=f"y{axes}",
        )

    traces: list[BaseTraceType] = [bar(raw, "fig.breakdown.raw", "#4575b4", "")]
    # Masked scores hold the fill value (-1e6, -inf): drawing it would flatten the chart,
    # so only the allowed keys get a bar and the masked ones a label.
    traces.append(bar(np.where(allowed, masked, np.nan), "fig.breakdown.masked", "#d73027", ""))
    if not allowed.all():
        traces.append(
            go.Scatter(
                x=x[~allowed],
                y=np.zeros(int((~allowed).sum())),
                mode="text",
                text=[escape_label(t("fig.masked"))] * int((~allowed).sum()),
                textposition="top center",
                showlegend=False,
                hoverinfo="skip",
            )
        )
    traces.append(bar(w, "fig.breakdown.weight", "#35b779", "2", numbers=True))
    rows = [*keys, *([rest_label] if rest else []), t("fig.breakdown.output")]
    dims = default_labels("v", d_v)
    table = np.vstack([contributions, *rest, output])  # (m [+ 1] + 1, d_v)
    drawn = _matrix_traces(
        table,
        kind="values",
        row_labels=rows,
        col_labels=dims,
        row_name=t("fig.hover.key"),
        col_name=t("fig.dims"),
        mask=None,
        hover={t("fig.hover.value"): table},
        show_numbers=max(m + 1, d_v) <= NUMBERS_LIMIT,
        showscale=False,
    )
    table_trace = drawn.traces[0]
    table_trace.update(xaxis="x3", yaxis="y3")
    traces.append(table_trace)

    layout = style_layout(t("fig.breakdown.title", query=label), height=420, background="white")
    # Three panels side by side, widths 0.34 : 0.22 : 0.44 of what the 0.08 gaps leave, each
    # titled above (as `make_subplots` lays them out, at a tenth of its cost).
    titles = ("fig.breakdown.scores", "fig.breakdown.weights", "fig.breakdown.contrib")
    left = 0.0
    annotations = []
    for panel, (width, title_key) in enumerate(zip((0.34, 0.22, 0.44), titles, strict=True)):
        axes = "" if panel == 0 else str(panel + 1)
        right = min(1.0, left + width * (1 - 2 * BREAKDOWN_SPACING))
        layout[f"xaxis{axes}"] = {"anchor": f"y{axes}", "domain": [left, right], "automargin": True}
        # Only the left panel's y axis meets the figure's edge: automatic margins on the
        # others would measure their labels for nothing (a layout pass each in Chromium).
        layout[f"yaxis{axes}"] = {
            "anchor": f"x{axes}",
            "domain": [0.0, 1.0],
            "automargin": not panel,
        }
        annotations.append(
            {
                **_note(escape_label(t(title_key)), x=(left + right) / 2, y=1.0),
                "xanchor": "center",
                "yanchor": "bottom",
                "font": {"size": FONT_SIZE + 1},
            }
        )
        left = right + BREAKDOWN_SPACING
    for axes, labels in (("", keys), ("2", keys)):
        if rest:
            # The top keys are scattered (k17, k402, ...): rotated labels under 32 bars cannot
            # be read and cost Chromium a second layout; hover names each bar's key.
            layout[f"xaxis{axes}"].update(showticklabels=False, title=t("fig.keys"))
        else:
            layout[f"xaxis{axes}"].update(_axis_ticks(labels))
    layout["xaxis3"].update(side="bottom", **_axis_ticks(dims))
    layout["yaxis3"].update(
        {**_axis_ticks(rows), **_rows_down(len(rows), drawn), "automargin": False}
    )
    if drawn.encoding == "image":
        layout["xaxis3"]["range"] = [-0.5, d_v - 0.5]
    layout["yaxis2"]["range"] = [0, 1.15]
    # The legend sits at the foot of the figure, below the rotated key labels, not over them.
    legend = {"orientation": "h", "yref": "container", "y": 0.0, "yanchor": "bottom"}
    layout.update(barmode="group", legend=legend)
    if rest:
        top = t("fig.breakdown.top", shown=m, total=m + len(others))
        annotations.append(_note(escape_label(top), x=1.0, y=-0.17, font={"size": FONT_SIZE - 3}))
    layout["annotations"] = annotations
    return go.Figure(data=traces, layout=layout)


def pipeline_figure() -> go.Figure:
    """The picture of the landing page: Q, K, V -> scores -> mask -> softmax -> output."""
    boxes = [
        ("pipeline.queries", 0.0, 2.0, "#fde0dd"),
        ("pipeline.keys", 0.0, 1.0, "#e0ecf4"),
        ("pipeline.values", 0.0, 0.0, "#e5f5e0"),
        ("pipeline.scores", 1.0, 1.5, "#f0f0f0"),
        ("pipeline.mask", 2.0, 1.5, "#f0f0f0"),
        ("pipeline.softmax", 3.0, 1.5, "#f0f0f0"),
        ("pipeline.output", 3.0, 0.0, "#fff7bc"),
    ]
    arrows = [(0, 3), (1, 3), (3, 4), (4, 5), (5, 6), (2, 6)]
    fig = go.Figure()
    for key, x, y, color in boxes:
        fig.add_shape(
            type="rect",
            x0=x - 0.42,
            x1=x + 0.42,
            y0=y - 0.28,
            y1=y + 0.28,
            fillcolor=color,
            line={"color": "#555555"},
        )
        fig.add_annotation(x=x, y=y, text=escape_label(t(key)), showarrow=False, font={"size": 14})
    for start, end in arrows:
        _, x0, y0, _ = boxes[start]
        _, x1, y1, _ = boxes[end]
        fig.add_annotation(
            x=x1 - 0.42 if x1 > x0 else x1,
            y=y1 + (0.28 if y1 < y0 else 0.0),
            ax=x0 + 0.42 if x1 > x0 else x0,
            ay=y0 - (0.28 if y1 < y0 else 0.0),
            xref="x",
            yref="y",
            axref="x",
            ayref="y",
            showarrow=True,
            arrowhead=3,
            arrowwidth=2,
            arrowcolor="#555555",
            text="",
        )
    fig.update_xaxes(visible=False, range=[-0.5, 3.5])
    fig.update_yaxes(visible=False, range=[-0.4, 2.4])
    return style(fig, t("home.pipeline_title"), height=330).update_layout(plot_bgcolor="white")


def head_grid(
    attentions: object,
    *,
    title: str,
    layer_label: str,
    head_label: str,
    selected: tuple[int, int] | None = None,
    selectable: bool = False,
) -> go.Figure:
    """The model view: one small weights heatmap per (layer, head), layers down, heads across.

    `attentions` is (L, H, r, c). Hover names the layer, head and the row/column positions; the
    enlarged head view (`heatmap`) carries the token labels. `selected` gets a frame.
    `selectable` adds, after the L x H heatmaps, one "heads" marker per thumbnail at its centre
    with `customdata` [layer, head], so that a click reports the head (`selected_head`).
    Thumbnails larger than THUMBNAIL_CELLS a side are average-pooled to that size: a thumbnail
    is about 80 pixels wide, and 72 heads of 259 x 259 tokens would send 19 MB to the browser.
    """
    tensor = torch.as_tensor(attentions, dtype=torch.float32)
    if tensor.ndim != 4:
        raise ValueError(
            f"the model view needs (layers, heads, rows, columns), got {tuple(tensor.shape)}"
        )
    layers, heads, rows, cols = tensor.shape
    if max(rows, cols) > THUMBNAIL_CELLS:
        size = (min(rows, THUMBNAIL_CELLS), min(cols, THUMBNAIL_CELLS))
        tensor = F.adaptive_avg_pool2d(tensor, size)  # (L, H, <= 48, <= 48)
    array = tensor.numpy()
    fig = make_subplots(
        rows=layers,
        cols=heads,
        horizontal_spacing=0.006,
        vertical_spacing=0.012,
        column_titles=[f"{escape_label(head_label)} {h}" for h in range(heads)],
        row_titles=[f"{escape_label(layer_label)} {layer}" for layer in range(layers)],
    )
    for layer in range(layers):
        for head in range(heads):
            fig.add_trace(
                go.Heatmap(
                    z=array[layer, head],
                    zmin=0.0,
                    zmax=1.0,
                    colorscale=COLORSCALES["weights"],
                    showscale=False,
                    hovertemplate=(
                        f"{escape_label(layer_label)} {layer}, {escape_label(head_label)} {head}"
                        "<br>%{y} → %{x}: %{z:.3f}<extra></extra>"
                    ),
                ),
                row=layer + 1,
                col=head + 1,
            )
    if selectable:
        thumb_rows, thumb_cols = array.shape[-2:]
        for layer in range(layers):
            for head in range(heads):
                fig.add_trace(
                    _head_marker(layer, head, thumb_rows, thumb_cols, layer_label, head_label),
                    row=layer + 1,
                    col=head + 1,
                )
        fig.update_layout(hoverdistance=-1)  # the nearest marker is the thumbnail's own
    fig.update_xaxes(showticklabels=False, showgrid=False, zeroline=False)
    fig.update_yaxes(showticklabels=False, showgrid=False, zeroline=False, autorange="reversed")
    if selected is not None:
        layer, head = selected
        frame = {"showline": True, "linewidth": 3, "linecolor": "#d62728", "mirror": True}
        fig.update_xaxes(row=layer + 1, col=head + 1, **frame)
        fig.update_yaxes(row=layer + 1, col=head + 1, **frame)
    fig.update_annotations(font_size=FONT_SIZE - 3)
    style(fig, title, height=int(90 * layers + 80), top=80)
    return fig.update_layout(plot_bgcolor="white")


def _head_marker(
    layer: int, head: int, rows: int, cols: int, layer_label: str, head_label: str
) -> go.Scatter:
    """An invisible marker at a thumbnail's centre (one trace a subplot: a trace has one pair of
    axes). Its hover replaces the heatmap's, which Plotly hides under a nearer point."""
    return go.Scatter(
        x=[(cols - 1) / 2],
        y=[(rows - 1) / 2],
        customdata=[[layer, head]],
        mode="markers",
        name="heads",
        marker={"opacity": 0},
        selected={"marker": {"opacity": 0}},
        unselected={"marker": {"opacity": 0}},
        hovertemplate=(
            f"{escape_label(layer_label)} {layer}, {escape_label(head_label)} {head}<extra></extra>"
        ),
        showlegend=False,
    )


def _field(container: object, name: str) -> Any:
    if isinstance(container, Mapping):
        return container.get(name)
    return getattr(container, name, None)


def _selected_points(selection: Mapping[str, Any] | object) -> list[Any]:
    """The points of a Streamlit plotly event state (`state.selection.points`), of its
    `selection`, or of plain dicts shaped like them; [] when nothing is selected."""
    inner = _field(selection, "selection")
    points = _field(selection if inner is None else inner, "points")
    return list(points) if points else []


def selected_cell(selection: Mapping[str, Any] | object) -> tuple[int, int] | None:
    """(row, column) of the first clicked cell of a `heatmap(..., selectable=True)`, or None."""
    for point in _selected_points(selection):
        x, y = _field(point, "x"), _field(point, "y")
        if isinstance(x, int | float) and isinstance(y, int | float):
            return round(y), round(x)
    return None


def selected_head(selection: Mapping[str, Any] | object) -> tuple[int, int] | None:
    """(layer, head) of the first clicked thumbnail of a `head_grid(..., selectable=True)`."""
    for point in _selected_points(selection):
        data = _field(point, "customdata")
        if isinstance(data, Sequence) and not isinstance(data, str) and len(data) == 2:
            return int(data[0]), int(data[1])
    return None


def vector_rows(
    vectors: object, *, title: str, row_labels: Sequence[object], dim_label: str
) -> go.Figure:
    """Vectors as rows of a heatmap (compare and aggregate outputs), numbered dimensions across."""
    matrix = _as_array(vectors)
    return heatmap(
        matrix,
        title=title,
        kind="values",
        row_labels=row_labels,
        col_labels=[str(i) for i in range(matrix.shape[1])],
        row_name="",
        col_name=dim_label,
        x_title=dim_label,
        y_title=" ",
        show_numbers=False,
    )
