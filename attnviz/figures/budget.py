"""The payload budget: how a matrix is sent to the browser, and how many bytes a figure sends.

A matrix reaches the browser in one of three encodings chosen by its size (`encoding_for`), so
that no figure sends more than MAX_FIGURE_BYTES (Streamlit sends `fig.to_json()`): "full"
(float64 numbers and per-cell hover text with the labels and every hover value), "compact"
(float32 numbers as a base64 typed array; hover gives positions and the value) and "image"
(an indexed-colour PNG of the colour-mapped matrix, mean-pooled to at most IMAGE_MAX_SIDE
pixels a side, beside a colour bar: `attnviz.figures.image`). The numbers behind the limits
come from `python -m benchmarks.bench_payload`.
"""

from __future__ import annotations

import base64
import json
from typing import TYPE_CHECKING, Literal

import numpy as np

if TYPE_CHECKING:
    import plotly.graph_objects as go

Encoding = Literal["full", "compact", "image"]

MAX_FIGURE_BYTES = 2_000_000  # the most one figure may send to the browser
# Per-cell hover text costs ~115 bytes a cell in JSON (query, key, score, weight, "masked":
# Plotly writes each "<br>" as 14 bytes): a 64 x 64 heatmap sends ~0.8 MB, and the Playground's
# three took 0.3 s more to redraw in Chromium than compact ones (benchmarks/bench_controls.py).
# Up to 60 x 60 (~0.4 MB each; the kernel page's 50 x 50 weights among them) they are sent in
# full.
FULL_CELL_LIMIT = 60 * 60
HOVER_BYTES_LIMIT = 1_200_000  # beyond it (long labels) a "full" matrix is sent compact
# float32 costs ~6.5 bytes a cell: 0.42 MB at 256 x 256, which Chromium draws in ~50 ms; at
# 512 x 512 it is 1.4 MB (~80 ms) and at 2048 x 2048 23 MB (~0.8 s, 2.4 s through Streamlit),
# while the image of any size is under 0.3 MB and draws in ~35 ms.
IMAGE_CELL_LIMIT = 256 * 256
# An image pixel per screen pixel at most: the plot is ~600 px tall, and a larger image would
# be shrunk by the browser dropping rows (pixelated), not averaging them. Random N(0, 1)
# scores, the worst case for PNG, send 0.25 MB at 2048 x 2048 (pooled 4 x 4).
IMAGE_MAX_SIDE = 512
_TRACE_DATA = ("x", "y", "z", "text", "customdata", "hovertext", "source")


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


def json_size(text: str) -> int:
    """Bytes of `text` as a JSON string the way Plotly writes it."""
    # Plotly writes < > / as \u003c, \u003e, \u002f: "<br>" costs 14 bytes.
    return len(json.dumps(text)) + 5 * sum(text.count(c) for c in "<>/")


def _data_bytes(value: object) -> int:
    if value is None:
        return 0
    if isinstance(value, str):
        return json_size(value)
    array = np.asarray(value)
    if array.dtype.kind in "biuf":
        # A base64 typed array (Plotly's compact form), in which JSON writes "/" as \u002f:
        # masked cells (NaN) are mostly "/", so the exact count matters (~1 ms a MB).
        encoded = base64.b64encode(np.ascontiguousarray(array).tobytes())
        return len(encoded) + 5 * encoded.count(b"/") + 100
    # Text: one join and a count of the characters JSON escapes, with quotes and a comma each.
    return json_size("".join(map(str, array.flat))) + 3 * array.size


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
