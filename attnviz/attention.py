"""Attention in pure torch: scoring functions, masks, masked softmax, `attend`.

Follows Murphy, PML1 ch. 15 and d2l's attention chapters (Vaswani et al. 2017 for scaled
dot-product, Bahdanau et al. 2015 for additive attention). Shape letters: B... leading batch
axes, n queries, m keys, d_q / d_k / d_v feature sizes, h hidden size of additive attention.

Mask convention everywhere: a bool tensor, True = may attend. The checks the inputs pass before
any arithmetic are attnviz.checks.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import torch

from attnviz import checks


@dataclass(frozen=True)
class ScoreFunction:
    """One scoring function a(q, k): what `attend` accepts for it, and how a page names it.
    The one registry of them: the Playground's controls, its size check and the formulas read
    it (SCORE_FUNCTIONS)."""

    name: str
    label: str  # the catalogue key of its name on the pages
    tex: str  # a(q_i, k_j) as LaTeX
    params: frozenset[str]  # the keys `attend` accepts in `params` (and a page asks for)
    equal_sizes: bool  # compares q and k coordinate by coordinate: needs d_q == d_k
    called: str  # its name in an error message ("scaled dot-product scoring needs ...")


SCORE_FUNCTIONS: dict[str, ScoreFunction] = {
    f.name: f
    for f in (
        ScoreFunction("dot", "score.dot", r"q_i^\top k_j", frozenset(), True, "dot-product"),
        ScoreFunction(
            "scaled_dot", "score.scaled_dot", r"\frac{q_i^\top k_j}{\sqrt{d_k}}", frozenset(),
            True, "scaled dot-product",
        ),
        ScoreFunction(
            "cosine", "score.cosine",
            r"\frac{q_i^\top k_j}{\lVert q_i \rVert\, \lVert k_j \rVert}", frozenset(), True,
            "cosine",
        ),
        ScoreFunction(
            "general", "score.general", r"q_i^\top W k_j", frozenset({"W", "seed"}), False,
            "general",
        ),
        ScoreFunction(
            "additive", "score.additive", r"w_v^\top \tanh(W_q q_i + W_k k_j)",
            frozenset({"W_q", "W_k", "w_v", "h", "seed"}), False, "additive",
        ),
        ScoreFunction(
            "gaussian", "score.gaussian", r"-\frac{\lVert q_i - k_j \rVert^2}{2\sigma^2}",
            frozenset({"sigma"}), True, "gaussian",
        ),
    )
}  # fmt: skip
SCORES: tuple[str, ...] = tuple(SCORE_FUNCTIONS)
# The fill values the pages offer for masked scores, by how they are written: d2l's -1e6, a
# larger finite one, and the exact -inf (they differ only for a row whose keys are all masked).
FILL_VALUES: dict[str, float] = {"-1e6": -1e6, "-1e9": -1e9, "-inf": -math.inf}
_COSINE_EPS = 1e-8  # as F.cosine_similarity
# Additive and Gaussian scores need an (n, m, d) intermediate: build it in query blocks of at
# most this many elements, so a 2048 x 2048 x 64 input does not ask for a gigabyte at once.
_BLOCK_ELEMENTS = 1 << 24


@dataclass(frozen=True)
class AttentionResult:
    """Every step of one attention computation."""

    scores: torch.Tensor  # (..., n, m) scoring function / temperature
    masked_scores: torch.Tensor  # (..., n, m) scores with masked positions = fill_value
    weights: torch.Tensor  # (..., n, m) softmax over keys
    output: torch.Tensor  # (..., n, d_v)
    params: dict[str, Any] = field(default_factory=dict)
    mask: torch.Tensor | None = None  # (..., n, m) combined bool mask, True = may attend


def causal_mask(n: int, m: int | None = None) -> torch.Tensor:
    """The top-left lower-triangular mask (query i may attend keys 0..i), as SDPA's is_causal."""
    return torch.ones(n, n if m is None else m, dtype=torch.bool).tril()  # (n, m)


def build_mask(
    n: int, m: int, *, causal: bool = False, blocked: Iterable[tuple[int, int]] = ()
) -> torch.Tensor | None:
    """The causal mask AND hand-picked blocked (query, key) cells, as one (n, m) bool mask.

    None when neither is asked for (nothing masked).
    """
    mask = causal_mask(n, m) if causal else None  # (n, m)
    cells = list(blocked)
    if cells:
        allowed = torch.ones(n, m, dtype=torch.bool)  # (n, m)
        rows, cols = zip(*cells, strict=True)
        allowed[list(rows), list(cols)] = False
        mask = allowed if mask is None else mask & allowed
    return mask


