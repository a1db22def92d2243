"""LaTeX for each step of attention, with the current sizes and numbers (Murphy, PML1 ch. 15).

Pure functions: numbers (and the words of one language) in, LaTeX strings out, so every page
shows the same notation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from attnviz.attention import SCORE_FUNCTIONS
from attnviz.i18n import Catalogue

MAX_TERMS = 6  # longer sums are shortened with \dots


def _real(rows: int, cols: int) -> str:
    return rf"\mathbb{{R}}^{{{rows} \times {cols}}}"


def number(value: float) -> str:
    """A number as LaTeX: 3 significant digits, -\\infty, and 10^{k} for big exponents."""
    if math.isinf(value):
        return r"-\infty" if value < 0 else r"\infty"
    text = f"{value:.3g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        return rf"{mantissa} \cdot 10^{{{int(exponent)}}}"
    return text


def vector(values: Sequence[float]) -> str:
    """(v_0, v_1, ...) shortened to MAX_TERMS entries."""
    shown = [number(v) for v in values[:MAX_TERMS]]
    if len(values) > MAX_TERMS:
        shown.append(r"\dots")
    return r"\left(" + ",\\ ".join(shown) + r"\right)"


def scores(
    score: str, *, n: int, m: int, d_q: int, d_k: int, temperature: float, **extra: float
) -> str:
    """s_ij = a(q_i, k_j) / tau, with the sizes."""
    sizes = [
        rf"Q \in \mathbb{{R}}^{{{n} \times {d_q}}}",
        rf"K \in \mathbb{{R}}^{{{m} \times {d_k}}}",
    ]
    if score == "scaled_dot":
        sizes.append(rf"\sqrt{{d_k}} = {number(math.sqrt(d_k))}")
    if score == "additive" and "h" in extra:
        h = int(extra["h"])
        sizes.append(rf"W_q \in {_real(h, d_q)},\ W_k \in {_real(h, d_k)}")
    if score == "general":
        sizes.append(rf"W \in {_real(d_q, d_k)}")
    if score == "gaussian" and "sigma" in extra:
        sizes.append(rf"\sigma = {number(extra['sigma'])}")
    tau = "" if temperature == 1 else rf"\,/\,\tau,\quad \tau = {number(temperature)}"
    return rf"s_{{ij}} = {SCORE_FUNCTIONS[score].tex}{tau},\qquad " + r",\ ".join(sizes)


def mask(fill_value: float, text: Catalogue) -> str:
    r"""\tilde s_ij = s_ij where allowed, the fill value elsewhere."""
    return (
        rf"\tilde s_{{ij}} = \begin{{cases}} s_{{ij}} & \text{{{text('formula.allowed')}}}"
        rf"\\ {number(fill_value)} & \text{{{text('formula.otherwise')}}} \end{{cases}}"
    )


def softmax(m: int) -> str:
    r"""\alpha_ij = softmax over the m keys."""
    return (
        r"\alpha_{ij} = \frac{\exp \tilde s_{ij}}"
        rf"{{\sum_{{j'=0}}^{{{m - 1}}} \exp \tilde s_{{ij'}}}},"
        r"\qquad \sum_j \alpha_{ij} = 1"
    )


def output(n: int, m: int, d_v: int) -> str:
    """o_i = sum_j alpha_ij v_j."""
    return (
        rf"o_i = \sum_{{j=0}}^{{{m - 1}}} \alpha_{{ij}}\, v_j,\qquad "
        rf"O = A V \in {_real(n, d_v)}"
    )


def query_numbers(
    query: int,
    scores_row: Sequence[float],
    weights_row: Sequence[float],
    output_row: Sequence[float],
    masked_row: Sequence[float] | None = None,
) -> list[str]:
    r"""The same steps with query `query`'s numbers: the raw scores s, the masked scores
    \tilde s when `masked_row` differs from them, the weights and the output."""
    terms = [rf"{number(w)}\, v_{{{j}}}" for j, w in enumerate(weights_row[:MAX_TERMS])]
    if len(weights_row) > MAX_TERMS:
        terms.append(r"\dots")
    lines = [rf"s_{{{query}\cdot}} = {vector(scores_row)}"]
    softmax_of = rf"s_{{{query}\cdot}}"
    if masked_row is not None and list(masked_row) != list(scores_row):
        lines.append(rf"\tilde s_{{{query}\cdot}} = {vector(masked_row)}")
        softmax_of = rf"\tilde s_{{{query}\cdot}}"
    return [
        *lines,
        rf"\alpha_{{{query}\cdot}} = \operatorname{{softmax}}({softmax_of})"
        rf" = {vector(weights_row)}",
        # The sum and its value on two lines: at 32 dimensions one line runs past the page.
        rf"o_{{{query}}} = " + " + ".join(terms),
        rf"o_{{{query}}} = {vector(output_row)}",
    ]
