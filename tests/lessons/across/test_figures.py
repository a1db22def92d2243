"""The across-layers figures through their data: bars per token with escaped, unique labels,
grids whose click targets report (layer, head), a row's rollout layer by layer."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from attnviz.figures.fit import chart_width
from attnviz.i18n import catalogue
from attnviz.lessons.across.figures import (
    STATISTICS_A_ROW,
    row_by_layer,
    statistic_grid,
    token_bars,
)
from attnviz.rollout import attention_rollout
from tests.plotly_data import decode


def test_token_bars_stack_panels_on_one_token_axis_with_escaped_unique_labels():
    tokens = ["[CLS]", "<b>x</b>", "the", "the", "[SEP]"]
    values = torch.tensor([0.5, 0.1, 0.2, 0.1, 0.1])
    fig = token_bars(
        tokens,
        [{"rollout": values}, {"g": -values, "ig": 2 * values}],
        title="t",
        y_titles=["share", "attribution"],
        boundaries=[2.5],
    )
    assert [trace.name for trace in fig.data] == ["rollout", "g", "ig"]
    assert [trace.yaxis for trace in fig.data] == ["y", "y2", "y2"]
    np.testing.assert_allclose(decode(fig.data[2].y), 2 * values.numpy(), rtol=1e-6)
    ticks = fig.layout.xaxis2.ticktext
    assert ticks == ("[CLS]", "&lt;b&gt;x&lt;/b&gt;", "the", "the (2)", "[SEP]")
    assert set(fig.layout.xaxis.ticktext) == {""}  # only the lowest panel is labelled
    assert fig.layout.shapes[0].x0 == 2.5
    assert fig.layout.xaxis2.tickangle is None  # five short labels fit across
    with pytest.raises(ValueError, match="2 panels and 1 axis titles"):
        token_bars(tokens, [{"a": values}, {"b": values}], title="t", y_titles=["y"])


def test_token_bars_stand_their_labels_upright_when_they_do_not_fit():
    tokens = [f"token{i}" for i in range(40)]
    fig = token_bars(tokens, [{"a": torch.ones(40)}], title="t", y_titles=["y"], across=2)
    assert fig.layout.xaxis.tickangle == -90
    assert fig.layout.margin.b > 40  # room for the standing labels


def test_statistic_grid_reports_layer_and_head_and_boxes_the_selected():
    values = torch.arange(12.0).reshape(3, 4) / 12
    fig = statistic_grid(values, title="s", share=True, text=catalogue(), selected=(2, 1))
    np.testing.assert_allclose(decode(fig.data[0].z), values.numpy(), rtol=1e-6)
    cells = fig.data[-1]
    assert cells.name == "cells" and len(decode(cells.x)) == 12  # one click target a head
    assert fig.layout.yaxis.ticktext == ("0", "1", "2")
    boxed = [s for s in fig.layout.shapes if s.line.dash != "dot"]
    assert (boxed[0].x0 + boxed[0].x1) / 2 == 1 and (boxed[0].y0 + boxed[0].y1) / 2 == 2


def test_every_statistic_colours_a_high_value_alike_on_grids_at_least_300_px_wide():
    """Entropy (nats) and broadness (entropy / log T) of one head must not look opposite."""
    entropy = torch.tensor([[0.1, 2.0], [1.0, 0.5]])
    broad = entropy / math.log(8)
    grids = [
        statistic_grid(entropy, title="e", share=False, text=catalogue()),
        statistic_grid(broad, title="b", share=True, text=catalogue()),
    ]
    scales = {tuple(tuple(step) for step in fig.data[0].colorscale) for fig in grids}
    assert len(scales) == 1  # one colour scale, low to high the same way
    assert (grids[0].data[0].zmin, grids[0].data[0].zmax) == (0.0, pytest.approx(2.0))
    assert (grids[1].data[0].zmin, grids[1].data[0].zmax) == (0.0, 1.0)
    assert chart_width(STATISTICS_A_ROW) >= 300  # each grid's share of the main column


def test_row_by_layer_is_one_rows_rollout_through_each_layer():
    attn = torch.softmax(torch.randn(3, 2, 4, 4, generator=torch.Generator().manual_seed(0)), -1)
    rollout = attention_rollout(attn)
    fig = row_by_layer(rollout, 2, ["a", "b", "c", "d"], "r", catalogue())
    np.testing.assert_allclose(decode(fig.data[0].z), rollout[:, 2].numpy(), rtol=1e-6)
    assert fig.layout.yaxis.ticktext == ("layers 0–0", "layers 0–1", "layers 0–2")
