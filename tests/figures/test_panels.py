"""Figures of panels checked through their data: each panel's matrix, axes, marks and bar."""

from __future__ import annotations

import itertools

import numpy as np
import plotly.graph_objects as go
import pytest

from attnviz.figures import marks
from attnviz.figures import panels as kit
from tests import english as en
from tests.plotly_data import decode, figure_json


def _matrix(seed: int, n: int = 3, m: int = 4) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=(n, m))


@pytest.fixture
def sources() -> list[go.Figure]:
    return [
        marks.select(
            marks.select_cells(
                en.heatmap(
                    _matrix(0),
                    title="scores <b>",
                    kind="scores",
                    across=3,
                    col_labels=["<i>a", "b", "c", "d"],
                )
            ),
            1,
            2,
        ),
        marks.vlines(
            en.heatmap(
                _matrix(1, 4, 4), title="square", kind="scores", across=3, mask=np.tri(4, 4) > 0
            ),
            [1.5],
        ),
        marks.select_cells(
            en.heatmap(np.full((3, 2), 0.5), title="weights", kind="weights", across=3)
        ),
    ]


def _heatmaps(fig: go.Figure) -> list[dict]:
    return [trace for trace in figure_json(fig)["data"] if trace["type"] == "heatmap"]


def test_each_panel_keeps_its_matrix_on_its_own_axes(sources):
    fig = kit.panels(sources, columns=3)
    heats = _heatmaps(fig)
    for source, heat, axes in zip(sources, heats, [("x", "y"), ("x2", "y2"), ("x3", "y3")],
                                  strict=True):  # fmt: skip
        np.testing.assert_array_equal(
            decode(heat["z"]), decode(figure_json(source)["data"][0]["z"])
        )
        assert (heat["xaxis"], heat["yaxis"]) == axes
    assert len(fig.data) == sum(len(source.data) for source in sources)


def test_axes_keep_their_settings_and_sit_side_by_side(sources):
    fig = kit.panels(sources, columns=3)
    layout = fig.layout
    assert list(layout.xaxis.ticktext) == ["&lt;i&gt;a", "b", "c", "d"]  # still escaped
    assert tuple(layout.yaxis.range) == (2.5, -0.5)  # row 0 on top
    assert tuple(layout.yaxis2.range) == (3.5, -0.5)
    assert layout.xaxis.title.text == "Keys" and layout.xaxis.side == "top"
    assert layout.yaxis2.scaleanchor == "x2" and layout.xaxis2.anchor == "y2"
    assert layout.yaxis3.anchor == "x3"
    lefts = [layout.xaxis.domain, layout.xaxis2.domain, layout.xaxis3.domain]
    for left, right in itertools.pairwise(lefts):
        assert left[1] < right[0]  # the panels do not overlap
    assert lefts[0][0] >= 0 and lefts[-1][1] <= 1


def test_titles_marks_and_notes_land_on_their_panel(sources):
    fig = kit.panels(sources, columns=3, title="all")
    texts = [a.text for a in fig.layout.annotations]
    assert "scores &lt;b&gt;" in texts and "square" in texts and "weights" in texts
    assert fig.layout.title.text == "all"
    refs = [(shape.xref, shape.yref) for shape in fig.layout.shapes]
    assert refs[:2] == [("x", "y")] * 2  # the selected row's frame and cell's box
    assert ("x2", "y2 domain") in refs  # the vertical line on the square panel
    note = next(a for a in fig.layout.annotations if a.text.endswith("masked"))
    assert fig.layout.xaxis2.domain[0] < note.x <= fig.layout.xaxis2.domain[1] + 1e-9
    square = next(a for a in fig.layout.annotations if a.text == "square")
    assert fig.layout.xaxis.domain[1] < square.x < fig.layout.xaxis2.domain[0]


