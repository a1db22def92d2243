"""Clicks on charts: decoding Streamlit's plotly selection events into a cell or a head.

A heatmap with `marks.select_cells` carries one invisible "cells" marker per cell and
`head_grid(..., selectable=True)` one "heads" point per thumbnail; a click reports its point,
read here. On a figure of panels (`attnviz.figures.panels`) the point's trace number says which
panel's overlay was clicked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import streamlit as st

SEEN_SUFFIX = ".seen"  # state key suffix: the cells a panels chart's last event held
CHOSEN_SUFFIX = ".chosen"  # and the values its last click wrote, by state key


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
    """(row, column) of the first clicked cell of a heatmap with `marks.select_cells`, or None."""
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


def selected_panel_cells(
    selection: Mapping[str, Any] | object, cells: Sequence[int | None]
) -> list[tuple[int, int, int]]:
    """(panel, row, column) of every selected cell of a `panels` figure whose overlays are the
    traces `cells` (`attnviz.figures.panels.panel_cells`): a click on a second panel leaves the
    first panel's point selected, so an event can hold one point per panel clicked."""
    picked = []
    for point in _selected_points(selection):
        curve = _field(point, "curve_number")
        x, y = _field(point, "x"), _field(point, "y")
        known = isinstance(curve, int) and curve in cells
        if known and isinstance(x, int | float) and isinstance(y, int | float):
            picked.append((cells.index(curve), round(y), round(x)))
    return picked


def selected_panel_cell(
    selection: Mapping[str, Any] | object, cells: Sequence[int | None]
) -> tuple[int, int, int] | None:
    """(panel, row, column) of the first selected cell of a `panels` figure, or None."""
    picked = selected_panel_cells(selection, cells)
    return picked[0] if picked else None


def store_click(
    chart_key: str,
    keys: tuple[str, str],
    decode: Callable[[object], tuple[int, int] | None] = selected_cell,
) -> None:
    """A chart's on_select callback: the clicked point, decoded, into the two state `keys`."""
    picked = decode(st.session_state.get(chart_key))
    if picked is not None:
        st.session_state[keys[0]], st.session_state[keys[1]] = picked


def store_panel_click(
    chart_key: str,
    cells: Sequence[int | None],
    keys: Sequence[tuple[str, str | None] | None],
) -> None:
    """A `panels` figure's on_select callback: the clicked cell of panel p into the two state
    keys `keys[p]`, its row and its column (None: that panel's clicks, or their column, are not
    kept). Of several selected cells, the one the last event did not hold is the new click.

    An event with no new cell (a kept point clicked off, or Plotly clearing its selection as the
    page redraws) writes the last click's values again: it can reach the server with the other
    widgets' values from before the click's own rerun reached the browser (a select box still
    on the old query), which would undo the click."""
    picked = selected_panel_cells(st.session_state.get(chart_key), cells)
    seen_key, chosen_key = f"{chart_key}{SEEN_SUFFIX}", f"{chart_key}{CHOSEN_SUFFIX}"
    seen = st.session_state.get(seen_key, [])
    st.session_state[seen_key] = picked
    new = [cell for cell in picked if cell not in seen]
    chosen: dict[str, int] = dict(st.session_state.get(chosen_key, {}))
    if new:
        panel, row, column = new[0]
        kept = keys[panel]
        if kept is None:
            return
        chosen = {kept[0]: row} if kept[1] is None else {kept[0]: row, kept[1]: column}
        st.session_state[chosen_key] = chosen
    for key, value in chosen.items():
        st.session_state[key] = value
