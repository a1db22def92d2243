"""attnviz.heads against torch.nn.MultiheadAttention and the sinusoid formula written out."""

from __future__ import annotations

import math

import pytest
import torch

from attnviz.attention import causal_mask
from attnviz.heads import (
    MultiHeadResult,
    embed_tokens,
    init_params,
    multi_head_attention,
    positional_encoding,
    torch_mha,
)

SIZES = [(1, 8, 1), (5, 8, 2), (6, 16, 4), (7, 12, 3), (16, 32, 8), (9, 64, 8)]


@pytest.mark.parametrize(("T", "d_model", "heads"), SIZES)
@pytest.mark.parametrize("causal", [False, True])
def test_parity_with_torch_multihead_attention(T, d_model, heads, causal):
    gen = torch.Generator().manual_seed(T * 100 + d_model)
    x = torch.randn(3, T, d_model, generator=gen)  # (B, T, d_model)
    ours = multi_head_attention(x, num_heads=heads, seed=7, causal=causal)
    mha = torch_mha(ours.params, d_model, heads)
    # torch's bool masks mean True = BLOCKED, ours True = may attend.
    blocked = ~causal_mask(T) if causal else None
    with torch.no_grad():
        output, weights = mha(
            x, x, x, attn_mask=blocked, need_weights=True, average_attn_weights=False
        )
    torch.testing.assert_close(ours.output, output, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(ours.weights, weights, rtol=1e-5, atol=1e-6)
    assert ours.weights.shape == (3, heads, T, T)
    assert ours.head_outputs.shape == (3, heads, T, d_model // heads)
    assert ours.concat.shape == ours.output.shape == (3, T, d_model)
    if causal:
        assert (ours.weights.triu(diagonal=1) == 0).all()


def test_parity_with_a_key_padding_mask_and_unbatched_input():
    T, d_model, heads = 6, 16, 4
    x = torch.randn(T, d_model, generator=torch.Generator().manual_seed(1))  # (T, d_model)
    keep = torch.tensor([True, True, True, True, False, False])  # (T,) keys that exist
    ours = multi_head_attention(x, num_heads=heads, mask=keep, causal=True)
    mha = torch_mha(ours.params, d_model, heads)
    with torch.no_grad():
        output, weights = mha(
            x[None], x[None], x[None],
            attn_mask=~causal_mask(T),
            key_padding_mask=~keep[None],
            need_weights=True,
            average_attn_weights=False,
        )  # fmt: skip
    torch.testing.assert_close(ours.output, output[0], rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(ours.weights, weights[0], rtol=1e-5, atol=1e-6)
    assert ours.weights.shape == (heads, T, T)


def test_concat_and_heads_follow_the_definition():
    """head_i = softmax(Q_i K_i^T / sqrt(d_head)) V_i on column slice i; output = concat W_o + b."""
    T, d_model, heads = 5, 12, 3
    d_head = d_model // heads
    x = torch.randn(T, d_model, generator=torch.Generator().manual_seed(2))
    result = multi_head_attention(x, num_heads=heads, seed=3)
    p = result.params
    q, k, v = (x @ p[f"W_{n}"] + p[f"b_{n}"] for n in "qkv")  # (T, d_model)
    for i in range(heads):
        cols = slice(i * d_head, (i + 1) * d_head)
        w = torch.softmax(q[:, cols] @ k[:, cols].T / math.sqrt(d_head), dim=-1)  # (T, T)
        torch.testing.assert_close(result.weights[i], w)
        torch.testing.assert_close(result.head_outputs[i], w @ v[:, cols])
        torch.testing.assert_close(result.concat[:, cols], w @ v[:, cols])
    torch.testing.assert_close(result.output, result.concat @ p["W_o"] + p["b_o"])


def test_params_reproduce_the_result_and_seeds_differ():
    x = torch.randn(4, 8)
    first = multi_head_attention(x, num_heads=2, seed=5)
    again = multi_head_attention(x, num_heads=2, params=first.params)
    torch.testing.assert_close(again.output, first.output, rtol=0, atol=0)
    other = multi_head_attention(x, num_heads=2, seed=6)
    assert not torch.allclose(other.output, first.output)
    assert isinstance(first, MultiHeadResult) and first.params["seed"] == 5
    # One given matrix leaves the other drawn ones unchanged.
    edited = init_params(8, 5, {"W_o": torch.eye(8)})
    torch.testing.assert_close(edited["W_q"], first.params["W_q"])
    torch.testing.assert_close(edited["W_o"], torch.eye(8))


def test_positional_encoding_matches_the_formula():
    for T, d in [(1, 8), (6, 16), (32, 64), (5, 7)]:
        expected = torch.empty(T, d, dtype=torch.float64)
        for t in range(T):
            for i in range(d):
                angle = t / 10000 ** ((i - i % 2) / d)  # 2i for both columns of a pair
                expected[t, i] = math.sin(angle) if i % 2 == 0 else math.cos(angle)
        pe = positional_encoding(T, d)
        assert pe.shape == (T, d) and pe.dtype == torch.float32
        torch.testing.assert_close(pe, expected.float(), rtol=0, atol=1e-6)
    # Position 0 is (0, 1, 0, 1, ...).
    torch.testing.assert_close(positional_encoding(3, 4)[0], torch.tensor([0.0, 1.0, 0.0, 1.0]))


def test_embeddings_are_per_word_and_seeded():
    tokens = ["the", "cat", "sat", "on", "the", "mat"]
    e = embed_tokens(tokens, 16, seed=0)
    assert e.shape == (6, 16)
    torch.testing.assert_close(e[0], e[4], rtol=0, atol=0)
    assert not torch.allclose(e[0], e[1])
    # A word's vector does not depend on the sentence around it, only on the seed.
    torch.testing.assert_close(embed_tokens(["mat"], 16, seed=0)[0], e[5], rtol=0, atol=0)
    assert not torch.allclose(embed_tokens(tokens, 16, seed=1), e)


@pytest.mark.parametrize("heads", [1, 2, 4])
def test_permutation_equivariance_without_positions(heads):
    tokens = ["the", "cat", "sat", "on", "the", "mat", "today"]
    perm = torch.tensor([3, 0, 6, 5, 1, 4, 2])
    x = embed_tokens(tokens, 8, seed=0)  # (T, d_model), no positions
    x_perm = embed_tokens([tokens[i] for i in perm], 8, seed=0)
    torch.testing.assert_close(x_perm, x[perm])
    base = multi_head_attention(x, num_heads=heads)
    permuted = multi_head_attention(x_perm, num_heads=heads)
    torch.testing.assert_close(permuted.output, base.output[perm], rtol=1e-5, atol=1e-6)
    # Weights permute along both axes: row i -> perm, key j -> perm.
    torch.testing.assert_close(
        permuted.weights, base.weights[:, perm][:, :, perm], rtol=1e-5, atol=1e-6
    )
    # The two "the" tokens get identical rows of weights.
    torch.testing.assert_close(base.weights[:, 0], base.weights[:, 4], rtol=0, atol=1e-7)
    # Positional encodings break the symmetry.
    with_pe = multi_head_attention(x + positional_encoding(7, 8), num_heads=heads)
    assert (with_pe.weights[:, 0] - with_pe.weights[:, 4]).abs().max() > 1e-3


@pytest.mark.parametrize(("d_model", "heads"), [(16, 3), (8, 3), (12, 8), (10, 4)])
def test_heads_must_divide_d_model(d_model, heads):
    with pytest.raises(ValueError, match=rf"d_model = {d_model} cannot be split into {heads}"):
        multi_head_attention(torch.randn(4, d_model), num_heads=heads)


def test_bad_arguments_raise_clear_errors():
    x = torch.randn(4, 8)
    with pytest.raises(ValueError, match="num_heads must be at least 1"):
        multi_head_attention(x, num_heads=0)
    with pytest.raises(ValueError, match="unknown params: W"):
        multi_head_attention(x, num_heads=2, params={"W": torch.eye(8)})
    with pytest.raises(ValueError, match=r"W_q has shape \(4, 4\)"):
        multi_head_attention(x, num_heads=2, params={"W_q": torch.eye(4)})
    with pytest.raises(ValueError, match="bool tensor"):
        multi_head_attention(x, num_heads=2, mask=torch.ones(4, 4))
    with pytest.raises(ValueError, match="shape"):
        multi_head_attention(torch.randn(8), num_heads=2)


def test_overflowing_inputs_raise_instead_of_nan():
    x = torch.full((4, 8), 1e30)
    with pytest.raises(ValueError, match="too large"):
        multi_head_attention(x, num_heads=2)
