"""Several built figures as one figure of panels, so that a change redraws one chart, not a row.

Streamlit remounts every chart whose figure changed, and each chart carries costs of its own
beside its content's: its element and export menu on the server, a fresh plot set up and laid
out in Chromium (`benchmarks/bench_controls.py`). `panels` lays figures built by the kit
(`heatmap`, ...) out on one grid of axes, as the NLI compare step draws its three matrices:
each figure's traces move to their own x and y axes, its axes' settings, shapes and annotations
follow them (paper coordinates rescaled into the panel's plot), its title becomes the panel's
title and its colour bar stays beside it. The figure's `layout.meta` records which trace is
each panel's click overlay and which traces are each panel's, for `panel_cells` and
`attnviz.app.selection.selected_panel_cell`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import plotly.graph_objects as go

from attnviz.figures.fit import COLUMN_GAP, MAIN_WIDTH
from attnviz.figures.style import style_layout

ROW_GAP = 12  # px between two rows of panels
TITLE_SPACE = 50  # px above the panels for the figure's own title
OVERLAY_NAME = "cells"  # the click overlay's trace name (`figures.matrix.cell_overlay`)
AXIS_KEY = re.compile(r"^([xy])axis(\d*)$")
AXIS_REF = re.compile(r"^([xy])(\d*)( domain)?$")


@dataclass(frozen=True)
class Box:
    """Where a panel's plot sits, in px of the panels' paper (from its top left corner), and the
    paper's size."""

    cell_left: float
    cell_top: float
    left: float
    top: float
    width: float
    height: float
    paper_width: float
    paper_height: float

    def x(self, x: float) -> float:
        """A source figure's paper x (0..1 across its plot) in the panels' paper."""
        return (self.left + x * self.width) / self.paper_width

    def y(self, y: float) -> float:
        """A source figure's paper y (0 at its plot's bottom) in the panels' paper."""
        return 1 - (self.top + (1 - y) * self.height) / self.paper_height

    def span(self, low: float, high: float, letter: str) -> list[float]:
        """A source domain [low, high] along `letter` in the panels' paper, within 0..1."""
        pair = [self.x(low), self.x(high)] if letter == "x" else [self.y(low), self.y(high)]
        return [min(1.0, max(0.0, v)) for v in pair]


