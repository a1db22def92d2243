"""The multi-head lesson's figures through their data: each heatmap holds the computation's
matrix, and the charts set two a row are sized for half the column (at d_model = 16 the
dimension labels 10-15 ran together in a chart built for the whole width)."""

from __future__ import annotations

import numpy as np
import pytest

from attnviz.figures.fit import TICK_GAP, chart_width, labels_width
from attnviz.lessons.multihead import figures
from attnviz.lessons.multihead.compute import MultiHeadChoice, compute
from tests.english import EN
from tests.plotly_data import annotation_texts, decode, figure_json, panel_traces, panel_z


@pytest.fixture(scope="module")
def view():  # type: ignore[no-untyped-def]
    return compute(MultiHeadChoice("the cat sat on the mat", 16, 4, True, False, 0))


def _fits(fig, across: float) -> bool:  # type: ignore[no-untyped-def]
    """Whether the x labels, as drawn, fit side by side (or stand) in a chart `across` a row."""
    axis = fig.layout.xaxis
    if axis.tickangle == -90:
        return True
    room = chart_width(across) - fig.layout.margin.l - fig.layout.margin.r
    labels = [str(t) for t in axis.ticktext]
    return len(labels) * (labels_width(labels, axis.tickfont.size) + TICK_GAP) <= room


def test_the_rows_figures_hold_the_computation_and_fit_two_a_row(view) -> None:  # type: ignore[no-untyped-def]
    built = figures.build_figures(view, True, EN)
    pairs = {"pe": view.pe, "input": view.x, "concat": view.result.concat}
    pairs["output"] = view.result.output
    for name, matrix in pairs.items():
        fig = built[name]
        np.testing.assert_allclose(decode(fig.to_plotly_json()["data"][0]["z"]), matrix, atol=1e-6)
        assert _fits(fig, 2), name
    concat_lines = [s for s in built["concat"].layout.shapes if s.type == "line"]
    assert sorted({round(s.x0, 1) for s in concat_lines}) == [3.5, 7.5, 11.5]  # head borders


def test_the_head_thumbnails_and_the_enlarged_head(view) -> None:  # type: ignore[no-untyped-def]
    built = figures.build_figures(view, True, EN)
    heats = [t for t in built["heads"].data if t.type == "heatmap"]
    assert len(heats) == 4
    for head, trace in enumerate(heats):
        np.testing.assert_allclose(
            decode(trace.to_plotly_json()["z"]), view.result.weights[head], atol=1e-6
        )
    enlarged = figures.head_figure(view, 2, EN)
    np.testing.assert_allclose(
        decode(enlarged.to_plotly_json()["data"][0]["z"]), view.result.weights[2], atol=1e-6
    )
    slices = figures.slices_figures(view, 1, EN).values()
    assert [decode(f.to_plotly_json()["data"][0]["z"]).shape for f in slices] == [(6, 4)] * 3


def test_charts_that_change_together_are_one_figure_of_panels(view) -> None:  # type: ignore[no-untyped-def]
    built = figures.build_figures(view, True, EN)
    page = figures.page_figures(view, True, EN)
    for chart, names in (("inputs", ("pe", "input")), ("outputs", ("concat", "output"))):
        drawn = figure_json(page[chart])
        for panel, name in enumerate(names):
            single = decode(built[name].to_plotly_json()["data"][0]["z"])
            np.testing.assert_allclose(panel_z(drawn, panel), single)
            assert built[name].layout.title.text in annotation_texts(drawn)
    both = figure_json(figures.heads_figure(page["heads"], figures.head_figure(view, 2, EN)))
    heats = [t for t in panel_traces(both, 0) if t["type"] == "heatmap"]
    assert len(heats) == 4 and "heads" in {t.get("name") for t in panel_traces(both, 0)}
    np.testing.assert_allclose(panel_z(both, 1), view.result.weights[2], atol=1e-6)
    assert "Head 2 weights" in annotation_texts(both)
    slices = figure_json(figures.slices_figure(view, 1, EN))
    assert [panel_z(slices, p).shape for p in range(3)] == [(6, 4)] * 3
