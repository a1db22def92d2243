"""The "why sqrt(d)" lesson's numbers: q·k at the chosen d, its variance over d, and how an
unscaled softmax saturates (largest weight, entropy, gradient) as d grows (attnviz.scaling)."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from attnviz import scaling

MAX_D = 1024
SMALL_D = 4  # up to this d the page says that q·k is far from the normal drawn over it
QUERIES = 64  # queries averaged over in the saturation and gradient curves
CURVE_DS: tuple[int, ...] = tuple(scaling.powers_of_two(MAX_D))
Curves = tuple[dict[str, torch.Tensor], dict[str, torch.Tensor]]  # (unscaled, scaled)


@dataclass(frozen=True)
class Choice:
    """The controls of the page."""

    d: int
    m: int
    samples: int
    seed: int


@dataclass(frozen=True)
class Result:
    """Everything the page draws, computed from one Choice."""

    choice: Choice
    raw: torch.Tensor  # (S,) q·k at the chosen d
    scaled: torch.Tensor  # (S,) q·k / sqrt(d)
    variance: dict[str, torch.Tensor]  # over CURVE_DS
    saturation: Curves  # over CURVE_DS
    gradient: Curves
    saturation_at_d: Curves  # at the chosen d alone
    gradient_at_d: Curves

    @property
    def raw_var(self) -> float:
        return float(self.raw.var())

    @property
    def scaled_var(self) -> float:
        return float(self.scaled.var())

    @property
    def raw_kurtosis(self) -> float:
        return excess_kurtosis(self.raw)


def excess_kurtosis(x: torch.Tensor) -> float:
    """E[(x - mean)^4] / Var(x)^2 - 3 of a sample (population moments): 0 for a normal. For q·k
    of N(0, 1) vectors it is 6 / d: each product q_i k_i has E[(q_i k_i)^4] = 3 · 3 = 9 and
    variance 1, and a sum of d independent terms divides the excess by d."""
    centred = x.double() - x.double().mean()  # (S,)
    return float((centred**4).mean() / (centred**2).mean() ** 2 - 3)


def softmax_curves(ds: tuple[int, ...], m: int, seed: int) -> tuple[Curves, Curves]:
    """((saturation unscaled, scaled), (gradient unscaled, scaled)) over `ds`."""
    sat = [scaling.saturation_curve(ds, m, QUERIES, seed, s) for s in (False, True)]
    grad = [scaling.softmax_gradient_curve(ds, m, QUERIES, seed, s) for s in (False, True)]
    return (sat[0], sat[1]), (grad[0], grad[1])
