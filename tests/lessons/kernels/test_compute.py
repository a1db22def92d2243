"""The kernel-regression lesson's numbers against the formulas written out: d2l's data,
Nadaraya-Watson weights and predictions kernel by kernel, the training and leave-one-out
losses as a numpy softmax, the fitted bandwidths against scipy's minimiser, and the probe."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from scipy import optimize, special

from attnviz import kernels as kr
from attnviz.errors import InputError
from attnviz.lessons.kernels import compute
from tests.test_kernels import weights_by_hand


@pytest.fixture(scope="module")
def data() -> kr.KernelData:
    return compute.data(50, 0, 0.5)


def f(x: np.ndarray) -> np.ndarray:
    """d2l 0.17 sec. 10.2's function."""
    return 2 * np.sin(x) + x**0.8


def gaussian_weights(x_query: np.ndarray, x_train: np.ndarray, h: float, loo: bool = False):
    """exp(-(x - x_i)^2 / (2 h^2)) normalised over i, as a softmax (no row underflows to
    0 / 0); with `loo` each point's own term left out."""
    scores = -((x_query[:, None] - x_train[None, :]) ** 2) / (2 * h**2)  # (q, n)
    if loo:
        np.fill_diagonal(scores, -np.inf)
    return special.softmax(scores, axis=1)


def loss(x: np.ndarray, y: np.ndarray, h: float, loo: bool) -> float:
    return float(np.mean((gaussian_weights(x, x, h, loo) @ y - y) ** 2))


def test_data_are_d2ls_function_with_noise_and_seeded(data):
    x_test = np.arange(compute.N_TEST) * 0.1  # 0, 0.1, ..., 4.9
    np.testing.assert_allclose(data.x_test.numpy(), x_test, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(data.y_true.numpy(), f(x_test), rtol=1e-5, atol=1e-6)
    x = data.x_train.numpy()
    assert x.shape == (50,) and (np.diff(x) >= 0).all() and x.min() >= 0 and x.max() < 5
    noise = data.y_train.numpy() - f(x)
    assert 0.3 < noise.std() < 0.7  # sigma 0.5
    again = compute.data(50, 0, 0.5)
    torch.testing.assert_close(again.y_train, data.y_train)
    assert not torch.equal(compute.data(50, 1, 0.5).x_train, data.x_train)
    clean = compute.data(50, 0, 0.0)
    np.testing.assert_allclose(clean.y_train.numpy(), f(clean.x_train.numpy()), rtol=1e-5)


@pytest.mark.parametrize("kernel", kr.KERNELS)
@pytest.mark.parametrize("bandwidth", [0.05, 0.3, 1.5])
def test_regression_is_nadaraya_watson_by_hand(data, kernel, bandwidth):
    choice = compute.KernelChoice(kernel, bandwidth, 50, 0.5, 0)
    result = compute.regression(choice, data)
    weights = weights_by_hand(data.x_test.tolist(), data.x_train.tolist(), kernel, bandwidth)
    has = weights.sum(1) > 0
    np.testing.assert_allclose(result.weights.numpy(), weights, rtol=1e-4, atol=1e-6)
    np.testing.assert_array_equal(result.has_neighbour.numpy(), has)
    y_hat = weights @ data.y_train.double().numpy()
    np.testing.assert_allclose(result.y_hat.numpy()[has], y_hat[has], rtol=1e-4, atol=1e-5)
    if kernel == "boxcar" and bandwidth == 0.05:
        assert not has.all()  # the case with gaps in the prediction


@pytest.fixture(scope="module")
def learned(data) -> compute.Learned:
    return compute.learned(data)


def test_losses_over_the_grid_are_the_formulas(data, learned):
    x, y = data.x_train.double().numpy(), data.y_train.double().numpy()
    grid = compute.GRID.double().numpy()
    for fitted, loo in ((learned.grid_train, False), (learned.grid_loo, True)):
        expected = [loss(x, y, h, loo) for h in grid]
        np.testing.assert_allclose(fitted.numpy(), expected, rtol=1e-4, atol=1e-6)
    # Without its own point each prediction cannot copy its target: the loss stays up.
    assert learned.grid_train[0] < 1e-6 < 0.1 < learned.grid_loo[0]


def test_fitted_bandwidths_minimise_their_losses(data, learned):
    x, y = data.x_train.double().numpy(), data.y_train.double().numpy()
    assert learned.loss_train == pytest.approx(loss(x, y, learned.h_train, False), abs=1e-6)
    assert learned.loss_loo == pytest.approx(loss(x, y, learned.h_loo, True), rel=1e-5)
    best = optimize.minimize_scalar(
        lambda log_h: loss(x, y, float(np.exp(log_h)), True),
        bounds=(np.log(1e-3), np.log(3.0)),
        method="bounded",
    )
    assert learned.h_loo == pytest.approx(float(np.exp(best.x)), rel=0.02)
    assert learned.loss_loo <= best.fun * (1 + 1e-4)
    # The training loss rewards copying each point's own target: its h only shrinks.
    assert learned.h_train < learned.h_loo / 10 and learned.loss_train < learned.loss_loo
    assert len(learned.history_train) == len(learned.history_loo) == compute.FIT_STEPS
    assert learned.history_loo[-1] < learned.history_loo[0]
    assert learned.history_loo[0] == pytest.approx(loss(x, y, compute.FIT_INIT, True), rel=1e-5)
    x_test = data.x_test.double().numpy()
    for fit, h in ((learned.y_train_fit, learned.h_train), (learned.y_loo_fit, learned.h_loo)):
        expected = gaussian_weights(x_test, x, h) @ y
        np.testing.assert_allclose(fit.numpy(), expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize(("text", "x"), [("2.5", 2.5), (" -100 ", -100.0), ("1e2", 100.0)])
def test_the_probe_reads_one_number_in_range(text, x):
    assert compute.parse_probe(text) == x


@pytest.mark.parametrize(
    ("text", "key", "message"),
    [
        ("1, 2", "kernels_probe_count", "Type one number for x, not 2 values."),
        ("1\n2\n3", "kernels_probe_count", "Type one number for x, not 3 values."),
        ("100.5", "kernels_probe_range", "x = 100.5 is outside [-100, 100]: type a number"),
        ("-1e3", "kernels_probe_range", "x = -1000 is outside [-100, 100]"),
    ],
)
def test_a_probe_out_of_reach_names_what_is_wrong(text, key, message):
    with pytest.raises(InputError) as info:
        compute.parse_probe(text)
    assert info.value.key == key
    assert str(info.value).startswith(message)
