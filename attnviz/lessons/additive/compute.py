"""The additive attention lesson's computation (Bahdanau et al. 2015; d2l 11.3; PML1 15.4).

Shape letters: n queries of size d_q (the paper's q), m keys of size d_k (k), values of size
d_v, hidden size h. Scores, weights and outputs come from `attend`; the projections and one
query's tanh features are the one-liners below.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from attnviz import parsing
from attnviz.attention import AttentionResult, attend
from attnviz.inputs import random_qkv

PARAMS = ("W_q", "W_k", "w_v")


@dataclass(frozen=True)
class Sizes:
    """The sizes and seeds chosen in the sidebar."""

    n: int
    m: int
    d_q: int
    d_k: int
    d_v: int
    seed: int
    h: int
    param_seed: int


@dataclass(frozen=True)
class Params:
    """W_q (h, d_q), W_k (h, d_k), w_v (h,) and the texts they were parsed from."""

    tensors: dict[str, torch.Tensor]
    texts: tuple[str, ...]


@dataclass(frozen=True)
class Results:
    """Both scoring functions on the same inputs, and the intermediate steps."""

    sizes: Sizes
    queries: torch.Tensor  # (n, d_q)
    keys: torch.Tensor  # (m, d_k)
    values: torch.Tensor  # (m, d_v)
    q_proj: torch.Tensor  # (n, h)
    k_proj: torch.Tensor  # (m, h)
    additive: AttentionResult  # scores / weights (n, m), output (n, d_v)
    dot: AttentionResult  # scaled dot-product of q_proj and k_proj


def project(x: torch.Tensor, W: torch.Tensor) -> torch.Tensor:
    """Rows of x (r, d) mapped by W (h, d) to (r, h), as W x per row."""
    return x @ W.T  # (r, h)


def features(q_proj: torch.Tensor, k_proj: torch.Tensor, query: int) -> torch.Tensor:
    """tanh(W_q q_i + W_k k_j) for every key j: (m, h)."""
    return torch.tanh(q_proj[query] + k_proj)  # (m, h)


def seeded_params(h: int, d_q: int, d_k: int, seed: int) -> dict[str, torch.Tensor]:
    """The W_q (h, d_q), W_k (h, d_k), w_v (h,) that `attend` draws for this seed."""
    # attend is the one place parameters are drawn; its draw depends on the sizes only.
    used = attend(
        torch.zeros(1, d_q),
        torch.zeros(1, d_k),
        torch.zeros(1, 1),
        score="additive",
        params={"h": h, "seed": seed},
    ).params
    return {name: used[name] for name in PARAMS}


def param_texts(params: dict[str, torch.Tensor]) -> dict[str, str]:
    """Text-area contents that parse back to exactly these float32 values (w_v as one row)."""
    return {
        "W_q": parsing.format_matrix(params["W_q"]),
        "W_k": parsing.format_matrix(params["W_k"]),
        "w_v": parsing.format_matrix(params["w_v"][None, :]),
    }


def _shape_text(shape: tuple[int, ...]) -> str:
    return " × ".join(str(s) for s in shape)


def parse_param(name: str, text: str, sizes: Sizes) -> torch.Tensor:
    """One parameter from its text; InputError naming expected and found shape if it misfits."""
    matrix = parsing.parse_matrix(text)
    if name == "w_v":
        # A row or a column of h numbers both read as the vector w_v.
        if 1 in matrix.shape and matrix.numel() == sizes.h:
            return matrix.reshape(-1)  # (h,)
        expected = f"1 × {sizes.h} (h = {sizes.h} numbers)"
    else:
        d = sizes.d_q if name == "W_q" else sizes.d_k
        letter = "q" if name == "W_q" else "k"
        if tuple(matrix.shape) == (sizes.h, d):
            return matrix  # (h, d)
        expected = f"h × {letter} = {sizes.h} × {d}"
    raise parsing.InputError(
        "additive_shape", name=name, found=_shape_text(tuple(matrix.shape)), expected=expected
    )


def compute(sizes: Sizes, params: Params) -> Results:
    """Additive attention and, for comparison, scaled dot-product of the projected inputs."""
    queries, keys, values = random_qkv(
        sizes.n, sizes.m, sizes.d_q, sizes.d_k, sizes.d_v, sizes.seed
    )  # (n, d_q), (m, d_k), (m, d_v)
    additive = attend(queries, keys, values, score="additive", params=params.tensors)
    q_proj = project(queries, additive.params["W_q"])  # (n, h)
    k_proj = project(keys, additive.params["W_k"])  # (m, h)
    # tanh saturates, so additive scores survive huge parameters; the comparison would not.
    if not (torch.isfinite(q_proj).all() and torch.isfinite(k_proj).all()):
        raise parsing.InputError("additive_overflow")
    dot = attend(q_proj, k_proj, values, score="scaled_dot")
    return Results(sizes, queries, keys, values, q_proj, k_proj, additive, dot)