def panels(
    figures: Sequence[go.Figure],
    *,
    columns: int | None = None,
    widths: Sequence[float] | None = None,
    title: str = "",
    width: float = MAIN_WIDTH,
    gap: float = COLUMN_GAP,
    share_bars: bool = True,
) -> go.Figure:
    """`figures` as one figure, `columns` panels a row (all in one row when None), left to right
    and then down, the columns sharing the row as `widths` (equal shares when None, as
    `st.columns`); `width` px is the page's column the figure is drawn for, `gap` px between two
    panels of a row. Each panel keeps its figure's height and margins (build the figures for
    their share of the page, e.g. `heatmap(..., across=columns)`); a row is as tall as its
    tallest panel. `share_bars`: of panels side by side whose colour scales are the same, only
    the rightmost shows its colour bar.

    The result's `layout.meta` holds, per panel, the trace number of its click overlay ("cells",
    None: not selectable; `panel_cells` reads it), the [first, last + 1) trace numbers of its
    traces ("traces") and its title as its figure had it ("titles"). A figure of panels among
    `figures` (a row of panels above another row of other widths) counts as its panels there."""
    if not figures:
        raise ValueError("panels needs at least one figure")
    columns = len(figures) if columns is None else columns
    cells_x = _columns(columns, widths, width, gap)
    sources = [figure.to_plotly_json() for figure in figures]
    heights = [float(source["layout"].get("height") or 450) for source in sources]
    rows = [heights[i : i + columns] for i in range(0, len(heights), columns)]
    top = TITLE_SPACE if title else 0
    paper_height = sum(max(row) for row in rows) + ROW_GAP * (len(rows) - 1)
    layout = style_layout(title, height=round(top + paper_height), top=top)
    layout["margin"] |= {"l": 0, "r": 0, "b": 0}
    layout["annotations"], layout["shapes"], layout["images"] = [], [], []
    data: list[dict[str, Any]] = []
    spans: list[range] = []
    meta: dict[str, list[Any]] = {"cells": [], "traces": [], "titles": []}
    numbers = {"x": 0, "y": 0}
    row_top = 0.0
    for index, source in enumerate(sources):
        column = index % columns
        if column == 0 and index:
            row_top += max(rows[index // columns - 1]) + ROW_GAP
        left, cell_width = cells_x[column]
        box = _box(source["layout"], left, row_top, cell_width, heights[index], width, paper_height)
        names = _axis_names(source, numbers)
        traces = [_moved_trace(trace, names, box) for trace in source["data"]]
        _record(meta, source, traces, len(data))
        spans.append(range(len(data), len(data) + len(traces)))
        data.extend(traces)
        _move_layout(source["layout"], names, box, layout)
    if share_bars:
        _share_bars(data, spans, columns)
    layout["meta"] = meta
    return _figure(data, layout)


def _figure(data: list[dict[str, Any]], layout: dict[str, Any]) -> go.Figure:
    """The figure of panels, its empty layout lists left out."""
    for part in ("annotations", "shapes", "images"):
        if not layout[part]:
            del layout[part]
    # Every trace and axis comes from a figure Plotly has checked once, as its builder made
    # it; checking them all again took as long as building the heatmaps.
    return go.Figure(data=data, layout=layout, _validate=False)


def _record(meta: dict[str, list[Any]], source: dict[str, Any], traces: list[Any], at: int) -> None:
    """A panel's click overlay, traces and title into `meta`, its traces starting at trace `at`;
    a figure of panels set as a panel gives its own panels, each recorded."""
    inner = source["layout"].get("meta")
    if isinstance(inner, dict) and "traces" in inner:  # a figure of panels: its panels, moved on
        meta["cells"] += [None if cell is None else at + cell for cell in inner["cells"]]
        meta["traces"] += [[at + first, at + stop] for first, stop in inner["traces"]]
        meta["titles"] += list(inner["titles"])
        return
    overlay = [i for i, trace in enumerate(traces) if trace.get("name") == OVERLAY_NAME]
    meta["cells"].append(at + overlay[-1] if overlay else None)
    meta["traces"].append([at, at + len(traces)])
    meta["titles"].append(source["layout"].get("title", {}).get("text", ""))


def _columns(
    columns: int, widths: Sequence[float] | None, width: float, gap: float
) -> list[tuple[float, float]]:
    """The px left edge and width of each of `columns` columns sharing `width` as `widths`."""
    if columns < 1:
        raise ValueError(f"panels needs at least one column, got {columns}")
    shares = [1.0] * columns if widths is None else [float(w) for w in widths]
    if len(shares) != columns or min(shares) <= 0:
        raise ValueError(f"{len(shares)} column widths for {columns} columns: give one each, > 0")
    room = width - gap * (columns - 1)
    lefts, left = [], 0.0
    for share in shares:
        lefts.append((left, room * share / sum(shares)))
        left += room * share / sum(shares) + gap
    return lefts


def panel_cells(figure: go.Figure) -> list[int | None]:
    """Per panel of a `panels` figure, the trace number of its click overlay (None: none)."""
    meta = figure.layout.meta
    return list(meta["cells"]) if isinstance(meta, dict) and "cells" in meta else []


def _box(
    layout: dict[str, Any],
    left: float,
    top: float,
    cell_width: float,
    height: float,
    paper_width: float,
    paper_height: float,
) -> Box:
    """The plot of a figure with `layout`, set in the cell at (`left`, `top`) px."""
    margin = layout.get("margin", {})
    m_left, m_right = float(margin.get("l", 80)), float(margin.get("r", 80))
    m_top, m_bottom = float(margin.get("t", 100)), float(margin.get("b", 80))
    return Box(
        cell_left=left,
        cell_top=top,
        left=left + m_left,
        top=top + m_top,
        width=max(1.0, cell_width - m_left - m_right),
        height=max(1.0, height - m_top - m_bottom),
        paper_width=paper_width,
        paper_height=paper_height,
    )


def _axis_names(source: dict[str, Any], numbers: dict[str, int]) -> dict[str, str]:
    """A new axis id ("x3", "y3") for each axis id of `source` ("x", "y2"), numbered on from
    `numbers` (updated)."""
    found = set()
    for key in source["layout"]:
        match = AXIS_KEY.match(key)
        if match:
            found.add(match[1] + match[2])
    for trace in source["data"]:
        found.add(trace.get("xaxis", "x"))
        found.add(trace.get("yaxis", "y"))
    names = {}
    for old in sorted(found, key=lambda name: (name[0], int(name[1:] or 1))):
        letter = old[0]
        numbers[letter] += 1
        count = numbers[letter]
        names[old] = letter if count == 1 else f"{letter}{count}"
    return names


def _axis_key(name: str) -> str:
    """The layout key of axis id `name`: "x" -> "xaxis", "y3" -> "yaxis3"."""
    return f"{name[0]}axis{name[1:]}"


def _moved_trace(trace: dict[str, Any], names: dict[str, str], box: Box) -> dict[str, Any]:
    """`trace` on its panel's axes, its colour bar beside the panel's plot."""
    moved = dict(trace)
    moved["xaxis"] = names[trace.get("xaxis", "x")]
    moved["yaxis"] = names[trace.get("yaxis", "y")]
    bar = trace.get("colorbar")
    if bar is not None and trace.get("showscale", True) is not False:
        moved["colorbar"] = _moved_bar(bar, box)
    return moved


def _moved_bar(bar: dict[str, Any], box: Box) -> dict[str, Any]:
    """A colour bar's position and length in the panels' paper (a length in px stays)."""
    moved = dict(bar)
    moved["x"] = box.x(float(bar.get("x", 1.02)))
    moved["y"] = box.y(float(bar.get("y", 0.5)))
    if bar.get("lenmode", "fraction") == "fraction":
        moved["len"] = float(bar.get("len", 1.0)) * box.height / box.paper_height
    return moved


def _move_layout(
    source: dict[str, Any], names: dict[str, str], box: Box, layout: dict[str, Any]
) -> None:
    """A figure's axes, shapes, annotations, images, title and hover distance into `layout`."""
    for key, axis in source.items():
        match = AXIS_KEY.match(key)
        if match:
            name = names[match[1] + match[2]]
            layout[_axis_key(name)] = _moved_axis(axis, match[1], names, box)
    for name in names.values():  # an axis a trace uses but the layout never set
        layout.setdefault(_axis_key(name), _moved_axis({}, name[0], names, box))
    for part in ("shapes", "annotations", "images"):
        layout[part].extend(_moved_ref(item, names, box) for item in source.get(part, ()))
    title = source.get("title", {}).get("text")
    if title:
        layout["annotations"].append(_panel_title(title, source["title"], box))
    if "hoverdistance" in source:
        layout["hoverdistance"] = source["hoverdistance"]


def _moved_axis(
    axis: dict[str, Any], letter: str, names: dict[str, str], box: Box
) -> dict[str, Any]:
    """An axis's settings on its panel: its domain inside the panel's plot, its anchor and the
    axes it is tied to renamed."""
    moved = dict(axis)
    low, high = axis.get("domain", [0.0, 1.0])
    moved["domain"] = box.span(low, high, letter)
    other = "y" if letter == "x" else "x"
    anchor = axis.get("anchor", other)
    moved["anchor"] = names.get(anchor, anchor)
    for key in ("scaleanchor", "matches", "overlaying"):
        if isinstance(axis.get(key), str) and axis[key] in names:
            moved[key] = names[axis[key]]
    return moved


def _moved_ref(item: dict[str, Any], names: dict[str, str], box: Box) -> dict[str, Any]:
    """A shape, annotation or image on its panel: axis refs renamed ("x2 domain" too), paper
    coordinates rescaled into the panel's plot."""
    moved = dict(item)
    for letter in ("x", "y"):
        ref = item.get(f"{letter}ref", letter)
        if ref == "paper":
            place = box.x if letter == "x" else box.y
            for key in (letter, f"{letter}0", f"{letter}1"):
                if isinstance(item.get(key), int | float):
                    moved[key] = place(float(item[key]))
            if "sizex" in item and letter == "x":
                moved["sizex"] = item["sizex"] * box.width / box.paper_width
            if "sizey" in item and letter == "y":
                moved["sizey"] = item["sizey"] * box.height / box.paper_height
            continue
        match = AXIS_REF.match(str(ref))
        if match:
            moved[f"{letter}ref"] = names.get(match[1] + match[2], ref) + (match[3] or "")
    return moved


def _panel_title(text: str, title: dict[str, Any], box: Box) -> dict[str, Any]:
    """A figure's title as an annotation at its panel's top left corner (the title was drawn
    at the top of the figure, above its margin)."""
    return {
        "text": text,  # escaped by the figure's builder
        "xref": "paper",
        "yref": "paper",
        "x": box.cell_left / box.paper_width,
        "y": 1 - box.cell_top / box.paper_height,
        "xanchor": "left",
        "yanchor": "top",
        "yshift": -float(title.get("pad", {}).get("t", 0)),
        "showarrow": False,
        "align": "left",
        "font": title.get("font", {}),
    }


def _scale(data: list[dict[str, Any]], span: range) -> tuple[Any, ...] | None:
    """The colour scale a panel's bar shows (None: no bar)."""
    for i in span:
        trace = data[i]
        if "colorbar" in trace and trace.get("showscale", True) is not False:
            keys = ("colorscale", "zmin", "zmax", "zmid")
            return tuple(str(trace.get(key)) for key in keys)
    return None


def _share_bars(data: list[dict[str, Any]], spans: list[range], columns: int) -> None:
    """Hide the bar of each panel whose right neighbour in its row shows the same scale."""
    for index, span in enumerate(spans[:-1]):
        last_in_row = index % columns == columns - 1
        scale = _scale(data, span)
        if last_in_row or scale is None or scale != _scale(data, spans[index + 1]):
            continue
        for i in span:
            if "colorbar" in data[i]:
                data[i]["showscale"] = False
