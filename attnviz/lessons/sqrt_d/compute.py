"""The "why sqrt(d)" lesson's numbers: q·k at the chosen d, its variance over d, and how an
unscaled softmax saturates (largest weight, entropy, gradient) as d grows (attnviz.scaling)."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from attnviz import scaling

MAX_D = 1024
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


def softmax_curves(ds: tuple[int, ...], m: int, seed: int) -> tuple[Curves, Curves]:
    """((saturation unscaled, scaled), (gradient unscaled, scaled)) over `ds`."""
    sat = [scaling.saturation_curve(ds, m, QUERIES, seed, s) for s in (False, True)]
    grad = [scaling.softmax_gradient_curve(ds, m, QUERIES, seed, s) for s in (False, True)]
    return (sat[0], sat[1]), (grad[0], grad[1])
