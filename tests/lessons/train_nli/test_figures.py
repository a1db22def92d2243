"""The training page's figures through their data: the curves per epoch on their two axes, and
the watched pair's alignment, each hypothesis token's softmax over the premise tokens."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from attnviz.lessons.train_nli import figures
from tests.english import EN, KO
from tests.plotly_data import figure_json


def test_curves_hold_each_epochs_numbers_on_their_axes():
    loss, train, dev = [1.1, 0.8, 0.5], [0.40, 0.61, 0.72], [None, 0.55, 0.66]
    fig = figures.curves_figure(loss, train, dev, 5, EN)
    data = figure_json(fig)["data"]
    assert [t["name"] for t in data] == ["training loss", "training accuracy", "dev accuracy"]
    assert [t["yaxis"] for t in data] == ["y", "y2", "y2"]  # loss left, accuracies right
    for trace, values in zip(data, (loss, train, dev), strict=True):
        assert trace["x"] == [1, 2, 3]  # epochs count from 1
        assert trace["y"] == values  # an epoch without a dev accuracy is a gap, not 0
    layout = fig.layout
    # The x axis spans every epoch of the job, so the curves grow into it.
    assert tuple(layout.xaxis.range) == (0.5, 5.5) and layout.xaxis.dtick == 1
    assert tuple(layout.yaxis2.range) == (0, 1) and layout.yaxis2.overlaying == "y"
    assert layout.yaxis2.side == "right"
    assert tuple(layout.yaxis.range) == (0, 1.2)  # losses under 1.2 keep one scale
    assert layout.title.text == "Loss and accuracy per epoch"
    assert (layout.xaxis.title.text, layout.yaxis.title.text, layout.yaxis2.title.text) == (
        "epoch",
        "loss",
        "accuracy",
    )


@pytest.mark.parametrize(("epochs", "dtick"), [(1, 1), (15, 1), (16, 2), (40, 2)])
def test_a_long_job_keeps_its_epoch_ticks_apart(epochs, dtick):
    fig = figures.curves_figure([0.5], [0.5], [0.5], epochs, EN)
    assert tuple(fig.layout.xaxis.range) == (0.5, epochs + 0.5)
    assert fig.layout.xaxis.dtick == dtick


def test_the_accuracy_axis_ticks_at_round_values():
    """Not 0.167 / 0.333 / 0.667 as plotly spread them over the right axis (issue 39)."""
    axis = figures.curves_figure([1.0, 0.9], [0.4, 0.5], [0.4, 0.5], 5, EN).layout.yaxis2
    assert tuple(axis.range) == (0, 1)
    assert (axis.tickmode, axis.tick0, axis.dtick) == ("linear", 0, 0.2)


def test_a_large_loss_stays_on_the_chart():
    fig = figures.curves_figure([3.0, 1.9, 1.2], [0.3, 0.4, 0.5], [0.3, 0.4, 0.5], 3, KO)
    assert fig.layout.yaxis.range[1] == pytest.approx(3.0 * 1.05)
    assert [t.name for t in fig.data] == ["학습 손실", "학습 정확도", "dev 정확도"]


def test_alignment_holds_each_hypothesis_rows_softmax_over_the_premise():
    gen = torch.Generator().manual_seed(0)
    premise, hypothesis = ["a", "dog", "runs", "a", "<b>park</b>"], ["the", "dog", "%{x}"]
    scores = torch.randn(len(hypothesis), len(premise), generator=gen)  # e_ij = F(b_i)·F(a_j)
    weights = torch.softmax(scores, dim=-1)  # (lb, la)
    fig = figures.alignment_figure(weights.tolist(), hypothesis, premise, 3, EN)
    trace = fig.data[0]
    np.testing.assert_allclose(np.asarray(trace.z, dtype=float), weights.numpy(), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(trace.z, dtype=float).sum(-1), 1.0, rtol=1e-6)
    assert (trace.zmin, trace.zmax) == (0, 1)  # weights on the fixed 0..1 scale
    layout = fig.layout
    # Hypothesis tokens down, premise tokens across (on top, as a matrix's columns); what a
    # person typed is escaped and a repeated token keeps its own column.
    assert list(layout.yaxis.ticktext) == ["the", "dog", "%&#123;x&#125;"]
    assert list(layout.xaxis.ticktext) == ["a", "dog", "runs", "a (2)", "&lt;b&gt;park&lt;/b&gt;"]
    assert layout.xaxis.side == "top" and layout.yaxis.range[0] > layout.yaxis.range[1]
    assert (layout.yaxis.title.text, layout.xaxis.title.text) == ("Hypothesis", "Premise")
    assert layout.title.text == "Alignment after epoch 3: hypothesis token → premise"
    hover = trace.customdata[1][4]
    weight = float(weights[1, 4])
    assert hover == f"Hypothesis dog<br>Premise &lt;b&gt;park&lt;/b&gt;<br>weight: {weight:.4g}"
