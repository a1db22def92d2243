"""The patching lesson's figures through their data: the heads grid's cells are the tensor it
is given on a diverging scale about 0 with 1 marked, the sites grid's columns are the tokens,
the tokens figure boxes the differing positions."""

from __future__ import annotations

import numpy as np
import torch

from attnviz.lessons.patching import figures
from tests.english import EN
from tests.plotly_data import decode


def test_the_heads_grid_is_the_tensor_on_a_scale_centred_on_0_with_1_marked() -> None:
    heads = torch.tensor([[0.1, 0.6, -0.2], [0.0, 0.05, 0.3]])
    fig = figures.heads_figure(heads, 1.0, None, EN)
    trace = fig.data[0]
    np.testing.assert_allclose(decode(trace.z) if isinstance(trace.z, dict) else trace.z, heads)
    assert (trace.zmid, trace.zmin, trace.zmax) == (0.0, -1.0, 1.0)
    assert list(trace.colorbar.tickvals) == [-1.0, 0.0, 1.0]
    wide = figures.heads_figure(heads * 3, 1.8, (1, 2), EN)
    assert list(wide.data[0].colorbar.tickvals) == [-1.8, -1.0, 0.0, 1.0, 1.8]
    # An end within 5% of 1 is not ticked beside it: both read "1" (the screenshot drew two).
    near = figures.heads_figure(heads, 1.02, None, EN).data[0].colorbar
    assert list(near.tickvals) == [-1.0, 0.0, 1.0] and list(near.ticktext) == ["-1", "0", "1"]


def test_the_sites_grid_names_its_positions_by_the_clean_tokens() -> None:
    grid = torch.zeros(3, 4)
    grid[1, 2] = 0.8
    fig = figures.site_figure(grid, ["When", "␣Mary", "␣and", "␣John"], "residual", 1.0, EN)
    assert list(fig.layout.xaxis.ticktext) == ["When", "␣Mary", "␣and", "␣John"]
    np.testing.assert_allclose(fig.data[0].z, grid)
    assert fig.layout.xaxis.title.text == "position" and fig.layout.yaxis.title.text == "layer"


def test_the_tokens_figure_boxes_the_differing_positions() -> None:
    fig = figures.tokens_figure(["a", "b", "c"], ["a", "x"], [1, 2], EN)
    boxes = [s for s in fig.layout.shapes if s.type == "rect"]
    assert sorted((s.x0 + 0.5, s.y0 + 0.5) for s in boxes) == [(1, 0), (1, 1), (2, 0), (2, 1)]
    assert list(fig.data[0].text[0]) == ["a", "b", "c"]
    assert list(fig.data[0].text[1])[:2] == ["a", "x"]
