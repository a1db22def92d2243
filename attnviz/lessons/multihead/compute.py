"""The multi-head lesson's computation: the tokens of a sentence, seeded embeddings plus
sinusoidal positions, and one multi-head self-attention layer (attnviz.heads)."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from attnviz import parsing
from attnviz.heads import MultiHeadResult, embed_tokens, multi_head_attention, positional_encoding

MAX_TOKENS = 32
# 12 and 3 are there so that a combination can fail: with powers of two alone, h always
# divides d_model and the rule d_head = d_model / h would never show.
D_MODELS: tuple[int, ...] = (8, 12, 16, 32, 64)
HEAD_COUNTS: tuple[int, ...] = (1, 2, 3, 4, 8)


@dataclass(frozen=True)
class MultiHeadChoice:
    """What the controls hold."""

    text: str
    d_model: int
    heads: int
    positional: bool
    causal: bool
    seed: int


@dataclass(frozen=True)
class MultiHeadView:
    """The tokens, the inputs and the result of one run of the page."""

    tokens: list[str]
    found: int  # tokens in the text before truncation to MAX_TOKENS
    pe: torch.Tensor  # (T, d_model)
    x: torch.Tensor  # (T, d_model) embeddings (+ PE when positional)
    result: MultiHeadResult


def tokenize(text: str) -> tuple[list[str], int]:
    """Lower-cased whitespace tokens, at most MAX_TOKENS, and how many the text had."""
    tokens = text.lower().split()
    if not tokens:
        raise parsing.InputError("multihead_empty")
    return tokens[:MAX_TOKENS], len(tokens)


def run(
    tokens: list[str], d_model: int, heads: int, positional: bool, causal: bool, seed: int
) -> tuple[torch.Tensor, torch.Tensor, MultiHeadResult]:
    """(PE, X, result) exactly as the page computes them; tests call it as the reference."""
    pe = positional_encoding(len(tokens), d_model)  # (T, d_model)
    x = embed_tokens(tokens, d_model, seed)  # (T, d_model)
    if positional:
        x = x + pe
    return pe, x, multi_head_attention(x, num_heads=heads, seed=seed, causal=causal)


def compute(choice: MultiHeadChoice) -> MultiHeadView:
    """Tokens -> inputs -> multi-head attention; InputError for the page on bad input."""
    tokens, found = tokenize(choice.text)
    if choice.d_model % choice.heads:
        options = ", ".join(str(h) for h in HEAD_COUNTS if choice.d_model % h == 0)
        raise parsing.InputError(
            "multihead_heads", d_model=choice.d_model, heads=choice.heads, options=options
        )
    pe, x, result = run(
        tokens, choice.d_model, choice.heads, choice.positional, choice.causal, choice.seed
    )
    return MultiHeadView(tokens, found, pe, x, result)


def duplicate(tokens: list[str]) -> tuple[int, int] | None:
    """The positions of the first word that occurs twice."""
    seen: dict[str, int] = {}
    for j, token in enumerate(tokens):
        if token in seen:
            return seen[token], j
        seen[token] = j
    return None


def head_slices(view: MultiHeadView, head: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Head `head`'s queries, keys and values, each (T, d_head): Q_i = X W_q^(i) + b_q^(i) with
    W_q^(i) the columns head * d_head .. (head + 1) * d_head - 1 of W_q and b_q^(i) the same
    entries of b_q (and likewise K_i, V_i), as attnviz.heads computes them."""
    params, x = view.result.params, view.x  # x: (T, d_model)
    h = view.result.weights.shape[0]
    if not 0 <= head < h:
        raise ValueError(f"head must lie in 0..{h - 1}, got {head}")
    d_head = x.shape[-1] // h
    cols = slice(head * d_head, (head + 1) * d_head)

    def project(name: str) -> torch.Tensor:
        weight, bias = params[f"W_{name}"][:, cols], params[f"b_{name}"][cols]
        return x @ weight.to(x.dtype) + bias.to(x.dtype)  # (T, d_head)

    return project("q"), project("k"), project("v")
