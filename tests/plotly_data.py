"""Read arrays back out of Plotly figure JSON (Plotly >= 6 writes numpy arrays as base64)."""

from __future__ import annotations

import base64
import json
from typing import Any

import numpy as np


def decode(value: Any) -> np.ndarray:
    """A figure JSON array (a list, or {"dtype", "bdata", "shape"}) as a numpy array."""
    if isinstance(value, dict) and "bdata" in value:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        if "shape" in value:
            array = array.reshape([int(s) for s in str(value["shape"]).split(",")])
        return array
    return np.asarray(value, dtype=object if _has_strings(value) else float)


def _has_strings(value: Any) -> bool:
    if isinstance(value, str):
        return True
    if isinstance(value, list | tuple):
        return any(_has_strings(v) for v in value)
    return False


def figure_json(fig_or_spec: Any) -> dict[str, Any]:
    """A go.Figure or an AppTest plotly_chart's `proto.spec` as a dict."""
    if isinstance(fig_or_spec, str):
        return json.loads(fig_or_spec)
    return json.loads(fig_or_spec.to_json())


def grid_block(z: Any, layers: int, heads: int, layer: int, head: int) -> np.ndarray:
    """Head `head` of layer `layer` out of the model view's one heatmap `z` (figure JSON or an
    array) of `layers` x `heads` thumbnails, a gap row and column between them."""
    mosaic = decode(z).astype(float)
    rows, cols = (mosaic.shape[0] + 1) // layers - 1, (mosaic.shape[1] + 1) // heads - 1
    top, left = layer * (rows + 1), head * (cols + 1)
    return mosaic[top : top + rows, left : left + cols]


def panel_traces(figure: dict[str, Any], panel: int) -> list[dict[str, Any]]:
    """The traces of panel `panel` of a figure of panels (`attnviz.figures.panels`), as JSON."""
    start, stop = figure["layout"]["meta"]["traces"][panel]
    return list(figure["data"][start:stop])


def panel_z(figure: dict[str, Any], panel: int) -> np.ndarray:
    """The matrix of panel `panel`'s first heatmap."""
    heat = next(t for t in panel_traces(figure, panel) if t["type"] == "heatmap")
    return decode(heat["z"])


def annotation_texts(figure: dict[str, Any]) -> list[str]:
    """Every annotation's text: a figure of panels writes its panels' titles as annotations."""
    return [a.get("text", "") for a in figure["layout"].get("annotations", [])]


def panel_axis(figure: dict[str, Any], panel: int, letter: str) -> dict[str, Any]:
    """The layout of panel `panel`'s `letter` ("x" or "y") axis, the one its first heatmap uses."""
    heat = next(t for t in panel_traces(figure, panel) if t["type"] == "heatmap")
    name = heat.get(f"{letter}axis", letter)
    return dict(figure["layout"][f"{letter}axis{name[1:]}"])


def panel_click(figure: dict[str, Any], panel: int, row: int, col: int) -> dict[str, Any]:
    """The selection event Plotly reports for a click on cell (row, col) of panel `panel`'s
    click overlay, in a figure of panels."""
    curve = figure["layout"]["meta"]["cells"][panel]
    overlay = figure["data"][curve]
    at_cell = (decode(overlay["x"]) == col) & (decode(overlay["y"]) == row)
    (index,) = np.flatnonzero(at_cell)
    point = {"curve_number": curve, "point_index": int(index), "x": col, "y": row}
    return {"selection": {"points": [point]}}
