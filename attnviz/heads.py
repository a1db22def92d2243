"""Multi-head self-attention and sinusoidal positional encodings, in pure torch.

Follows Vaswani et al. 2017, "Attention Is All You Need" (sections 3.2.2 and 3.5), and d2l
11.5 (multi-head attention) / 11.6 (self-attention and positional encoding). Shape letters:
B... optional leading batch axes, T tokens, h heads, d_model the model width, d_head =
d_model / h the width of one head.

Projections are written as in the paper, multiplied on the right: Q = X W_q + b_q with W_q of
shape (d_model, d_model), and head i uses the columns i*d_head .. (i+1)*d_head - 1 (the paper's
W_i^Q). `torch.nn.MultiheadAttention` stores the transposes: in_proj_weight =
cat(W_q.T, W_k.T, W_v.T), in_proj_bias = cat(b_q, b_k, b_v), out_proj = (W_o.T, b_o).
Mask convention as everywhere in attnviz: a bool tensor, True = may attend.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from attnviz.attention import causal_mask, combine_masks, masked_softmax

WEIGHT_NAMES: tuple[str, ...] = ("W_q", "W_k", "W_v", "W_o")
BIAS_NAMES: tuple[str, ...] = ("b_q", "b_k", "b_v", "b_o")
_PARAM_KEYS = frozenset({*WEIGHT_NAMES, *BIAS_NAMES, "seed"})
_PE_BASE = 10000.0  # the paper's wavelength base


@dataclass(frozen=True)
class MultiHeadResult:
    """Every step of one multi-head self-attention computation."""

    output: torch.Tensor  # (B..., T, d_model) concat @ W_o + b_o
    weights: torch.Tensor  # (B..., h, T, T) softmax weights of each head
    head_outputs: torch.Tensor  # (B..., h, T, d_head) each head's weights @ values
    concat: torch.Tensor  # (B..., T, d_model) the heads side by side, before W_o
    params: dict[str, Any] = field(default_factory=dict)
    mask: torch.Tensor | None = None  # (B..., h, T, T) combined bool mask, True = may attend


def positional_encoding(T: int, d_model: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """Sinusoidal encodings: PE[t, 2i] = sin(t / 10000^(2i/d)), PE[t, 2i+1] = cos(same)."""
    if T < 0 or d_model < 1:
        raise ValueError(f"positional encodings need T >= 0 and d_model >= 1, got {T}, {d_model}")
    # Angles in float64: for i = 0 the angle is t itself, and float32 loses sin's digits as
    # t grows.
    positions = torch.arange(T, dtype=torch.float64)[:, None]  # (T, 1)
    even = torch.arange(0, d_model, 2, dtype=torch.float64)  # (ceil(d/2),) = 2i
    angles = positions / _PE_BASE ** (even / d_model)  # (T, ceil(d/2))
    pe = torch.empty(T, d_model, dtype=torch.float64)  # (T, d_model)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles[:, : d_model // 2])  # an odd d_model has one sine more
    return pe.to(dtype)


def embed_tokens(tokens: Sequence[str], d_model: int, seed: int = 0) -> torch.Tensor:
    """One seeded N(0, 1) vector per distinct token string: (T, d_model).

    Each vector depends only on (seed, token, d_model), so the same word gets the same vector
    wherever it stands, in any sentence: without positional encodings, self-attention cannot
    tell two occurrences apart (it is permutation-equivariant).
    """
    if d_model < 1:
        raise ValueError(f"d_model must be at least 1, got {d_model}")
    vectors: dict[str, torch.Tensor] = {}
    for token in tokens:
        if token not in vectors:
            # A stable digest, not hash(): Python salts str hashes per process.
            digest = hashlib.sha256(f"{seed}\x00{token}".encode()).digest()
            gen = torch.Generator().manual_seed(int.from_bytes(digest[:8], "little") >> 1)
            vectors[token] = torch.randn(d_model, generator=gen)  # (d_model,)
    if not tokens:
        return torch.empty(0, d_model)
    return torch.stack([vectors[token] for token in tokens])  # (T, d_model)


def _check_heads(d_model: int, num_heads: int) -> int:
    if num_heads < 1:
        raise ValueError(f"num_heads must be at least 1, got {num_heads}")
    if d_model % num_heads:
        raise ValueError(
            f"d_model = {d_model} cannot be split into {num_heads} heads: d_model must be "
            f"divisible by the number of heads (d_head = d_model / heads)"
        )
    return d_model // num_heads


def init_params(
    d_model: int, seed: int = 0, params: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """W_q, W_k, W_v, W_o (d_model, d_model) ~ N(0, 1/d_model), biases ~ N(0, 0.1^2).

    Given tensors in `params` replace the drawn ones (all eight are always drawn in the same
    order, so replacing one leaves the others unchanged); unknown keys raise ValueError.
    """
    params = dict(params or {})
    unknown = set(params) - _PARAM_KEYS
    if unknown:
        raise ValueError(
            f"unknown params: {', '.join(sorted(unknown))} "
            f"(allowed: {', '.join(sorted(_PARAM_KEYS))})"
        )
    seed = int(params.get("seed", seed))
    shapes: dict[str, tuple[int, ...]] = {name: (d_model, d_model) for name in WEIGHT_NAMES}
    shapes |= {name: (d_model,) for name in BIAS_NAMES}
    drawn: dict[str, torch.Tensor] = {}
    # Passing a result's params back is the common case: then nothing needs drawing.
    if any(params.get(name) is None for name in shapes):
        gen = torch.Generator().manual_seed(seed)
        for name in WEIGHT_NAMES:
            drawn[name] = torch.randn(d_model, d_model, generator=gen) / math.sqrt(d_model)
        for name in BIAS_NAMES:
            drawn[name] = 0.1 * torch.randn(d_model, generator=gen)
    used: dict[str, Any] = {"seed": seed}
    for name, shape in shapes.items():
        given = params.get(name)
        value = drawn[name] if given is None else torch.as_tensor(given)
        if value.shape != shape:
            raise ValueError(
                f"{name} has shape {tuple(value.shape)} but shape {shape} is needed for "
                f"d_model = {d_model}"
            )
        used[name] = value
    return used


def multi_head_attention(
    x: torch.Tensor,
    *,
    num_heads: int,
    params: Mapping[str, Any] | None = None,
    seed: int = 0,
    mask: torch.Tensor | None = None,
    causal: bool = False,
) -> MultiHeadResult:
    """Multi-head self-attention of `x` (B..., T, d_model): Q = K = V = X, h scaled-dot heads.

    `mask` (bool, True = may attend) broadcasts to (B..., T, T) and is shared by every head;
    `causal` ANDs the lower-triangular mask into it. `params` as returned in the result
    reproduce it; missing ones are drawn from `seed` (see `init_params`).
    """
    x = torch.as_tensor(x)
    if x.ndim < 2:
        raise ValueError(f"x must have shape (..., T, d_model), got {tuple(x.shape)}")
    if not x.is_floating_point():
        x = x.to(torch.float32)
    *lead, T, d_model = x.shape
    d_head = _check_heads(d_model, num_heads)
    used = init_params(d_model, seed, params)
    p = {name: used[name].to(x.dtype) for name in (*WEIGHT_NAMES, *BIAS_NAMES)}

    queries, keys, values = _project(x, p, num_heads, d_head)  # (B..., h, T, d_head) each
    allowed = _heads_mask(mask, causal, T)
    # Scaled dot-product attention as `attend` computes it, but without keeping the scores:
    # the softmax overwrites them (as torch's own fused path does), one (h, T, T) buffer a call.
    scores = (queries * (1.0 / math.sqrt(d_head))) @ keys.transpose(-2, -1)  # (B..., h, T, T)
    allowed = combine_masks(scores.shape, allowed)  # (B..., h, T, T) or None
    weights = masked_softmax(scores, allowed, inplace=True)  # (B..., h, T, T)
    head_outputs = weights @ values  # (B..., h, T, d_head)
    concat = head_outputs.transpose(-3, -2).reshape(*lead, T, d_model)  # (B..., T, d_model)
    output = torch.addmm(p["b_o"], concat.reshape(-1, d_model), p["W_o"])  # (B*T, d_model)
    # Overflowing scores end as NaN in the output: one check of a small tensor.
    if not torch.isfinite(output.sum()):
        raise ValueError(
            "the attention overflowed to infinity or NaN: the inputs or weights are too large "
            "(scale them down)"
        )
    return MultiHeadResult(
        output=output.reshape(*lead, T, d_model),  # (B..., T, d_model)
        weights=weights,
        head_outputs=head_outputs,
        concat=concat,
        params=used,
        mask=allowed,
    )


def _project(
    x: torch.Tensor, p: Mapping[str, torch.Tensor], num_heads: int, d_head: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Q, K and V of x (B..., T, d_model), each (B..., h, T, d_head): the heads a batch axis."""
    *lead, T, d_model = x.shape

    def split(projected: torch.Tensor) -> torch.Tensor:
        # (B..., T, d_model) -> (B..., h, T, d_head): heads become a batch axis of `attend`.
        return projected.unflatten(-1, (num_heads, d_head)).transpose(-3, -2)

    # One matmul for Q, K and V together (as in_proj_weight): a third of the calls.
    W_qkv = torch.cat([p["W_q"], p["W_k"], p["W_v"]], dim=1)  # (d_model, 3 d_model)
    b_qkv = torch.cat([p["b_q"], p["b_k"], p["b_v"]])  # (3 d_model,)
    qkv = torch.addmm(b_qkv, x.reshape(-1, d_model), W_qkv)  # (B*T, 3 d_model)
    queries, keys, values = qkv.reshape(*lead, T, 3 * d_model).chunk(3, dim=-1)
    return split(queries), split(keys), split(values)  # (B..., h, T, d_head)


