"""The masking lesson's figures and formulas, through their data."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from attnviz.figures import formulas
from attnviz.lessons.masking import compute, figures
from tests.english import EN
from tests.lessons.masking.test_compute import FILLS, hand_mask, run


def test_figures_carry_the_sequence_and_its_mask():
    lens, m = [4, 6, 2], 6
    _, result = run(lens, m, causal=True)
    figs = figures.step_figures(result, 2, ("s", "m", "w"), EN)
    scores = np.asarray(figs["s"].data[0].z)
    np.testing.assert_allclose(scores, result.scores[2].numpy(), rtol=1e-6)
    weights = np.asarray(figs["w"].data[0].z, dtype=float)
    allowed = hand_mask(lens, m, True, set())[2]
    assert np.isnan(weights[~allowed]).all()
    np.testing.assert_allclose(weights[allowed], result.weights[2].numpy()[allowed], rtol=1e-6)
    grid = figures.mask_figure(
        compute.combined_mask(result, 2), compute.mask_reasons(2, m, True, set()), 2, EN
    )
    np.testing.assert_array_equal(np.asarray(grid.data[0].z), allowed.astype(float))
    assert grid.data[0].customdata[0][3] == "query q0, key k3: masked (padding, causal)"
    assert grid.data[0].customdata[1][1] == "query q1, key k1: may attend"
    padding = figures.padding_figure(torch.tensor(lens), m, 2, EN)
    np.testing.assert_array_equal(
        np.asarray(padding.data[0].z), (np.arange(m) < np.array(lens)[:, None]).astype(float)
    )
    assert padding.layout.shapes[0].y0 == 1.5  # the frame around sequence 2


@pytest.mark.parametrize("fill", FILLS)
def test_formula_shows_the_fill_value_and_the_valid_length(fill):
    assert formulas.number(fill) in formulas.mask(fill, EN)
    latex = figures.mask_latex(4, 1, causal=True, cells=True, text=EN)
    assert r"\ell_{1} = 4" in latex and r"j \le i" in latex and "C_{ij}" in latex
    assert r"j \le i" not in figures.mask_latex(4, 1, causal=False, cells=False, text=EN)
