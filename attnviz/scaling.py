"""Why scaled dot-product attention divides by sqrt(d): variance, saturation, vanishing gradients.

Vaswani et al. 2017, footnote 4: if the entries of q and k are independent with mean 0 and
variance 1, then q·k = Σ_i q_i k_i has mean 0 and variance d, so for large d the scores are
large, the softmax saturates (one weight near 1, the others near 0) and its gradient vanishes;
dividing by sqrt(d) brings the variance back to 1. Murphy, PML1 sec. 15.4.2 tells the same story.

Shape letters: S samples (query-key pairs), Q queries, m keys per query, d feature size.
Every function is seeded and pure: the same arguments give the same tensors.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import torch

from attnviz.attention import masked_softmax
from attnviz.parsing import InputError

MAX_D = 4096
MAX_SAMPLES = 100_000
MAX_KEYS = 4096
MAX_QUERIES = 4096


def powers_of_two(largest: int = 1024) -> list[int]:
    """1, 2, 4, ..., largest: the d values of the curves (evenly spaced on a log axis)."""
    return [2**i for i in range(int(math.log2(largest)) + 1)]


def _check(name: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise InputError("sqrt_d_range", name=name, value=value, low=low, high=high)


def _generator(seed: int, d: int) -> torch.Generator:
    # One stream per (seed, d): the draw at d is the same in a curve or on its own, and
    # SeedSequence mixes the pair so that nearby seeds and sizes do not share streams.
    state = np.random.SeedSequence([seed, d]).generate_state(2, dtype=np.uint32)
    return torch.Generator().manual_seed(int(state[0]) << 32 | int(state[1]))


def dot_products(d: int, samples: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    """`samples` dot products q·k of N(0, 1) vectors of size d, raw and divided by sqrt(d)."""
    _check("d", d, 1, MAX_D)
    _check("samples", samples, 2, MAX_SAMPLES)
    gen = _generator(seed, d)
    queries = torch.randn(samples, d, generator=gen)  # (S, d)
    keys = torch.randn(samples, d, generator=gen)  # (S, d)
    raw = (queries * keys).sum(dim=-1, dtype=torch.float64)  # (S,)
    return raw, raw / math.sqrt(d)  # (S,), (S,)


def variance_curve(ds: Sequence[int], samples: int, seed: int) -> dict[str, torch.Tensor]:
    """Sample variance of q·k and of q·k / sqrt(d) for each d (theory: d and 1)."""
    raw_var, scaled_var = [], []
    for d in ds:
        raw, scaled = dot_products(d, samples, seed)  # (S,), (S,)
        raw_var.append(raw.var())
        scaled_var.append(scaled.var())
    return {
        "d": torch.tensor(list(ds), dtype=torch.float64),  # (D,)
        "raw": torch.stack(raw_var),  # (D,)
        "scaled": torch.stack(scaled_var),  # (D,)
    }


def entropy(weights: torch.Tensor) -> torch.Tensor:
    """Shannon entropy -Σ p log p in nats over the last axis, with 0 log 0 = 0."""
    return torch.special.entr(weights).sum(dim=-1)  # (...,)


def max_weight(weights: torch.Tensor) -> torch.Tensor:
    """The largest weight of each row: 1 when the softmax is saturated, 1/m when uniform."""
    return weights.max(dim=-1).values  # (...,)


def softmax_jacobian(weights: torch.Tensor) -> torch.Tensor:
    """d softmax(s)_i / d s_j = p_i (δ_ij - p_j), i.e. diag(p) - p pᵀ, for each row p."""
    return torch.diag_embed(weights) - weights[..., :, None] * weights[..., None, :]  # (..., m, m)


def attention_weights(d: int, m: int, queries: int, seed: int, scaled: bool) -> torch.Tensor:
    """Softmax weights of `queries` N(0, 1) queries, each over its own m N(0, 1) keys."""
    _check("d", d, 1, MAX_D)
    _check("m", m, 2, MAX_KEYS)
    _check("queries", queries, 1, MAX_QUERIES)
    gen = _generator(seed, d)
    # The same draw with and without scaling, so the two curves differ only by 1/sqrt(d).
    q = torch.randn(queries, 1, d, generator=gen).double()  # (Q, 1, d)
    k = torch.randn(queries, m, d, generator=gen).double()  # (Q, m, d)
    scores = (q @ k.transpose(-2, -1))[:, 0, :]  # (Q, m)
    if scaled:
        scores = scores / math.sqrt(d)
    return masked_softmax(scores)  # (Q, m)


def saturation_curve(
    ds: Sequence[int], m: int, queries: int, seed: int, scaled: bool
) -> dict[str, torch.Tensor]:
    """Largest softmax weight and entropy of the weights against d, averaged over queries."""
    largest, spread = [], []
    for d in ds:
        weights = attention_weights(d, m, queries, seed, scaled)  # (Q, m)
        largest.append(max_weight(weights).mean())
        spread.append(entropy(weights).mean())
    return {
        "d": torch.tensor(list(ds), dtype=torch.float64),  # (D,)
        "max_weight": torch.stack(largest),  # (D,)
        "entropy": torch.stack(spread),  # (D,)
    }


def softmax_gradient_curve(
    ds: Sequence[int], m: int, queries: int, seed: int, scaled: bool
) -> dict[str, torch.Tensor]:
    """Frobenius norm of d softmax / d scores against d, averaged over queries: it goes to 0
    as the softmax saturates, and with it the gradient that reaches the queries and keys."""
    norms = []
    for d in ds:
        jacobian = softmax_jacobian(attention_weights(d, m, queries, seed, scaled))  # (Q, m, m)
        norms.append(torch.linalg.matrix_norm(jacobian).mean())
    return {
        "d": torch.tensor(list(ds), dtype=torch.float64),  # (D,)
        "jacobian_norm": torch.stack(norms),  # (D,)
    }