def _heads_mask(mask: torch.Tensor | None, causal: bool, T: int) -> torch.Tensor | None:
    """`mask` with a heads axis where it has a batch axis, ANDed with the causal mask if asked;
    None when neither is given."""
    allowed = None
    if mask is not None:
        if not isinstance(mask, torch.Tensor) or mask.dtype != torch.bool:
            raise ValueError("mask must be a bool tensor (True = may attend)")
        # A (B, T, T) mask gets a heads axis; (T, T) and (T,) broadcast as they are.
        allowed = mask.unsqueeze(-3) if mask.ndim >= 3 else mask
    if causal:
        lower = causal_mask(T)  # (T, T)
        allowed = lower if allowed is None else allowed & lower
    return allowed


def torch_mha(
    params: Mapping[str, torch.Tensor], d_model: int, num_heads: int
) -> torch.nn.MultiheadAttention:
    """torch's own nn.MultiheadAttention holding these weights (`multi_head_attention`'s
    params; torch stores the transposes: x @ W.T), in inference mode: the reference the tests
    and benchmarks compare against."""
    mha = torch.nn.MultiheadAttention(d_model, num_heads, batch_first=True)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([params["W_q"].T, params["W_k"].T, params["W_v"].T]))
        mha.in_proj_bias.copy_(torch.cat([params["b_q"], params["b_k"], params["b_v"]]))
        mha.out_proj.weight.copy_(params["W_o"].T)
        mha.out_proj.bias.copy_(params["b_o"])
    return mha.train(False)
