"""LaTeX of each step carries the current sizes and numbers."""

from __future__ import annotations

import pytest

from attnviz.figures import formulas
from tests.english import EN


def test_numbers_are_latex():
    assert formulas.number(0.123456) == "0.123"
    assert formulas.number(-1e6) == r"-1 \cdot 10^{6}"
    assert formulas.number(float("-inf")) == r"-\infty"
    assert formulas.vector([1, 2, 3, 4, 5, 6, 7]) == (r"\left(1,\ 2,\ 3,\ 4,\ 5,\ 6,\ \dots\right)")


@pytest.mark.parametrize(
    ("score", "expected"),
    [
        ("scaled_dot", r"\sqrt{d_k} = 2"),
        ("general", r"W \in \mathbb{R}^{3 \times 4}"),
        ("additive", r"W_q \in \mathbb{R}^{8 \times 3},\ W_k \in \mathbb{R}^{8 \times 4}"),
        ("gaussian", r"\sigma = 0.5"),
    ],
)
def test_scores_formula_names_the_sizes(score, expected):
    latex = formulas.scores(score, n=2, m=5, d_q=3, d_k=4, temperature=1.0, h=8, sigma=0.5)
    assert r"Q \in \mathbb{R}^{2 \times 3}" in latex and r"K \in \mathbb{R}^{5 \times 4}" in latex
    assert expected in latex
    assert r"\tau" not in latex
    assert r"\tau = 0.5" in formulas.scores(score, n=2, m=5, d_q=3, d_k=4, temperature=0.5)


def test_mask_softmax_output_formulas():
    assert r"-1 \cdot 10^{6}" in formulas.mask(-1e6, EN)
    assert r"-\infty" in formulas.mask(float("-inf"), EN)
    assert r"\sum_{j'=0}^{3}" in formulas.softmax(4)
    assert r"O = A V \in \mathbb{R}^{2 \times 3}" in formulas.output(2, 4, 3)


def test_query_numbers_spell_out_the_weighted_sum():
    scores, weights, total, output = formulas.query_numbers(1, [0.5, -1e6], [1.0, 0.0], [3.0, 4.0])
    assert scores == r"s_{1\cdot} = \left(0.5,\ -1 \cdot 10^{6}\right)"
    assert weights.endswith(r"= \left(1,\ 0\right)")
    assert total == r"o_{1} = 1\, v_{0} + 0\, v_{1}"  # the sum, and its value on a line below
    assert output == r"o_{1} = \left(3,\ 4\right)"


def test_masked_scores_get_their_own_symbol():
    raw, masked, weights, _, _ = formulas.query_numbers(
        0, [-0.495, -0.495], [1.0, 0.0], [3.0, 4.0], masked_row=[-0.495, -1e6]
    )
    assert raw == r"s_{0\cdot} = \left(-0.495,\ -0.495\right)"  # the raw scores, all of them
    assert masked == r"\tilde s_{0\cdot} = \left(-0.495,\ -1 \cdot 10^{6}\right)"
    assert weights.startswith(r"\alpha_{0\cdot} = \operatorname{softmax}(\tilde s_{0\cdot})")
    unmasked = formulas.query_numbers(0, [1.0, 2.0], [0.3, 0.7], [1.0], masked_row=[1.0, 2.0])
    assert len(unmasked) == 4 and r"softmax}(s_{0\cdot})" in unmasked[1]
