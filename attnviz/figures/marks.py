"""Marks on a heatmap, each added by a small function on the figure `heatmap` returns, the way
Plotly's own `add_shape` composes: click targets on the cells, the selected row and cell, a
framed row, boxed cells, vertical lines.

    fig = heatmap(weights, title=..., kind="weights", text=text)
    select_cells(fig)
    select(fig, query, key)

A mark reads the matrix's size from the figure's axes (`heatmap` fixes each to its cells,
-0.5 to the last index + 0.5). `axes` names the axes of one panel of a figure made of several
("2" for x2 and y2); the default is the figure's first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go

from attnviz.figures.labels import escape_label
from attnviz.figures.matrix import SELECT_CELL_LIMIT, cell_overlay

FRAME_COLOR = "#d62728"  # a framed row (the chosen sequence of a batch), boxed cells
SELECTED_COLOR = "#000000"  # the selected cell, inside its row's dotted frame


def matrix_size(fig: go.Figure, axes: str = "") -> tuple[int, int]:
    """(rows, columns) of the heatmap on the `axes` of `fig`, from its axes' fixed ranges."""
    layout = fig.layout
    x_range = layout[f"xaxis{axes}"].range
    y_range = layout[f"yaxis{axes}"].range
    return round(y_range[0] + 0.5), round(x_range[1] + 0.5)


def select_cells(fig: go.Figure) -> go.Figure:
    """Click targets on the cells: the "cells" overlay (last in `fig.data`), one invisible
    point a cell, which `attnviz.app.selection.selected_cell` reads; up to SELECT_CELL_LIMIT
    cells (beyond, a page picks its query elsewhere). `heatmap` keeps half its hover budget
    for matrices this small: the overlay repeats the hover text."""
    n, m = matrix_size(fig)
    if n * m <= SELECT_CELL_LIMIT:
        fig.add_trace(cell_overlay(fig.data[0], n, m))
        fig.layout.hoverdistance = -1  # no cut-off: a click on a large cell still counts
    return fig


def select(fig: go.Figure, row: int, col: int | None = None, *, axes: str = "") -> go.Figure:
    """The selection a page shares: row `row` framed with a dotted line and cell (row, `col`)
    boxed (`col` None: the row only); nothing for a row or column outside the matrix."""
    n, m = matrix_size(fig, axes)
    if not 0 <= row < n:
        return fig
    shapes = [row_frame(row, m, dash="dot", axes=axes)]
    if col is not None and 0 <= col < m:
        shapes.append(cell_box(row, col, color=SELECTED_COLOR, axes=axes))
    return add_shapes(fig, shapes)


def frame_row(fig: go.Figure, row: int, *, axes: str = "") -> go.Figure:
    """Row `row` framed with a solid line (the chosen sequence of a batch)."""
    return add_shapes(fig, [row_frame(row, matrix_size(fig, axes)[1], axes=axes)])


def mark_cells(fig: go.Figure, cells: Sequence[tuple[int, int]], *, axes: str = "") -> go.Figure:
    """Each (row, column) of `cells` boxed; `boxed_note` says what the boxes mean, as one of
    the heatmap's `notes`."""
    return add_shapes(fig, [cell_box(row, col, axes=axes) for row, col in cells])


def vlines(fig: go.Figure, xs: Sequence[float], *, axes: str = "") -> go.Figure:
    """A vertical line at each column position of `xs` (2.5: between columns 2 and 3)."""
    line = {"type": "line", "xref": f"x{axes}", "yref": f"y{axes} domain", "y0": 0, "y1": 1}
    black = {"color": "black", "width": 2}
    return add_shapes(fig, [{**line, "x0": x, "x1": x, "line": black} for x in xs])


def add_shapes(fig: go.Figure, shapes: Sequence[dict[str, Any]]) -> go.Figure:
    """`shapes` after the figure's own, in one assignment: `add_shape` one at a time costs
    many times more for a row of boxes."""
    if shapes:
        fig.layout.shapes = [*fig.layout.shapes, *shapes]
    return fig


def boxed_note(meaning: str) -> str:
    """A line of a heatmap's `notes` saying what the boxes of `mark_cells` mean."""
    return f'<span style="color:{FRAME_COLOR}">□</span> = {escape_label(meaning)}'


def row_frame(row: int, m: int, dash: str = "solid", axes: str = "") -> dict[str, Any]:
    """A frame around row `row` of a matrix of `m` columns (a shape in data coordinates)."""
    return _on(axes, _rect(-0.5, m - 0.5, row, {"color": FRAME_COLOR, "width": 3, "dash": dash}))


def cell_box(row: int, col: int, color: str = FRAME_COLOR, axes: str = "") -> dict[str, Any]:
    """A box around cell (row, col) (a shape in data coordinates)."""
    return _on(axes, _rect(col - 0.5, col + 0.5, row, {"color": color, "width": 3}))


def _rect(x0: float, x1: float, row: int, line: dict[str, Any]) -> dict[str, Any]:
    return {"type": "rect", "x0": x0, "x1": x1, "y0": row - 0.5, "y1": row + 0.5, "line": line}


def _on(axes: str, shape: dict[str, Any]) -> dict[str, Any]:
    """`shape` on the axes named by `axes` (the first axes, Plotly's default, say nothing)."""
    return {**shape, "xref": f"x{axes}", "yref": f"y{axes}"} if axes else shape