def test_colour_bars_stand_beside_their_panel_and_same_scales_share_one():
    same = [en.heatmap(np.eye(3) / 2, title=str(i), kind="weights", across=3) for i in range(3)]
    heats = _heatmaps(kit.panels(same))
    assert [heat.get("showscale", True) for heat in heats] == [False, False, True]
    kept = _heatmaps(kit.panels(same, share_bars=False))
    assert all(heat.get("showscale", True) for heat in kept)
    fig = kit.panels(same, share_bars=False)
    for index, heat in enumerate(kept):
        axis = fig.layout[f"xaxis{index + 1 if index else ''}"]
        assert heat["colorbar"]["x"] == pytest.approx(axis.domain[1])


def test_rows_of_panels_stack_and_heights_add_up(sources):
    fig = kit.panels(sources + sources[:1], columns=2)
    heights = [source.layout.height for source in sources]
    assert fig.layout.height == round(max(heights[:2]) + max(heights[2], heights[0]) + kit.ROW_GAP)
    assert fig.layout.yaxis3.domain[1] < fig.layout.yaxis.domain[0]  # the second row is lower
    assert fig.layout.xaxis3.domain == fig.layout.xaxis.domain  # under the first column


def test_the_overlay_of_each_panel_is_recorded(sources):
    fig = kit.panels(sources, columns=3)
    cells = kit.panel_cells(fig)
    assert len(cells) == 3 and cells[1] is None
    for curve in (cells[0], cells[2]):
        assert fig.data[curve].name == "cells"
    assert fig.layout.hoverdistance == -1
    assert kit.panel_cells(go.Figure()) == []
    spans = fig.layout.meta["traces"]
    assert spans == [[0, 2], [2, 4], [4, 6]]  # heatmap and overlay; heatmap and ×s; ...
    assert [len(source.data) for source in sources] == [b - a for a, b in spans]
    assert fig.layout.meta["titles"] == ["scores &lt;b&gt;", "square", "weights"]


def test_an_image_panel_moves_whole():
    big = en.heatmap(_matrix(2, 300, 300), title="big", kind="scores", across=2)
    fig = kit.panels([big, en.heatmap(_matrix(3), title="small", kind="scores", across=2)])
    moved = [trace for trace in fig.data if trace.xaxis == "x"]
    assert [trace.type for trace in moved] == [trace.type for trace in big.data]


def test_nothing_to_lay_out_is_an_error():
    with pytest.raises(ValueError, match="at least one figure"):
        kit.panels([])
    with pytest.raises(ValueError, match="at least one column"):
        kit.panels([go.Figure()], columns=0)


def test_columns_share_the_row_as_their_widths():
    figs = [en.heatmap(_matrix(4, 5, 8), title="wide", kind="scores", across=1.25),
            en.heatmap(_matrix(5, 5, 1), title="narrow", kind="scores", across=5)]  # fmt: skip
    fig = kit.panels(figs, widths=[4, 1])
    wide, narrow = fig.layout.xaxis.domain, fig.layout.xaxis2.domain
    assert wide[1] < narrow[0] and wide[1] - wide[0] > 3 * (narrow[1] - narrow[0])
    with pytest.raises(ValueError, match="2 column widths for 3 columns"):
        kit.panels(figs, columns=3, widths=[1, 2])


def test_a_figure_of_panels_set_as_a_panel_counts_as_its_panels(sources):
    """A row of three above a row of one (other widths): the inner panels keep their overlays,
    traces and titles, moved on by the traces before them."""
    top = kit.panels(sources, columns=3)
    below = marks.select_cells(en.heatmap(_matrix(2), title="below", kind="values"))
    fig = kit.panels([top, below], columns=1)
    meta = fig.layout.meta
    assert meta["titles"] == ["scores &lt;b&gt;", "square", "weights", "below"]
    assert meta["traces"] == [[0, 2], [2, 4], [4, 6], [6, 8]]
    cells = kit.panel_cells(fig)
    assert cells == [1, None, 5, 7] and all(fig.data[c].name == "cells" for c in (1, 5, 7))
    inner, outer = figure_json(top)["data"], figure_json(fig)["data"]
    assert [t.get("z") for t in outer[:6]] == [t.get("z") for t in inner]
    np.testing.assert_allclose(decode(outer[6]["z"]), _matrix(2))
    assert fig.layout.height == top.layout.height + kit.ROW_GAP + below.layout.height
