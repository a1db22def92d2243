"""Clicks on a figure of panels: (panel, row, column), kept under each panel's keys."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
import streamlit as st

from attnviz.app import selection
from attnviz.figures import marks
from attnviz.figures.panels import panel_cells, panels
from tests import english as en


@pytest.fixture
def cells() -> list[int | None]:
    figures = [
        marks.select_cells(en.heatmap(np.eye(3), title="a", kind="weights", across=3)),
        en.heatmap(np.eye(3), title="b", kind="weights", across=3),
        marks.select_cells(en.heatmap(np.ones((2, 4)), title="c", kind="weights", across=3)),
    ]
    return panel_cells(panels(figures))


def _click(curve: int, x: float, y: float) -> dict:
    return {"selection": {"points": [{"curve_number": curve, "x": x, "y": y}]}}


def test_a_click_names_its_panel_row_and_column(cells):
    assert selection.selected_panel_cell(_click(cells[0], 2, 1), cells) == (0, 1, 2)
    assert selection.selected_panel_cell(_click(cells[2], 3.0000001, 0.9999), cells) == (2, 1, 3)
    point = {"curve_number": cells[2], "x": 0, "y": 0}
    state = SimpleNamespace(selection=SimpleNamespace(points=[point]))
    assert selection.selected_panel_cell(state, cells) == (2, 0, 0)


@pytest.mark.parametrize(
    "state",
    [None, {}, {"selection": {"points": []}}, {"selection": {"points": [{"x": 1, "y": 1}]}}],
)
def test_no_overlay_point_is_no_cell(cells, state):
    assert selection.selected_panel_cell(state, cells) is None


def test_a_point_of_another_trace_is_not_a_cell(cells):
    assert selection.selected_panel_cell(_click(0, 1, 1), cells) is None  # panel a's heatmap


def test_store_panel_click_keeps_the_cell_under_its_panels_keys(cells, monkeypatch):
    state: dict = {"chart": _click(cells[2], 3, 1)}
    monkeypatch.setattr(st, "session_state", state)
    keys = [("a_row", "a_col"), None, ("c_row", "c_col")]
    selection.store_panel_click("chart", cells, keys)
    assert (state["c_row"], state["c_col"]) == (1, 3) and "a_row" not in state
    state["chart"] = _click(cells[0], 2, 2)
    selection.store_panel_click("chart", cells, keys)
    assert (state["a_row"], state["a_col"]) == (2, 2)
    state["chart"] = {"selection": {"points": []}}
    selection.store_panel_click("chart", cells, [None, None, None])
    assert (state["a_row"], state["a_col"]) == (2, 2)


def test_a_click_on_a_second_panel_wins_over_the_first_panels_kept_point(cells, monkeypatch):
    """Plotly keeps the first panel's point selected when a second panel is clicked: the event
    holds both, and the new one is the click."""
    state: dict = {"chart": _click(cells[0], 2, 1)}
    monkeypatch.setattr(st, "session_state", state)
    keys = [("a_row", "a_col"), None, ("c_row", "c_col")]
    selection.store_panel_click("chart", cells, keys)
    assert (state["a_row"], state["a_col"]) == (1, 2)
    both = {"curve_number": cells[2], "x": 3, "y": 0}
    state["chart"]["selection"]["points"].append(both)
    selection.store_panel_click("chart", cells, keys)
    assert (state["c_row"], state["c_col"]) == (0, 3)
    state["chart"]["selection"]["points"].insert(0, {"curve_number": cells[0], "x": 0, "y": 2})
    selection.store_panel_click("chart", cells, keys)
    assert (state["a_row"], state["a_col"]) == (2, 0)


def test_a_cleared_selection_puts_back_what_a_stale_widget_undid(cells, monkeypatch):
    """Plotly can clear a chart's selection as the page redraws after a click; that event can
    carry a select box's value from before the click's rerun reached the browser, and Streamlit
    writes it into the state first. The click's own values are written again (seen in Chromium:
    the Additive page's features went back to the first panel's query)."""
    state: dict = {"chart": _click(cells[0], 2, 1)}
    monkeypatch.setattr(st, "session_state", state)
    keys = [("a_row", None), None, ("a_row", None)]
    selection.store_panel_click("chart", cells, keys)
    state["chart"]["selection"]["points"].append({"curve_number": cells[2], "x": 3, "y": 0})
    selection.store_panel_click("chart", cells, keys)
    assert state["a_row"] == 0
    state["a_row"] = 1  # the select box's stale value, applied before the callback
    state["chart"]["selection"]["points"].clear()
    selection.store_panel_click("chart", cells, keys)
    assert state["a_row"] == 0


def test_a_kept_point_clicked_off_leaves_the_choice_as_it_was(cells, monkeypatch):
    """Clicking a kept point again deselects it: the event holds only the other panel's point,
    which is not new, so nothing changes (the first panel's cell was taken before)."""
    state: dict = {"chart": _click(cells[0], 2, 1)}
    monkeypatch.setattr(st, "session_state", state)
    keys = [("a_row", "a_col"), None, ("c_row", "c_col")]
    selection.store_panel_click("chart", cells, keys)
    state["chart"]["selection"]["points"].append({"curve_number": cells[2], "x": 3, "y": 0})
    selection.store_panel_click("chart", cells, keys)
    assert (state["c_row"], state["c_col"]) == (0, 3)
    state["a_row"] = 4  # chosen since by a widget
    del state["chart"]["selection"]["points"][1]  # the third panel's point clicked off
    selection.store_panel_click("chart", cells, keys)
    assert (state["a_row"], state["c_row"]) == (4, 0)
