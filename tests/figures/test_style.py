"""The margin estimates that let Chromium draw each chart once: label widths, the widest
automatic tick label of a range, and the colour bar's room. The browser half of this is
tests/e2e/test_margins_browser.py (no chart of any page is drawn a second time)."""

from __future__ import annotations

import numpy as np
import pytest

from attnviz.figures.heatmap import heatmap
from attnviz.figures.style import (
    COLORBAR_X,
    FONT_SIZE,
    MAX_TICK_CHARS,
    Y_TITLE_SPACE,
    colorbar,
    labels_width,
    text_width,
    tick_chars,
)
from attnviz.i18n import catalogue


@pytest.mark.parametrize(
    ("low", "high", "widest"),
    [
        (0.0, 1.0, "0.05"),  # a weights scale: the finest step Plotly takes is 0.05
        (-0.5, 0.5, "-0.05"),
        (-3.0, 3.0, "-3.5"),
        (-300.0, 300.0, "-300"),
        (0.0, 1e-3, "0.00005"),
        (0.0, 12.0, "12"),
    ],
)
def test_tick_chars_is_the_widest_label_of_the_finest_step(low, high, widest):
    assert tick_chars(low, high) == len(widest)


@pytest.mark.parametrize(("low", "high"), [(-1e30, 1e30), (0.0, 1e-12)])
def test_tick_chars_stops_where_plotly_writes_an_exponent(low, high):
    assert tick_chars(low, high) == MAX_TICK_CHARS  # "-1e+30", "5e-14" fit in it


def test_tick_chars_of_an_infinite_range_is_a_wide_guess():
    assert tick_chars(float("-inf"), 1.0) == 6


def test_text_width_counts_wide_characters_as_a_full_em():
    assert text_width("고양이") == pytest.approx(3 * FONT_SIZE)
    assert text_width("mmmm") > text_width("aaaa") > text_width("iiii")
    assert labels_width([]) == 0.0
    assert labels_width(["a", "premise", "to"]) == text_width("premise")


def test_a_heatmap_leaves_room_for_its_row_labels_and_colour_bar():
    z = np.linspace(-2.0, 2.0, 12).reshape(3, 4)
    fig = heatmap(
        z, title="T", kind="scores", text=catalogue(), row_labels=["a", "extraordinarily", "c"]
    )
    settings, right = colorbar(-2.0, 2.0)
    assert fig.layout.margin.l == int(np.ceil(Y_TITLE_SPACE + text_width("extraordinarily")))
    assert fig.layout.margin.r == right
    assert fig.data[0].colorbar.x == COLORBAR_X and fig.data[0].colorbar.xanchor == "left"
    # Two pads of 14, a bar of 30, "-1.5" (4 characters of 9.3 px) and 8 px to spare.
    assert (settings["xpad"], settings["thickness"], right) == (14, 30, 104)
    thin, thin_right = colorbar(-2.0, 2.0, thin=True)
    assert (thin["xpad"], thin["thickness"], thin_right) == (4, 12, 66)


def test_a_heatmap_without_a_colour_bar_keeps_a_narrow_right_margin():
    fig = heatmap(np.eye(3), title="T", kind="weights", text=catalogue(), showscale=False)
    assert fig.layout.margin.r == 10


def test_a_heatmap_of_many_numbered_rows_makes_room_for_plotly_numbers():
    fig = heatmap(np.zeros((100, 100)), title="T", kind="values", text=catalogue())
    assert fig.layout.margin.l == int(np.ceil(Y_TITLE_SPACE + text_width("99")))
