"""The generation lesson's numbers as text: a token's probability, which a sampled token can
have far below 0.1% (1.0e-5 written as 0.0% read as impossible)."""

from __future__ import annotations

import math

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