def fill_label(fill_value: float) -> str:
    """How a fill value is written on the pages and in links: "-1e6", "-1e9", "-inf"."""
    for label, value in FILL_VALUES.items():
        if value == fill_value:
            return label
    return f"{fill_value:g}"


def combine_masks(
    shape: torch.Size | tuple[int, ...],
    mask: torch.Tensor | None = None,
    valid_lens: torch.Tensor | Any = None,
) -> torch.Tensor | None:
    """One bool mask of `shape` (..., n, m) from `mask` AND `valid_lens`; None if neither."""
    if mask is None and valid_lens is None:
        return None
    m = shape[-1]
    allowed: torch.Tensor | None = None
    if mask is not None:
        if not isinstance(mask, torch.Tensor) or mask.dtype != torch.bool:
            raise ValueError("mask must be a bool tensor (True = may attend)")
        try:
            allowed = torch.broadcast_to(mask, shape)
        except RuntimeError:
            raise ValueError(
                f"mask of shape {tuple(mask.shape)} does not fit scores of shape {tuple(shape)}"
            ) from None
    if valid_lens is not None:
        lens = torch.as_tensor(valid_lens)
        if lens.is_floating_point() or lens.is_complex() or lens.dtype == torch.bool:
            raise ValueError(f"valid_lens must hold integers, got {lens.dtype}")
        if lens.shape == shape[:-2]:
            lens = lens[..., None]  # (..., 1): one length per sequence, for every query
        elif lens.shape != shape[:-1]:
            raise ValueError(
                f"valid_lens of shape {tuple(lens.shape)} does not fit scores of shape "
                f"{tuple(shape)}: use shape {tuple(shape[:-2])} or {tuple(shape[:-1])}"
            )
        if lens.numel() and (lens.min() < 0 or lens.max() > m):
            raise ValueError(f"valid_lens must lie in [0, {m}], got {lens.tolist()}")
        by_len = torch.arange(m, device=lens.device) < lens[..., None]  # (..., n or 1, m)
        by_len = torch.broadcast_to(by_len, shape)
        allowed = by_len if allowed is None else allowed & by_len
    return allowed


def _softmax_allowed(
    scores: torch.Tensor, allowed: torch.Tensor | None, fill_value: float, inplace: bool = False
) -> torch.Tensor:
    """Softmax over keys in which masked keys get exactly 0 whenever the row has an allowed key.

    `inplace` writes the weights over `scores` (one n x m buffer instead of two).
    """
    if allowed is None:
        return torch.softmax(scores, dim=-1, out=scores) if inplace else torch.softmax(scores, -1)
    # Softmax over the allowed keys alone (-inf), whatever the fill: a -1e6 fill would win
    # against allowed logits of -1e30. A fully masked row is set to zeros -> uniform 1/m.
    any_allowed = allowed.any(dim=-1, keepdim=True)  # (..., n, 1)
    if inplace:
        logits = scores.masked_fill_(~allowed, -math.inf)  # (..., n, m)
    else:
        logits = scores.masked_fill(~allowed, -math.inf)
    logits.masked_fill_(~any_allowed, 0.0)
    # out= has no autograd (the kernel page learns a bandwidth through this softmax).
    weights = torch.softmax(logits, -1, out=logits) if inplace else torch.softmax(logits, -1)
    if fill_value == -math.inf:
        weights.masked_fill_(~any_allowed, 0.0)
    return weights


def masked_softmax(
    scores: torch.Tensor,
    mask: torch.Tensor | None = None,
    valid_lens: torch.Tensor | Any = None,
    fill_value: float = -1e6,
    *,
    inplace: bool = False,
) -> torch.Tensor:
    """Softmax over the last axis with masked keys filled (uniform / zero rows if all masked).

    `inplace=True` overwrites `scores` with the weights, for callers that do not keep the scores.
    """
    checks.check_fill(fill_value)
    allowed = combine_masks(scores.shape, mask, valid_lens)
    return _softmax_allowed(scores, allowed, fill_value, inplace)


