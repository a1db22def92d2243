"""The Playground's computation against torch and the scoring functions written out: every
score at every temperature, the masks from the sidebar (valid lengths, causal, hand-picked
cells) as `F.scaled_dot_product_attention` applies them, and the messages for inputs that do
not fit."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pytest
import torch
import torch.nn.functional as F

from attnviz.errors import InputError
from attnviz.inputs import QKV
from attnviz.lessons.playground.compute import AttentionChoice, compute

PLAIN = AttentionChoice(
    score="scaled_dot",
    temperature=1.0,
    params={},
    fill_value=-1e6,
    causal=False,
    valid_lens_text="",
    blocked=frozenset(),
)


def inputs(n: int, m: int, d_q: int, d_k: int, d_v: int, seed: int = 0) -> QKV:
    gen = torch.Generator().manual_seed(seed)
    queries = torch.randn(n, d_q, generator=gen, dtype=torch.float64)
    keys = torch.randn(m, d_k, generator=gen, dtype=torch.float64)
    values = torch.randn(m, d_v, generator=gen, dtype=torch.float64)
    return QKV.numbered(queries, keys, values)


def reference_scores(
    score: str, q: torch.Tensor, k: torch.Tensor, params: dict[str, Any]
) -> torch.Tensor:
    """a(q_i, k_j) for every i, j, as each scoring function is defined: (n, m)."""
    if score == "dot":
        return q @ k.T
    if score == "scaled_dot":
        return q @ k.T / math.sqrt(q.shape[-1])
    if score == "cosine":
        return F.cosine_similarity(q[:, None, :], k[None, :, :], dim=-1)
    if score == "general":
        return torch.einsum("ia,ab,jb->ij", q, params["W"], k)
    if score == "gaussian":
        return -(torch.cdist(q, k) ** 2) / (2 * params["sigma"] ** 2)
    assert score == "additive"
    hidden = (q @ params["W_q"].T)[:, None, :] + (k @ params["W_k"].T)[None, :, :]  # (n, m, h)
    return torch.tanh(hidden) @ params["w_v"]


def given_params(score: str, d_q: int, d_k: int) -> dict[str, Any]:
    gen = torch.Generator().manual_seed(7)
    h = 5
    table: dict[str, dict[str, Any]] = {
        "dot": {},
        "scaled_dot": {},
        "cosine": {},
        "general": {"W": torch.randn(d_q, d_k, generator=gen, dtype=torch.float64)},
        "gaussian": {"sigma": 1.7},
        "additive": {
            "W_q": torch.randn(h, d_q, generator=gen, dtype=torch.float64),
            "W_k": torch.randn(h, d_k, generator=gen, dtype=torch.float64),
            "w_v": torch.randn(h, generator=gen, dtype=torch.float64),
        },
    }
    return table[score]


@pytest.mark.parametrize("temperature", [0.5, 1.0, 3.0])
@pytest.mark.parametrize("score", ["dot", "scaled_dot", "cosine", "general", "gaussian"])
def test_every_score_at_every_temperature(score, temperature):
    qkv = inputs(3, 5, 4, 4, 2)
    params = given_params(score, 4, 4)
    choice = replace(PLAIN, score=score, temperature=temperature, params=params)
    result = compute(qkv, choice, score)
    scores = reference_scores(score, qkv.queries, qkv.keys, params) / temperature  # (n, m)
    weights = torch.softmax(scores, dim=-1)
    torch.testing.assert_close(result.scores, scores)
    torch.testing.assert_close(result.weights, weights)
    torch.testing.assert_close(result.output, weights @ qkv.values)
    assert result.mask is None


@pytest.mark.parametrize("temperature", [0.5, 2.0])
def test_scaled_dot_product_matches_torch(temperature):
    qkv = inputs(4, 6, 8, 8, 3)
    result = compute(qkv, replace(PLAIN, temperature=temperature), "scaled dot-product")
    scale = 1 / (math.sqrt(8) * temperature)
    expected = F.scaled_dot_product_attention(qkv.queries, qkv.keys, qkv.values, scale=scale)
    torch.testing.assert_close(result.output, expected)


@pytest.mark.parametrize("score", ["general", "additive"])
def test_general_and_additive_take_queries_and_keys_of_different_sizes(score):
    qkv = inputs(3, 4, 2, 5, 3)
    params = given_params(score, 2, 5)
    result = compute(qkv, replace(PLAIN, score=score, params=params), score)
    weights = torch.softmax(reference_scores(score, qkv.queries, qkv.keys, params), dim=-1)
    torch.testing.assert_close(result.weights, weights)
    torch.testing.assert_close(result.output, weights @ qkv.values)


def hand_mask(n: int, m: int, lens: list[int] | None, causal: bool, blocked: set) -> torch.Tensor:
    """(n, m) True = may attend, cell by cell."""
    allowed = torch.ones(n, m, dtype=torch.bool)
    for i in range(n):
        for j in range(m):
            too_far = lens is not None and j >= lens[i]
            allowed[i, j] = not too_far and not (causal and j > i) and (i, j) not in blocked
    return allowed


MASKS = [  # (valid lengths typed, the length of each of the 4 queries, causal, blocked cells)
    ("3", [3, 3, 3, 3], False, set()),
    ("1, 4, 2, 5", [1, 4, 2, 5], False, set()),
    ("", None, True, set()),
    ("", None, False, {(0, 1), (2, 2), (3, 0)}),
    ("2, 5, 5, 3", [2, 5, 5, 3], True, {(1, 1), (2, 0)}),
]


@pytest.mark.parametrize(("lens_text", "lens", "causal", "blocked"), MASKS)
def test_masks_from_the_sidebar_match_torch(lens_text, lens, causal, blocked):
    n, m = 4, 5
    qkv = inputs(n, m, 3, 3, 2, seed=1)
    choice = replace(PLAIN, valid_lens_text=lens_text, causal=causal, blocked=frozenset(blocked))
    result = compute(qkv, choice, "scaled dot-product")
    allowed = hand_mask(n, m, lens, causal, blocked)
    torch.testing.assert_close(result.mask, allowed)
    # torch's bool attn_mask: True = takes part, as ours.
    expected = F.scaled_dot_product_attention(qkv.queries, qkv.keys, qkv.values, attn_mask=allowed)
    torch.testing.assert_close(result.output, expected)
    assert (result.weights[~allowed] == 0).all()
    assert (result.masked_scores[~allowed] == -1e6).all()


@pytest.mark.parametrize(("fill", "row"), [(-1e6, 0.25), (-1e9, 0.25), (-math.inf, 0.0)])
def test_a_query_with_no_key_left(fill, row):
    # Query 1's only key after the causal mask (k0, k1) are both blocked by hand.
    qkv = inputs(3, 4, 2, 2, 2, seed=2)
    choice = replace(PLAIN, fill_value=fill, causal=True, blocked=frozenset({(1, 0), (1, 1)}))
    result = compute(qkv, choice, "scaled dot-product")
    assert not torch.isnan(result.weights).any()
    torch.testing.assert_close(result.weights[1], torch.full((4,), row, dtype=torch.float64))
    assert (result.masked_scores[1] == fill).all()
    # The other rows: softmax over their allowed keys, as torch computes them.
    allowed = hand_mask(3, 4, None, True, {(1, 0), (1, 1)})
    expected = F.scaled_dot_product_attention(qkv.queries, qkv.keys, qkv.values, attn_mask=allowed)
    torch.testing.assert_close(result.output[[0, 2]], expected[[0, 2]])


def test_values_need_one_row_per_key():
    qkv = QKV.numbered(torch.randn(2, 3), torch.randn(4, 3), torch.randn(5, 2))
    with pytest.raises(InputError) as info:
        compute(qkv, PLAIN, "scaled dot-product")
    assert info.value.key == "values_rows"
    assert str(info.value).startswith("Values (5 × 2) have 5 rows but keys (4 × 3) have 4")


@pytest.mark.parametrize("score", ["dot", "scaled_dot", "cosine", "gaussian"])
def test_scores_that_need_equal_sizes_name_both_shapes(score):
    qkv = inputs(2, 4, 3, 5, 2)
    with pytest.raises(InputError) as info:
        compute(qkv, replace(PLAIN, score=score), "the chosen score")
    assert info.value.key == "sizes"
    assert str(info.value).startswith(
        "Keys (4 × 5) have 5 columns but queries (2 × 3) have 3: the chosen score needs equal "
    )


@pytest.mark.parametrize("text", ["6", "1, 2", "x"])
def test_valid_lengths_that_do_not_fit_are_refused(text):
    with pytest.raises(InputError) as info:
        compute(inputs(3, 5, 2, 2, 2), replace(PLAIN, valid_lens_text=text), "s")
    assert info.value.key == "valid_lens"


def test_an_unknown_score_is_a_value_error():
    with pytest.raises(ValueError, match="unknown score"):
        compute(inputs(2, 3, 2, 2, 2), replace(PLAIN, score="softmax_dot"), "?")
