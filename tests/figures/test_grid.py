"""One layer's heads as thumbnails, a few a row (attnviz.figures.grid.heads_grid)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from attnviz.figures import grid


def suffix(index: int) -> str:
    return "" if index == 1 else str(index)


def test_heads_wrap_into_rows_each_under_its_number():
    weights = torch.rand(6, 5, 5).softmax(-1)
    fig = grid.heads_grid(weights, title="t", head_label="head", per_row=4)
    assert len(fig.data) == 6
    for head in range(6):
        np.testing.assert_allclose(np.asarray(fig.data[head].z), weights[head], rtol=1e-6)
    height = 2 * (grid.HEAD_PIXELS + grid.HEAD_TITLE_PIXELS)
    assert fig.layout.height == height + 70
    x = [fig.layout[f"xaxis{suffix(h + 1)}"].domain for h in range(6)]
    y = [fig.layout[f"yaxis{suffix(h + 1)}"].domain for h in range(6)]
    assert [d[0] for d in x[4:]] == [d[0] for d in x[:2]]  # the second row starts on the left
    assert y[0] == y[3] and y[4] == y[5]
    # Each thumbnail is HEAD_PIXELS tall, under a strip of HEAD_TITLE_PIXELS for its number.
    assert (y[0][1] - y[0][0]) * height == pytest.approx(grid.HEAD_PIXELS)
    assert (1 - y[0][1]) * height == pytest.approx(grid.HEAD_TITLE_PIXELS)
    assert y[4][0] == pytest.approx(0.0, abs=1e-12)
    titles = fig.layout.annotations
    assert [a.text for a in titles] == [f"head {h}" for h in range(6)]
    assert titles[5].y == y[5][1] and titles[5].x == pytest.approx(sum(x[5]) / 2)
    assert fig.layout.yaxis.autorange == "reversed"


def test_masked_cells_are_gaps_and_markers_report_the_head():
    weights = torch.rand(2, 3, 3).softmax(-1)
    mask = torch.ones(3, 3, dtype=torch.bool).tril()
    fig = grid.heads_grid(weights, title="t", head_label="<b>h", mask=mask, selectable=True)
    heat, markers = fig.data[:2], fig.data[2:]
    z = np.asarray(heat[1].z, dtype=float)
    np.testing.assert_array_equal(np.isnan(z), ~mask.numpy())
    np.testing.assert_allclose(z[mask.numpy()], weights[1][mask].numpy(), rtol=1e-6)
    assert [list(m.customdata[0]) for m in markers] == [[0, 0], [0, 1]]
    assert markers[1].hovertemplate == "&lt;b&gt;h 1<extra></extra>"  # no layer, escaped
    assert (markers[1].xaxis, markers[1].yaxis) == ("x2", "y2")
    assert heat[0].hovertemplate.startswith("&lt;b&gt;h 0<br>")


@pytest.mark.parametrize("shape", [(4, 4), (1, 2, 49, 49), (2, 49, 3)])
def test_the_heads_grid_takes_small_heads_of_one_layer_only(shape):
    with pytest.raises(ValueError, match="heads, rows, columns"):
        grid.heads_grid(torch.rand(shape), title="t", head_label="head")
