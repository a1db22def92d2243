"""The "why sqrt(d)" lesson's numbers: the excess kurtosis its small-d note quotes."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from attnviz import scaling
from attnviz.lessons.sqrt_d.compute import excess_kurtosis


def test_excess_kurtosis_is_the_fourth_moment_over_the_squared_variance_minus_3():
    x = torch.tensor([0.0, 1.0, 1.0, 2.0, 6.0], dtype=torch.float64)
    centred = x.numpy() - 2.0  # the mean is 2
    expected = (centred**4).mean() / (centred**2).mean() ** 2 - 3  # 54.8 / 4.4^2 - 3
    assert excess_kurtosis(x) == pytest.approx(expected) == pytest.approx(-0.16942, abs=1e-5)


def test_a_normal_sample_has_excess_kurtosis_near_0():
    x = torch.randn(200_000, generator=torch.Generator().manual_seed(0))
    assert abs(excess_kurtosis(x)) < 0.05


@pytest.mark.parametrize("d", [1, 2, 4, 16])
def test_q_dot_k_has_excess_kurtosis_6_over_d(d):
    raw, scaled = scaling.dot_products(d, 100_000, 0)
    assert excess_kurtosis(raw) == pytest.approx(6 / d, abs=0.35)
    # Scaling by a constant leaves the kurtosis as it is.
    np.testing.assert_allclose(excess_kurtosis(scaled), excess_kurtosis(raw), rtol=1e-9)