def random_weights(gen: torch.Generator, shape: tuple[int, ...], fan_in: int) -> torch.Tensor:
    """N(0, 1/fan_in) weights of `shape` drawn from `gen` (the missing parameters of `attend`)."""
    return torch.randn(shape, generator=gen) / math.sqrt(max(fan_in, 1))


def _param(
    params: Mapping[str, Any], name: str, drawn: torch.Tensor, dtype: torch.dtype
) -> torch.Tensor:
    given = params.get(name)
    tensor = drawn if given is None else torch.as_tensor(given)
    if tensor.shape != drawn.shape:
        raise ValueError(
            f"{name} has shape {tuple(tensor.shape)} but shape {tuple(drawn.shape)} is needed"
        )
    return tensor.to(dtype)


def _blocked(
    queries: torch.Tensor, keys: torch.Tensor, width: int, fn: Callable[..., torch.Tensor]
) -> torch.Tensor:
    """fn(query block, keys) -> (..., block, m), over query blocks of bounded memory."""
    n, m = queries.shape[-2], keys.shape[-2]
    block = max(1, _BLOCK_ELEMENTS // max(m * width, 1))
    if block >= n:
        return fn(queries, keys)
    return torch.cat([fn(queries[..., i : i + block, :], keys) for i in range(0, n, block)], -2)


def _raw_scores(
    score: str, queries: torch.Tensor, keys: torch.Tensor, params: Mapping[str, Any]
) -> tuple[torch.Tensor, dict[str, Any]]:
    """The scoring function's values (n, m) and every parameter it used."""
    dtype = queries.dtype
    d_q, d_k = queries.shape[-1], keys.shape[-1]
    if score not in SCORE_FUNCTIONS:
        raise ValueError(f"unknown score {score!r}: choose one of {', '.join(SCORES)}")
    if SCORE_FUNCTIONS[score].equal_sizes:
        checks.need_equal_sizes(SCORE_FUNCTIONS[score].called, queries, keys)
    if score in ("dot", "scaled_dot"):
        return queries @ keys.transpose(-2, -1), {}  # (..., n, m)
    if score == "cosine":
        q = queries / queries.norm(dim=-1, keepdim=True).clamp_min(_COSINE_EPS)  # (..., n, d)
        k = keys / keys.norm(dim=-1, keepdim=True).clamp_min(_COSINE_EPS)  # (..., m, d)
        return q @ k.transpose(-2, -1), {}
    if score == "general":
        seed = int(params.get("seed", 0))
        gen = torch.Generator().manual_seed(seed)
        W = _param(params, "W", random_weights(gen, (d_q, d_k), d_k), dtype)  # (d_q, d_k)
        return (queries @ W) @ keys.transpose(-2, -1), {"W": W, "seed": seed}
    if score == "additive":
        seed = int(params.get("seed", 0))
        h = _hidden_size(params, d_k)
        gen = torch.Generator().manual_seed(seed)
        # Always draw all three in this order, so editing one leaves the others unchanged.
        W_q = _param(params, "W_q", random_weights(gen, (h, d_q), d_q), dtype)  # (h, d_q)
        W_k = _param(params, "W_k", random_weights(gen, (h, d_k), d_k), dtype)  # (h, d_k)
        w_v = _param(params, "w_v", random_weights(gen, (h,), h), dtype)  # (h,)
        q_proj = queries @ W_q.T  # (..., n, h)
        k_proj = keys @ W_k.T  # (..., m, h)

        def additive(qb: torch.Tensor, kb: torch.Tensor) -> torch.Tensor:
            features = torch.tanh(qb[..., :, None, :] + kb[..., None, :, :])  # (..., b, m, h)
            return features @ w_v  # (..., b, m)

        scores = _blocked(q_proj, k_proj, h, additive)
        return scores, {"W_q": W_q, "W_k": W_k, "w_v": w_v, "h": h, "seed": seed}
    if score == "gaussian":
        sigma = float(params.get("sigma", 1.0))
        if not (math.isfinite(sigma) and sigma > 0):
            raise ValueError(f"sigma must be finite and > 0, got {sigma}")

        def gaussian(qb: torch.Tensor, kb: torch.Tensor) -> torch.Tensor:
            # The difference itself, not |q|^2 + |k|^2 - 2 q.k, which cancels badly.
            diff = qb[..., :, None, :] - kb[..., None, :, :]  # (..., b, m, d)
            return diff.square().sum(-1) / (-2.0 * sigma**2)  # (..., b, m)

        return _blocked(queries, keys, d_q, gaussian), {"sigma": sigma}
    raise ValueError(f"unknown score {score!r}: choose one of {', '.join(SCORES)}")


def _hidden_size(params: Mapping[str, Any], d_k: int) -> int:
    if params.get("h") is not None:
        h = int(params["h"])
    elif params.get("W_q") is not None:
        h = int(torch.as_tensor(params["W_q"]).shape[0])
    elif params.get("W_k") is not None:
        h = int(torch.as_tensor(params["W_k"]).shape[0])
    elif params.get("w_v") is not None:
        h = int(torch.as_tensor(params["w_v"]).shape[0])
    else:
        h = d_k
    if h < 1:
        raise ValueError(f"hidden size h must be at least 1, got {h}")
    return h


def attend(
    queries: torch.Tensor,
    keys: torch.Tensor,
    values: torch.Tensor,
    *,
    score: str = "scaled_dot",
    mask: torch.Tensor | None = None,
    valid_lens: torch.Tensor | Any = None,
    fill_value: float = -1e6,
    temperature: float = 1.0,
    params: Mapping[str, Any] | None = None,
) -> AttentionResult:
    """Attention of `queries` over `keys` and `values`, returning every step."""
    params = _checked_params(score, params, temperature, fill_value)
    queries, keys, values = checks.qkv(queries, keys, values)  # (..., n, d_q), (..., m, d_k/d_v)
    scores, used = _scores(score, queries, keys, params, float(temperature))  # (..., n, m)
    allowed = combine_masks(scores.shape, mask, valid_lens)
    # Nothing masked: the same tensor, so no second n x m matrix is made.
    masked_scores = scores if allowed is None else scores.masked_fill(~allowed, fill_value)
    weights = _softmax_allowed(scores, allowed, fill_value)  # (..., n, m)
    output = weights @ values  # (..., n, d_v)
    return AttentionResult(scores, masked_scores, weights, output, used, allowed)


def _checked_params(
    score: str, params: Mapping[str, Any] | None, temperature: float, fill_value: float
) -> dict[str, Any]:
    """`params` as a dict, once the score, its params, the temperature and the fill are known
    to be ones `attend` takes."""
    if score not in SCORES:
        raise ValueError(f"unknown score {score!r}: choose one of {', '.join(SCORES)}")
    params = dict(params or {})
    unknown = set(params) - SCORE_FUNCTIONS[score].params
    if unknown:
        known = ", ".join(sorted(SCORE_FUNCTIONS[score].params)) or "none"
        raise ValueError(
            f"unknown params for {score}: {', '.join(sorted(unknown))} (allowed: {known})"
        )
    temperature = float(temperature)
    if not (math.isfinite(temperature) and temperature > 0):
        raise ValueError(f"temperature must be finite and > 0, got {temperature}")
    checks.check_fill(fill_value)
    return params


def _scores(
    score: str,
    queries: torch.Tensor,
    keys: torch.Tensor,
    params: Mapping[str, Any],
    temperature: float,
) -> tuple[torch.Tensor, dict[str, Any]]:
    """(..., n, m) scores a(q, k) / temperature (and / sqrt(d_k) for scaled_dot), checked
    finite, and every parameter the scoring function used."""
    scale = 1.0 / temperature
    if score == "scaled_dot":
        scale /= math.sqrt(keys.shape[-1])
    if score in ("dot", "scaled_dot") and scale < 1.0:
        # Shrinking the queries (n x d) costs less than a pass over the scores (n x m), and a
        # factor below 1 cannot overflow them.
        scores, used = _raw_scores(score, queries * scale, keys, params)  # (..., n, m)
    else:
        scores, used = _raw_scores(score, queries, keys, params)  # (..., n, m)
        if scale != 1.0:
            scores.mul_(scale)  # in place: the benchmark allows no extra n x m matrix
    checks.finite_scores(score, queries, keys, scale, scores)
    return scores, used


def row_check(result: AttentionResult) -> tuple[float, int]:
    """(largest |row sum - 1| over rows with an allowed key, number of fully masked rows)."""
    sums = result.weights.sum(dim=-1)  # (..., n)
    if result.mask is None:
        has_key = torch.ones_like(sums, dtype=torch.bool)
    else:
        has_key = result.mask.any(dim=-1)  # (..., n)
    deviation = (sums[has_key] - 1).abs()
    return float(deviation.max()) if deviation.numel() else 0.0, int((~has_key).sum())
