"""Large matrices as pictures: a matrix mean-pooled over blocks, colour-mapped on its scale,
written as an 8-bit indexed-colour PNG, shown as a `go.Image` beside a colour bar."""

from __future__ import annotations

import base64
import struct
import zlib
from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go
from plotly.basedatatypes import BaseTraceType
from plotly.colors import convert_colors_to_same_type, get_colorscale, hex_to_rgb

from attnviz.figures.budget import IMAGE_MAX_SIDE
from attnviz.figures.labels import escape_label
from attnviz.figures.style import COLORSCALES, MASKED_COLOR, Kind
from attnviz.i18n import Catalogue

LEVELS = 255  # colours of the scale in an image; palette entry 255 is MASKED_COLOR


def block_sums(a: np.ndarray, k_rows: int, k_cols: int) -> np.ndarray:
    """Sums of the k_rows x k_cols blocks of `a`, whose sides are multiples of them (two
    contiguous one-axis sums: a 4-D sum over axes (1, 3) takes three times as long)."""
    r, c = a.shape
    a = a.reshape(r, c // k_cols, k_cols).sum(axis=2)
    return a.reshape(r // k_rows, k_rows, c // k_cols).sum(axis=1)


def pool_mean(z: np.ndarray, k_rows: int, k_cols: int) -> np.ndarray:
    """Means of k_rows x k_cols blocks over the cells that are not NaN (masked); NaN where
    a block has none. Blocks at the bottom and right edges may hold fewer cells."""
    if k_rows == k_cols == 1:
        return z
    n, m = z.shape
    present = ~np.isnan(z)
    padded = np.zeros((-(-n // k_rows) * k_rows, -(-m // k_cols) * k_cols))
    np.copyto(padded[:n, :m], z, where=present)  # NaN (masked) counts as 0 in the sums
    sums = block_sums(padded, k_rows, k_cols)
    if present.all():
        # Cells a block holds: k_rows x k_cols, fewer at the bottom and right edges.
        counts = np.outer(
            np.minimum(k_rows, n - k_rows * np.arange(sums.shape[0])),
            np.minimum(k_cols, m - k_cols * np.arange(sums.shape[1])),
        )
    else:
        held = np.zeros(padded.shape)
        held[:n, :m] = present
        counts = block_sums(held, k_rows, k_cols)
    return np.divide(sums, counts, out=np.full(sums.shape, np.nan), where=counts > 0)


def palette(kind: Kind) -> np.ndarray:
    """(256, 3) uint8: the kind's colour scale in LEVELS steps, then MASKED_COLOR.

    Plotly.js interpolates a colour scale linearly in RGB between its stops; so does this.
    """
    scale = get_colorscale(COLORSCALES[kind])
    stops = np.array([float(stop) for stop, _ in scale])
    colours, _ = convert_colors_to_same_type([colour for _, colour in scale], colortype="tuple")
    rgb = np.array(colours) * 255.0  # (stops, 3)
    levels = np.linspace(0.0, 1.0, LEVELS)
    steps = np.stack([np.interp(levels, stops, rgb[:, c]) for c in range(3)], axis=1)
    return np.vstack([steps, hex_to_rgb(MASKED_COLOR)]).round().astype(np.uint8)


def colour_indices(values: np.ndarray, zmin: float, zmax: float) -> np.ndarray:
    """Palette indices: the value's step on the colour scale, clipped; LEVELS for NaN."""
    with np.errstate(invalid="ignore"):
        steps = np.rint((values - zmin) / (zmax - zmin) * (LEVELS - 1))
    steps = np.clip(steps, 0, LEVELS - 1)
    return np.where(np.isnan(steps), LEVELS, steps).astype(np.uint8)


def png(indices: np.ndarray, palette: np.ndarray) -> bytes:
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


def colour_bar(kind: Kind, ranges: Mapping[str, float]) -> go.Heatmap:
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


def image_traces(
    shown: np.ndarray,
    *,
    kind: Kind,
    ranges: Mapping[str, float],
    row: str,
    col: str,
    showscale: bool,
    text: Catalogue,
) -> tuple[list[BaseTraceType], tuple[int, int]]:
    """The matrix as a PNG, each pixel the mean of a block of cells, masked cells in
    MASKED_COLOR, and the (rows, columns) of cells in each pixel. Each axis is pooled on its own,
    so a tall, narrow matrix keeps its columns."""
    n, m = shown.shape
    k_rows, k_cols = -(-n // IMAGE_MAX_SIDE), -(-m // IMAGE_MAX_SIDE)
    pooled = pool_mean(shown, k_rows, k_cols)  # (ceil(n / k_rows), ceil(m / k_cols))
    data = png(colour_indices(pooled, ranges["zmin"], ranges["zmax"]), palette(kind))
    pooled_note = text("fig.pooled", rows=k_rows, cols=k_cols)
    note = f"<br>{escape_label(pooled_note)}" if k_rows * k_cols > 1 else ""
    image = go.Image(
        source="data:image/png;base64," + base64.b64encode(data).decode("ascii"),
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
        traces.append(colour_bar(kind, ranges))
    return traces, (k_rows, k_cols)
