"""Nadaraya-Watson kernel regression against its formulas, softmax attention and by-hand loops."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from torch.testing import assert_close

from attnviz import kernels as kr
from attnviz.attention import attend


def by_hand(u: float, kernel: str) -> float:
    """K(u) from the textbook definitions, one number at a time."""
    return {
        "gaussian": math.exp(-(u**2) / 2),
        "boxcar": 1.0 if abs(u) <= 1 else 0.0,
        "constant": 1.0,
        "epanechnikov": max(1 - u**2, 0.0),
    }[kernel]


def weights_by_hand(xq: list[float], xt: list[float], kernel: str, h: float) -> np.ndarray:
    rows = []
    for x in xq:
        k = [by_hand((x - xi) / h, kernel) for xi in xt]
        total = sum(k)
        rows.append([v / total if total > 0 else 0.0 for v in k])
    return np.array(rows)


def data() -> kr.KernelData:
    return kr.make_data(50, 0, 0.5)


@pytest.mark.parametrize("kernel", kr.KERNELS)
@pytest.mark.parametrize("h", [0.15, 0.5, 2.0])
def test_each_kernel_matches_its_formula(kernel, h):
    d = data()
    got = kr.kernel_weights(d.x_test, d.x_train, kernel, h)
    expected = weights_by_hand(d.x_test.tolist(), d.x_train.tolist(), kernel, h)
    assert got.shape == (50, 50)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-4, atol=1e-6)
    y_hat, has = kr.predict(d.x_test, d.x_train, d.y_train, kernel, h)
    np.testing.assert_allclose(y_hat.numpy(), expected @ d.y_train.numpy(), rtol=1e-4, atol=1e-5)
    assert_close(has, torch.tensor(expected.sum(1) > 0))


@pytest.mark.parametrize("kernel", kr.KERNELS)
def test_rows_sum_to_one_where_a_neighbour_exists(kernel):
    d = data()
    weights = kr.kernel_weights(d.x_test, d.x_train, kernel, 0.08)
    _, has = kr.predict(d.x_test, d.x_train, d.y_train, kernel, 0.08)
    assert not torch.isnan(weights).any()
    assert_close(weights.sum(1)[has], torch.ones(int(has.sum())))
    assert (weights[~has] == 0).all()
    if kernel in ("gaussian", "constant"):
        assert has.all()  # softmax and a constant never leave a row empty


def test_boxcar_without_a_neighbour_gives_a_zero_row_and_no_prediction():
    x_train = torch.tensor([0.0, 1.0, 4.0])
    y_train = torch.tensor([1.0, 3.0, 5.0])
    x_query = torch.tensor([0.5, 2.5, 4.2])
    weights = kr.kernel_weights(x_query, x_train, "boxcar", 0.6)
    assert_close(weights, torch.tensor([[0.5, 0.5, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0]]))
    y_hat, has = kr.predict(x_query, x_train, y_train, "boxcar", 0.6)
    assert has.tolist() == [True, False, True]
    assert torch.isfinite(y_hat).all()
    assert_close(y_hat[has], torch.tensor([2.0, 5.0]))


def test_constant_kernel_predicts_the_mean_everywhere():
    d = data()
    y_hat, has = kr.predict(d.x_test, d.x_train, d.y_train, "constant", 0.3)
    assert_close(y_hat, torch.full((50,), float(d.y_train.mean())))
    assert has.all()


def test_gaussian_kernel_is_softmax_attention():
    d = data()
    sigma = 0.37
    scores = -((d.x_test[:, None] - d.x_train[None, :]) ** 2) / (2 * sigma**2)  # (q, n)
    by_hand_softmax = scores.exp() / scores.exp().sum(dim=-1, keepdim=True)
    got = kr.kernel_weights(d.x_test, d.x_train, "gaussian", sigma)
    assert_close(got, by_hand_softmax, rtol=1e-5, atol=1e-6)
    assert_close(got, torch.softmax(scores, dim=-1))
    result = attend(
        d.x_test[:, None], d.x_train[:, None], d.y_train[:, None], score="gaussian",
        params={"sigma": sigma},
    )  # fmt: skip
    assert_close(got, result.weights, rtol=1e-5, atol=1e-6)
    y_hat, _ = kr.predict(d.x_test, d.x_train, d.y_train, "gaussian", sigma)
    assert_close(y_hat, result.output[:, 0], rtol=1e-5, atol=1e-5)


def test_tiny_gaussian_bandwidth_never_empties_a_row():
    # exp(-u^2/2) underflows to 0 for every x_i here; the softmax form picks the nearest.
    weights = kr.kernel_weights(torch.tensor([0.3]), torch.tensor([0.0, 1.0]), "gaussian", 0.01)
    assert_close(weights, torch.tensor([[1.0, 0.0]]))


def test_make_data_follows_d2l_and_is_seeded():
    d = kr.make_data(40, 3, 0.0, n_test=50)
    assert d.x_train.shape == d.y_train.shape == (40,)
    assert (d.x_train[1:] >= d.x_train[:-1]).all()
    assert float(d.x_train.min()) >= 0 and float(d.x_train.max()) < 5
    assert_close(d.y_train, 2 * torch.sin(d.x_train) + d.x_train**0.8)  # noise 0
    assert_close(d.x_test, torch.arange(50) * 0.1)
    assert_close(d.y_true, 2 * torch.sin(d.x_test) + d.x_test**0.8)
    again = kr.make_data(40, 3, 0.0)
    assert_close(again.x_train, d.x_train)
    assert not torch.equal(kr.make_data(40, 4, 0.0).x_train, d.x_train)
    noisy = kr.make_data(40, 3, 0.5)
    assert_close(noisy.x_train, d.x_train)  # the noise is drawn after the inputs
    assert 0.2 < float((noisy.y_train - d.y_train).std()) < 0.9


def test_losses_match_loops():
    d = kr.make_data(12, 1, 0.5)
    x, y, h = d.x_train, d.y_train, 0.4
    loo, train = [], []
    for i in range(12):
        others = [j for j in range(12) if j != i]
        w = kr.kernel_weights(x[i : i + 1], x[others], "gaussian", h)[0]
        loo.append(float(w @ y[others]) - float(y[i]))
        w_all = kr.kernel_weights(x[i : i + 1], x, "gaussian", h)[0]
        train.append(float(w_all @ y) - float(y[i]))
    expected_loo = float(np.mean(np.square(loo)))
    expected_train = float(np.mean(np.square(train)))
    assert kr.loss(x, y, "gaussian", h, leave_one_out=True).item() == pytest.approx(
        expected_loo, rel=1e-5
    )
    assert kr.loss(x, y, "gaussian", h, leave_one_out=False).item() == pytest.approx(
        expected_train, rel=1e-5
    )


def test_training_loss_overfits_and_leave_one_out_does_not():
    d = data()
    h_train, history_train = kr.fit_bandwidth(d.x_train, d.y_train, leave_one_out=False)
    h_loo, history_loo = kr.fit_bandwidth(d.x_train, d.y_train, leave_one_out=True)
    assert history_train.shape == history_loo.shape == (150,)
    assert h_train < h_loo / 10  # shrunk far below the leave-one-out optimum
    assert float(history_train[-1]) < 0.01 * float(history_train[0])
    # Each training point (nearly) predicts itself: the curve runs through the noise.
    fitted, _ = kr.predict(d.x_train, d.x_train, d.y_train, "gaussian", h_train)
    assert float((fitted - d.y_train).abs().max()) < 0.2
    # Leave-one-out lands at the grid's minimum of its loss.
    grid = torch.logspace(-2, 0.5, 201)
    curve = kr.loss_curve(d.x_train, d.y_train, grid, "gaussian", leave_one_out=True)
    best = float(grid[curve.argmin()])
    assert h_loo == pytest.approx(best, rel=0.05)
    assert float(history_loo[-1]) == pytest.approx(float(curve.min()), rel=1e-3)
    # The training loss only falls as h shrinks.
    train_curve = kr.loss_curve(d.x_train, d.y_train, grid, "gaussian", leave_one_out=False)
    assert (train_curve[1:] >= train_curve[:-1] - 1e-6).all()


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: kr.kernel_weights(torch.zeros(2), torch.zeros(3), "cosine", 1.0), "unknown"),
        (lambda: kr.kernel_weights(torch.zeros(2), torch.zeros(3), "boxcar", 0.0), "> 0"),
        (lambda: kr.kernel_weights(torch.zeros(2), torch.zeros(3), "boxcar", math.nan), "> 0"),
        (lambda: kr.kernel_weights(torch.zeros(2, 1), torch.zeros(3), "boxcar", 1.0), "1-D"),
        (lambda: kr.predict(torch.zeros(2), torch.zeros(3), torch.zeros(4), "boxcar", 1), "4"),
        (lambda: kr.fit_bandwidth(torch.zeros(3), torch.zeros(3), "boxcar", leave_one_out=True),
         "gradient"),
        (lambda: kr.fit_bandwidth(torch.zeros(1), torch.zeros(1), leave_one_out=True), "2"),
        (lambda: kr.make_data(0, 0, 0.5), "n_train"),
        (lambda: kr.make_data(5, 0, -1.0), "noise"),
    ],
)  # fmt: skip
def test_bad_arguments_raise_clear_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()
