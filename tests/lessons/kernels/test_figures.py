"""The kernel-regression lesson's figures, through their data."""

from __future__ import annotations

import json

import numpy as np
import torch

from attnviz import kernels as kr
from attnviz.figures.matrix import cell_number
from attnviz.lessons.kernels import figures
from tests.english import EN
from tests.plotly_data import decode
from tests.test_kernels import data


def test_fit_figure_breaks_the_curve_where_there_is_no_prediction():
    d = data()
    y_hat, has = kr.predict(d.x_test, d.x_train, d.y_train, "boxcar", 0.05)
    assert (~has).any()
    curve = figures.Curve("boxcar", y_hat, has)
    fig = figures.fit_figure(
        d.x_train, d.y_train, d.x_test, d.y_true, [curve], title="t", text=EN, bandwidth=0.05
    )
    spec = json.loads(fig.to_json())
    line = spec["data"][2]
    assert [v is None for v in line["y"]] == (~has).tolist()
    np.testing.assert_allclose(
        [v for v in line["y"] if v is not None], y_hat[has].numpy(), rtol=1e-6
    )
    assert line["connectgaps"] is False
    gaps = spec["data"][3]
    np.testing.assert_allclose(decode(gaps["x"]), d.x_test[~has].numpy(), rtol=1e-6)
    assert "no prediction" in gaps["customdata"][0]
    np.testing.assert_allclose(decode(spec["data"][0]["y"]), d.y_train.numpy())


def test_weights_heatmap_shows_the_weights_with_thinned_labels():
    d = data()
    weights = kr.kernel_weights(d.x_test, d.x_train, "gaussian", 0.25)
    assert float(weights.max()) < 0.5  # the case this test is about
    fig = figures.weights_heatmap(weights, d.x_test, d.x_train, "W", EN)
    np.testing.assert_allclose(np.asarray(fig.data[0].z), weights.numpy(), rtol=1e-6)
    top = float(weights.max())
    if top < 0.5:  # a faint band: the scale runs to the weights' maximum, and says so
        assert (fig.data[0].zmin, fig.data[0].zmax) == (0, top)
        assert fig.data[0].colorbar.title.text == f"0 to max {cell_number(top)}"
    else:
        assert (fig.data[0].zmin, fig.data[0].zmax) == (0, 1)
    ticks = fig.layout.yaxis.ticktext
    assert 5 <= len(ticks) <= figures.TICK_LIMIT
    assert ticks[0] == "x=0.00" and fig.layout.yaxis.range[0] > fig.layout.yaxis.range[1]
    assert "test point x=0.00" in fig.data[0].customdata[0][0]


def test_loss_figure_marks_the_fitted_bandwidths():
    grid = torch.logspace(-2, 0, 5)
    fig = figures.loss_figure(
        grid,
        torch.arange(5.0),
        torch.arange(5.0) + 1,
        [(0.01, 0.0), (0.1, 3.0)],
        title="L",
        text=EN,
    )
    assert fig.layout.xaxis.type == "log"
    np.testing.assert_allclose(decode(json.loads(fig.to_json())["data"][2]["x"]), [0.01, 0.1])
