"""The generation lesson's numbers: a token's probability as text, which a sampled token can
have far below 0.1% (1.0e-5 written as 0.0% read as impossible); the matrices of "what each new
token drew on" (the chosen head's rows beside the attribution, rows normalised)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

DIGITS = 3  # significant digits of a probability
SCIENTIFIC_BELOW = 1e-3  # 0.1%: smaller probabilities in scientific notation


def probability_text(probability: float) -> str:
    """`probability` with three significant digits: 50.0%, 1.23%, 0.100%; 1.00e-5 under 0.1%."""
    if probability <= 0:
        return "0%"
    rounded = float(f"{probability:.{DIGITS - 1}e}")  # 9.9996e-4 rounds to 0.1%: a percent
    if rounded < SCIENTIFIC_BELOW:
        mantissa, exponent = f"{rounded:.{DIGITS - 1}e}".split("e")
        return f"{mantissa}e{int(exponent)}"
    percent = 100 * rounded
    decimals = max(0, DIGITS - 1 - math.floor(math.log10(percent) + 1e-9))
    return f"{percent:.{decimals}f}%"


def head_rows(rows: Sequence[np.ndarray], width: int) -> np.ndarray:
    """(N, width): the N steps' predicting rows of one head (step i's row has P + i keys), NaN
    after each row's last key: the attention beside the attribution matrix, on its axes."""
    matrix = np.full((len(rows), width), np.nan)
    for i, row in enumerate(rows):
        matrix[i, : len(row)] = row
    return matrix


def normalise_rows(matrix: np.ndarray) -> np.ndarray:
    """Each row divided by its largest absolute value (NaN cells ignored), so rows of very
    different sizes share one scale from -1 to 1; a row of zeros stays zeros."""
    with np.errstate(all="ignore"):  # an all-NaN row has no largest value
        largest = np.nanmax(np.abs(matrix), axis=1, keepdims=True)  # (N, 1)
    largest = np.where(np.isfinite(largest) & (largest > 0), largest, 1.0)
    return matrix / largest
