"""The checks attention's inputs pass before any arithmetic, and the check that its scores stayed
finite: each raises a ValueError that names the input, its shape and what is allowed.

Shared by `attnviz.attention` (`attend`, `masked_softmax` and the scoring functions). Shape
letters as there: B... leading batch axes, n queries, m keys, d_q / d_k / d_v feature sizes.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import torch


def shape_text(x: torch.Tensor) -> str:
    """A tensor's shape as an error message writes it: "2×3"."""
    return "×".join(str(s) for s in x.shape)


def check_fill(fill_value: float) -> None:
    """ValueError unless `fill_value` is a finite number or -inf."""
    if math.isnan(fill_value) or fill_value == math.inf:
        raise ValueError(f"fill_value must be a finite number or -inf, got {fill_value}")


def need_equal_sizes(score: str, queries: torch.Tensor, keys: torch.Tensor) -> None:
    """ValueError unless queries and keys have as many columns (a score that compares them
    coordinate by coordinate)."""
    d_q, d_k = queries.shape[-1], keys.shape[-1]
    if d_q != d_k:
        raise ValueError(
            f"keys ({shape_text(keys)}) have {d_k} columns but queries ({shape_text(queries)}) "
            f"have {d_q}: {score} scoring needs equal sizes (use additive or general attention "
            "for different sizes)"
        )


def as_float(x: torch.Tensor | Any, dtype: torch.dtype | None, name: str) -> torch.Tensor:
    """`x` as a floating tensor of `dtype` (None: its own, float32 for integers) with at least
    two axes and finite entries."""
    tensor = torch.as_tensor(x)
    if tensor.ndim < 2:
        raise ValueError(
            f"{name} must have at least 2 axes (..., rows, columns), got {shape_text(tensor)}"
        )
    if dtype is None:
        dtype = tensor.dtype if tensor.is_floating_point() else torch.float32
    tensor = tensor.to(dtype)
    # A finite sum means finite entries (one cheap pass); isfinite costs four passes.
    if not torch.isfinite(tensor.sum()) and not torch.isfinite(tensor).all():
        raise ValueError(f"{name} contain NaN or infinite values")
    return tensor


def broadcastable(*shapes: tuple[int, ...]) -> bool:
    """Whether the shapes broadcast together (numpy's rule, aligned at the right).

    Written out because `torch.broadcast_shapes` imports sympy on its first call (0.4 s).
    """
    for sizes in itertools.zip_longest(*(reversed(shape) for shape in shapes), fillvalue=1):
        if len({size for size in sizes if size != 1}) > 1:
            return False
    return True


def qkv(
    queries: torch.Tensor | Any, keys: torch.Tensor | Any, values: torch.Tensor | Any
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Queries (..., n, d_q), keys (..., m, d_k) and values (..., m, d_v) as float tensors of
    the queries' dtype: one value a key, batch axes that broadcast, finite entries."""
    queries = as_float(queries, None, "queries")  # (..., n, d_q)
    keys = as_float(keys, queries.dtype, "keys")  # (..., m, d_k)
    values = as_float(values, queries.dtype, "values")  # (..., m, d_v)
    if keys.shape[-2] != values.shape[-2]:
        raise ValueError(
            f"keys ({shape_text(keys)}) have {keys.shape[-2]} rows but values "
            f"({shape_text(values)}) have {values.shape[-2]}: each key needs exactly one value"
        )
    if not broadcastable(queries.shape[:-2], keys.shape[:-2], values.shape[:-2]):
        raise ValueError(
            f"batch axes do not broadcast: queries {shape_text(queries)}, keys "
            f"{shape_text(keys)}, values {shape_text(values)}"
        )
    return queries, keys, values


def dot_bounded(score: str, queries: torch.Tensor, keys: torch.Tensor, scale: float) -> bool:
    """True when every score is provably finite: |q . k| <= d max|q| max|k| (cosine: <= 1)."""
    if score == "cosine":
        return scale < 1e37
    if score not in ("dot", "scaled_dot") or queries.numel() == 0 or keys.numel() == 0:
        return False
    bound = queries.shape[-1] * float(queries.abs().amax()) * float(keys.abs().amax()) * scale
    # A wide margin below float32's 3.4e38 covers rounding in the sums.
    return bound < 1e37


def finite_scores(
    score: str, queries: torch.Tensor, keys: torch.Tensor, scale: float, scores: torch.Tensor
) -> None:
    """ValueError when the (..., n, m) scores overflowed to infinity or NaN."""
    # The sum is finite when every score is (a cheap pass); only then is the full check needed.
    # Dot products of bounded inputs are bounded too, and then no pass over n x m is needed.
    if not dot_bounded(score, queries, keys, scale) and not (
        torch.isfinite(scores.sum()) or torch.isfinite(scores).all()
    ):
        raise ValueError(
            "the scores overflowed to infinity or NaN: the inputs are too large "
            "(scale them down or raise the temperature)"
        )
