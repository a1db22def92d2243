"""Presenter mode's larger charts: every pixel of text and of the room around it scaled by one
factor, the data and the positions on the axes as they were."""

from __future__ import annotations

import gc

import numpy as np
import plotly.graph_objects as go
import pytest

from attnviz.figures import scale
from attnviz.figures.heatmap import heatmap
from attnviz.figures.style import FONT_SIZE
from attnviz.i18n import Catalogue

WEIGHTS = np.array([[0.41, 0.2, 0.1, 0.29], [0.18, 0.37, 0.18, 0.27], [0.31, 0.31, 0.07, 0.31]])


@pytest.fixture
def fig() -> go.Figure:
    return heatmap(WEIGHTS, title="Attention weights", kind="weights", text=Catalogue(), across=3)


def test_fonts_margins_height_and_the_colour_bar_grow_by_the_factor(fig):
    big = scale.scaled(fig, 1.25)
    layout, small = big.layout, fig.layout
    assert layout.font.size == small.font.size * 1.25 == FONT_SIZE * 1.25
    assert layout.title.font.size == small.title.font.size * 1.25
    assert layout.height == small.height * 1.25
    for side in "lrtb":
        assert layout.margin[side] == pytest.approx(small.margin[side] * 1.25)
    assert layout.xaxis.tickfont.size == small.xaxis.tickfont.size * 1.25
    bar, bar_before = big.data[0].colorbar, fig.data[0].colorbar
    assert (bar.thickness, bar.xpad) == (bar_before.thickness * 1.25, bar_before.xpad * 1.25)
    assert big.data[0].textfont.size == fig.data[0].textfont.size * 1.25


def test_the_data_and_every_position_stay(fig):
    big = scale.scaled(fig, 1.25)
    np.testing.assert_array_equal(np.asarray(big.data[0].z), np.asarray(fig.data[0].z))
    np.testing.assert_array_equal(big.data[0].text, fig.data[0].text)
    assert big.data[0].hovertemplate == fig.data[0].hovertemplate
    assert big.layout.xaxis.tickvals == fig.layout.xaxis.tickvals
    assert big.layout.yaxis.autorange == fig.layout.yaxis.autorange
    assert (big.data[0].colorbar.x, big.layout.title.x) == (fig.data[0].colorbar.x, 0.0)
    # The figure given is untouched: its exports keep the normal size.
    assert fig.layout.font.size == FONT_SIZE


def test_markers_are_not_text():
    fig = go.Figure(go.Scatter(x=[0, 1], y=[0, 1], marker={"size": 9}, textfont={"size": 12}))
    big = scale.scaled(fig, 2)
    assert (big.data[0].marker.size, big.data[0].textfont.size) == (9, 24)


def test_a_figure_is_scaled_once_per_scale_and_forgotten_with_it():
    fig = heatmap(WEIGHTS, title="Attention weights", kind="weights", text=Catalogue())
    assert scale.scaled(fig, 1) is fig
    first = scale.scaled(fig, 1.25)
    assert scale.scaled(fig, 1.25) is first
    assert scale.scaled(fig, 1.5) is not first
    key = id(fig)
    assert set(scale._SCALED[key]) == {1.25, 1.5}
    del fig, first
    gc.collect()
    assert key not in scale._SCALED
