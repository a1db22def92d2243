"""The generation lesson's numbers as the page writes them: a token's probability with three
significant digits, in scientific notation under 0.1%, never rounded away to 0.0%; a head's
rows on the attribution's axes, rows normalised."""

from __future__ import annotations

import numpy as np
import pytest

from attnviz.lessons.generation import compute
from attnviz.lessons.generation.compute import probability_text


@pytest.mark.parametrize(
    ("probability", "shown"),
    [
        (1.0e-5, "1.00e-5"),
        (2.346e-7, "2.35e-7"),
        (0.00099949, "9.99e-4"),
        (0.001, "0.100%"),
        (0.00099996, "0.100%"),
        (0.0123456, "1.23%"),
        (0.5, "50.0%"),
        (0.98765, "98.8%"),
        (1.0, "100%"),
        (0.0, "0%"),
    ],
)
def test_a_probability_keeps_three_significant_digits(probability: float, shown: str) -> None:
    assert probability_text(probability) == shown


def test_a_small_probability_reads_back_within_its_digits() -> None:
    for probability in (3.21e-9, 4.56e-6, 7.89e-4, 1.5e-3, 0.0421):
        text = probability_text(probability)
        value = float(text[:-1]) / 100 if text.endswith("%") else float(text)
        assert value == pytest.approx(probability, rel=5e-3), text


def test_head_rows_pad_each_step_to_one_axis() -> None:
    rows = compute.head_rows([np.array([0.5, 0.5]), np.array([0.2, 0.3, 0.5])], 3)
    np.testing.assert_array_equal(rows, [[0.5, 0.5, np.nan], [0.2, 0.3, 0.5]])


def test_normalise_rows_divides_by_the_largest_size() -> None:
    matrix = np.array([[2.0, -4.0, np.nan], [0.0, 0.0, 0.0], [0.1, 0.05, 0.0]])
    np.testing.assert_array_equal(
        compute.normalise_rows(matrix), [[0.5, -1.0, np.nan], [0, 0, 0], [1.0, 0.5, 0.0]]
    )
