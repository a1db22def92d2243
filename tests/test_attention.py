"""Tests for `attnviz.attention`: masks, masked softmax, scoring functions and `attend`.

References are written independently of the implementation: PyTorch's
`F.scaled_dot_product_attention`, explicit loops/einsums of each scoring formula, and
softmax in float64 with masked logits set to -inf.
"""

from __future__ import annotations

import dataclasses
import math
import re

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

from attnviz.attention import (
    SCORE_FUNCTIONS,
    AttentionResult,
    attend,
    causal_mask,
    masked_softmax,
)

SCORES = ["dot", "scaled_dot", "cosine", "general", "additive", "gaussian"]
SAME_D_SCORES = ["dot", "scaled_dot", "cosine", "gaussian"]  # need d_q == d_k
FLOAT_DTYPES = [torch.float32, torch.float64]
BATCHES = [(), (2,), (2, 3)]
# (n, m, d, d_v): n != m, d_q == d_k != d_v
SHAPES = [(3, 5, 4, 6), (5, 2, 8, 3), (1, 7, 2, 5)]
MASK_KINDS = ["none", "bool", "causal", "valid_seq", "valid_query"]

TOL = {
    torch.float32: {"rtol": 1e-5, "atol": 1e-5},
    torch.float64: {"rtol": 1e-10, "atol": 1e-10},
}


# --------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------


def gen(seed: int = 0) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def randn(*shape: int, g: torch.Generator, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    return torch.randn(shape, generator=g, dtype=dtype)


def reference_weights(scores: torch.Tensor, mask: torch.Tensor | None) -> torch.Tensor:
    """Softmax in float64 with masked logits at -inf (NaN in fully masked rows)."""
    s = scores.double()
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    return s.softmax(-1)


def full_mask(mask: torch.Tensor, shape: tuple[int, ...]) -> torch.Tensor:
    return mask.expand(shape)


def lens_to_mask(valid_lens: torch.Tensor, m: int, per_query: bool) -> torch.Tensor:
    """Bool mask equivalent to d2l's valid_lens (True = key position < valid_len)."""
    lens = valid_lens[..., None] if per_query else valid_lens[..., None, None]
    return torch.arange(m) < lens


def mentions(message: str, *numbers: int) -> bool:
    return all(re.search(rf"(?<!\d){n}(?!\d)", message) for n in numbers)


def make_mask(kind: str, batch: tuple[int, ...], n: int, m: int, g: torch.Generator):
    """Return (attend kwargs, equivalent bool mask or None, sdpa kwargs)."""
    if kind == "none":
        return {}, None, {}
    if kind == "bool":
        mask = torch.rand((*batch, n, m), generator=g) < 0.6
        if n >= 2:
            mask[..., 0, :] = False  # a fully masked row
        mask[..., -1, 0] = True  # and a row with an allowed key
        return {"mask": mask}, mask, {"attn_mask": mask}
    if kind == "causal":
        mask = causal_mask(n, m)
        return {"mask": mask}, torch.ones(n, m, dtype=torch.bool).tril(), {"is_causal": True}
    per_query = kind == "valid_query"
    lens_shape = (*batch, n) if per_query else batch
    valid_lens = torch.randint(0, m + 1, lens_shape, generator=g)
    flat = valid_lens.view(-1)
    if flat.numel() > 1:
        flat[0] = 0
    flat[-1] = m
    mask = lens_to_mask(valid_lens, m, per_query)
    return {"valid_lens": valid_lens}, mask, {"attn_mask": mask}


def check_against_sdpa(result, q, k, v, mask, sdpa_kwargs, tol) -> None:
    """Compare rows with an allowed key to SDPA; fully masked rows must be uniform/mean."""
    n, m = q.shape[-2], k.shape[-2]
    batch = torch.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    qb = q.expand(*batch, n, q.shape[-1])
    kb = k.expand(*batch, m, k.shape[-1])
    vb = v.expand(*batch, m, v.shape[-1])
    expected_out = F.scaled_dot_product_attention(qb, kb, vb, **sdpa_kwargs)
    raw = qb.double() @ kb.double().transpose(-1, -2) / math.sqrt(k.shape[-1])
    expected_w = reference_weights(raw, mask)

    shape = (*batch, n, m)
    fm = torch.ones(shape, dtype=torch.bool) if mask is None else full_mask(mask, shape)
    allowed = fm.any(-1)

    assert result.weights.shape == shape
    assert result.output.shape == (*batch, n, v.shape[-1])
    torch.testing.assert_close(result.output[allowed], expected_out[allowed], **tol)
    torch.testing.assert_close(
        result.weights[allowed], expected_w[allowed].to(result.weights.dtype), **tol
    )
    masked_in_allowed_rows = ~fm & allowed[..., None]
    assert (result.weights[masked_in_allowed_rows] == 0).all()

    if (~allowed).any():
        dead_w = result.weights[~allowed]
        torch.testing.assert_close(dead_w, torch.full_like(dead_w, 1 / m), **tol)
        mean_v = vb.mean(-2, keepdim=True).expand(*batch, n, v.shape[-1])
        torch.testing.assert_close(result.output[~allowed], mean_v[~allowed], **tol)


# --------------------------------------------------------------------------------------
# AttentionResult
# --------------------------------------------------------------------------------------


def test_attention_result_is_frozen_dataclass():
    g = gen()
    result = attend(randn(2, 3, g=g), randn(4, 3, g=g), randn(4, 5, g=g))
    assert isinstance(result, AttentionResult)
    assert dataclasses.is_dataclass(result)
    names = {f.name for f in dataclasses.fields(result)}
    assert {"scores", "masked_scores", "weights", "output", "params"} <= names
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.weights = result.scores  # type: ignore[misc]
    assert isinstance(result.params, dict)


# --------------------------------------------------------------------------------------
# scaled_dot parity with PyTorch's SDPA
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("mask_kind", MASK_KINDS)
@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=str)
@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_scaled_dot_matches_sdpa(shape, batch, dtype, mask_kind):
    n, m, d, dv = shape
    g = gen(sum(shape) + len(batch))
    q = randn(*batch, n, d, g=g, dtype=dtype)
    k = randn(*batch, m, d, g=g, dtype=dtype)
    v = randn(*batch, m, dv, g=g, dtype=dtype)
    kwargs, mask, sdpa_kwargs = make_mask(mask_kind, batch, n, m, g)

    result = attend(q, k, v, score="scaled_dot", **kwargs)

    assert result.weights.dtype == dtype
    assert result.output.dtype == dtype
    torch.testing.assert_close(
        result.scores, (q @ k.transpose(-1, -2)) / math.sqrt(d), **TOL[dtype]
    )
    check_against_sdpa(result, q, k, v, mask, sdpa_kwargs, TOL[dtype])


@pytest.mark.parametrize("mask_kind", ["none", "bool", "causal"])
def test_scaled_dot_broadcasts_batch_axes(mask_kind):
    n, m, d, dv = 4, 6, 5, 3
    g = gen(7)
    q = randn(2, 1, n, d, g=g)
    k = randn(1, 3, m, d, g=g)
    v = randn(1, 3, m, dv, g=g)
    kwargs, mask, sdpa_kwargs = make_mask(mask_kind, (2, 3), n, m, g)

    result = attend(q, k, v, **kwargs)  # scaled_dot is the default

    assert result.scores.shape == (2, 3, n, m)
    assert result.output.shape == (2, 3, n, dv)
    check_against_sdpa(result, q, k, v, mask, sdpa_kwargs, TOL[torch.float32])


@pytest.mark.parametrize("batch", BATCHES, ids=str)
def test_integer_inputs_become_float32(batch):
    n, m, d, dv = 3, 4, 4, 2
    g = gen(3)
    q = torch.randint(-3, 4, (*batch, n, d), generator=g)
    k = torch.randint(-3, 4, (*batch, m, d), generator=g)
    v = torch.randint(-3, 4, (*batch, m, dv), generator=g)

    result = attend(q, k, v, score="scaled_dot")

    for name in ("scores", "masked_scores", "weights", "output"):
        assert getattr(result, name).dtype == torch.float32, name
    check_against_sdpa(result, q.float(), k.float(), v.float(), None, {}, TOL[torch.float32])


@pytest.mark.parametrize(
    ("q_dtype", "kv_dtype", "expected"),
    [
        (torch.float64, torch.float32, torch.float64),
        (torch.float32, torch.float64, torch.float32),
        (torch.int64, torch.float64, torch.float32),
    ],
    ids=str,
)
def test_computed_in_query_dtype(q_dtype, kv_dtype, expected):
    g = gen(4)
    q = randn(3, 4, g=g, dtype=torch.float64).mul(3).round().to(q_dtype)
    k = randn(5, 4, g=g, dtype=kv_dtype)
    v = randn(5, 2, g=g, dtype=kv_dtype)
    result = attend(q, k, v)
    assert result.weights.dtype == expected
    assert result.output.dtype == expected
    ref = F.scaled_dot_product_attention(q.to(expected), k.to(expected), v.to(expected))
    torch.testing.assert_close(result.output, ref, **TOL[torch.float32])


@pytest.mark.parametrize("per_query", [False, True], ids=["per_sequence", "per_query"])
@pytest.mark.parametrize("batch", BATCHES, ids=str)
def test_attend_valid_lens_equals_bool_mask(batch, per_query):
    n, m, d = 3, 5, 4
    g = gen(11)
    q, k, v = randn(*batch, n, d, g=g), randn(*batch, m, d, g=g), randn(*batch, m, 2, g=g)
    lens_shape = (*batch, n) if per_query else batch
    valid_lens = torch.randint(0, m + 1, lens_shape, generator=g)
    mask = lens_to_mask(valid_lens, m, per_query)

    by_lens = attend(q, k, v, valid_lens=valid_lens)
    by_mask = attend(q, k, v, mask=mask)

    torch.testing.assert_close(by_lens.masked_scores, by_mask.masked_scores, rtol=0, atol=0)
    torch.testing.assert_close(by_lens.weights, by_mask.weights, rtol=0, atol=0)
    torch.testing.assert_close(by_lens.output, by_mask.output, rtol=0, atol=0)


# --------------------------------------------------------------------------------------
# causal_mask
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "m"), [(3, 5), (5, 3), (4, 4), (1, 6), (6, 1)])
def test_causal_mask_is_top_left_lower_triangle(n, m):
    mask = causal_mask(n, m)
    assert mask.dtype == torch.bool
    assert torch.equal(mask, torch.ones(n, m, dtype=torch.bool).tril())


@pytest.mark.parametrize("n", [1, 4])
def test_causal_mask_default_is_square(n):
    assert torch.equal(causal_mask(n), torch.ones(n, n, dtype=torch.bool).tril())


@pytest.mark.parametrize(("n", "m"), [(3, 5), (5, 3), (2, 7), (7, 2)])
def test_causal_mask_matches_sdpa_is_causal(n, m):
    g = gen(n * 10 + m)
    q, k, v = randn(2, n, 4, g=g), randn(2, m, 4, g=g), randn(2, m, 3, g=g)
    by_flag = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    by_mask = F.scaled_dot_product_attention(q, k, v, attn_mask=causal_mask(n, m))
    torch.testing.assert_close(by_mask, by_flag)


# --------------------------------------------------------------------------------------
# masked_softmax: d2l examples, mask/valid_lens combination, errors
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "valid_lens",
    [torch.tensor([2, 3]), torch.tensor([[1, 3], [2, 4]])],
    ids=["per_sequence", "per_query"],
)
def test_masked_softmax_d2l_examples(valid_lens):
    scores = torch.rand(2, 2, 4, generator=gen(0))
    weights = masked_softmax(scores, valid_lens=valid_lens)
    assert weights.shape == (2, 2, 4)
    lens = valid_lens[:, None].expand(2, 2) if valid_lens.dim() == 1 else valid_lens
    for b in range(2):
        for i in range(2):
            vl = int(lens[b, i])
            assert (weights[b, i, vl:] == 0).all()
            torch.testing.assert_close(weights[b, i, :vl], scores[b, i, :vl].softmax(-1))
            torch.testing.assert_close(weights[b, i].sum(), torch.tensor(1.0))


def test_masked_softmax_without_mask_is_softmax():
    scores = randn(2, 3, 5, g=gen(1))
    torch.testing.assert_close(masked_softmax(scores), scores.softmax(-1))


@pytest.mark.parametrize("per_query", [False, True], ids=["per_sequence", "per_query"])
def test_mask_and_valid_lens_combine_with_and(per_query):
    g = gen(2)
    b, n, m = 3, 4, 6
    scores = randn(b, n, m, g=g)
    mask = torch.rand(b, n, m, generator=g) < 0.7
    valid_lens = torch.randint(1, m + 1, (b, n) if per_query else (b,), generator=g)
    combined = mask & lens_to_mask(valid_lens, m, per_query)

    both = masked_softmax(scores, mask=mask, valid_lens=valid_lens)
    torch.testing.assert_close(both, masked_softmax(scores, mask=combined), rtol=0, atol=0)
    allowed = combined.any(-1)
    assert (both[~combined & allowed[..., None]] == 0).all()
    torch.testing.assert_close(both[allowed], reference_weights(scores, combined)[allowed].float())


def test_attend_mask_and_valid_lens_combine_with_and():
    g = gen(5)
    n, m, d = 4, 5, 3
    q, k, v = randn(2, n, d, g=g), randn(2, m, d, g=g), randn(2, m, 2, g=g)
    mask = torch.rand(2, n, m, generator=g) < 0.7
    valid_lens = torch.tensor([2, 4])
    combined = mask & lens_to_mask(valid_lens, m, per_query=False)
    both = attend(q, k, v, mask=mask, valid_lens=valid_lens)
    ref = attend(q, k, v, mask=combined)
    torch.testing.assert_close(both.weights, ref.weights, rtol=0, atol=0)
    torch.testing.assert_close(both.output, ref.output, rtol=0, atol=0)


def test_key_mask_applies_to_every_query():
    g = gen(6)
    scores = randn(2, 3, 5, g=g)
    key_mask = torch.tensor([True, False, True, True, False])
    expanded = key_mask.expand(2, 3, 5).clone()
    w = masked_softmax(scores, mask=key_mask)
    torch.testing.assert_close(w, masked_softmax(scores, mask=expanded), rtol=0, atol=0)
    assert (w[..., ~key_mask] == 0).all()
    torch.testing.assert_close(w.sum(-1), torch.ones(2, 3))

    q, k, v = randn(3, 4, g=g), randn(5, 4, g=g), randn(5, 2, g=g)
    a = attend(q, k, v, mask=key_mask)
    assert (a.weights[:, ~key_mask] == 0).all()
    torch.testing.assert_close(a.weights, attend(q, k, v, mask=expanded[0]).weights)


@pytest.mark.parametrize("bad", [-1, 6])
@pytest.mark.parametrize("per_query", [False, True], ids=["per_sequence", "per_query"])
def test_valid_lens_out_of_range_raises(bad, per_query):
    m = 5
    scores = randn(2, 3, m, g=gen(0))
    valid_lens = torch.full((2, 3) if per_query else (2,), 2)
    valid_lens.view(-1)[0] = bad
    with pytest.raises(ValueError):
        masked_softmax(scores, valid_lens=valid_lens)
    g = gen(1)
    with pytest.raises(ValueError):
        attend(randn(2, 3, 4, g=g), randn(2, m, 4, g=g), randn(2, m, 2, g=g), valid_lens=valid_lens)


@pytest.mark.parametrize("lens_shape", [(3,), (2, 4), (2, 3, 1), (1, 2)], ids=str)
def test_valid_lens_wrong_shape_raises(lens_shape):
    scores = randn(2, 3, 5, g=gen(0))
    with pytest.raises(ValueError):
        masked_softmax(scores, valid_lens=torch.ones(lens_shape, dtype=torch.long))


@pytest.mark.parametrize("fill", [float("nan"), float("inf")])
def test_bad_fill_value_raises(fill):
    g = gen(0)
    mask = torch.tensor([True, False, True])
    with pytest.raises(ValueError):
        masked_softmax(randn(2, 3, g=g), mask=mask, fill_value=fill)
    with pytest.raises(ValueError):
        attend(randn(2, 4, g=g), randn(3, 4, g=g), randn(3, 2, g=g), mask=mask, fill_value=fill)


# --------------------------------------------------------------------------------------
# numerical stability
# --------------------------------------------------------------------------------------


@st.composite
def masked_problems(draw):
    batch = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
    n, m = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    shape = (*batch, n, m)
    size = math.prod(shape)
    element = st.one_of(
        st.floats(-10.0, 10.0, width=32),
        st.sampled_from([-1e30, 1e30, -1e4, 1e4, 0.0, 5.0]),
    )
    dtype = draw(st.sampled_from(FLOAT_DTYPES))
    scores = torch.tensor(draw(st.lists(element, min_size=size, max_size=size)), dtype=dtype)
    mask_shape = draw(st.sampled_from([shape, (n, m), (m,)]))
    mask_size = math.prod(mask_shape)
    bits = draw(st.lists(st.booleans(), min_size=mask_size, max_size=mask_size))
    mask = torch.tensor(bits, dtype=torch.bool).reshape(mask_shape)
    fill = draw(st.sampled_from([-1e6, -1e9, float("-inf")]))
    return scores.reshape(shape), mask, fill


@settings(max_examples=300, deadline=None)
@given(masked_problems())
def test_masked_softmax_properties(problem):
    scores, mask, fill = problem
    shape = scores.shape
    m = shape[-1]
    w = masked_softmax(scores, mask=mask, fill_value=fill)

    assert w.shape == shape
    assert torch.isfinite(w).all()
    assert ((w >= 0) & (w <= 1)).all()
    fm = full_mask(mask, shape)
    allowed = fm.any(-1)
    assert (w[~fm & allowed[..., None]] == 0).all()
    if allowed.any():
        sums = w[allowed].double().sum(-1)
        torch.testing.assert_close(sums, torch.ones_like(sums), rtol=0, atol=1e-5)
        ref = reference_weights(scores, fm)[allowed]
        torch.testing.assert_close(w[allowed].double(), ref, rtol=0, atol=1e-5)
    dead = w[~allowed]
    expected = 0.0 if fill == float("-inf") else 1 / m
    torch.testing.assert_close(dead, torch.full_like(dead, expected))


@pytest.mark.parametrize("fill", [-1e6, -1e9, float("-inf")])
def test_masked_weight_exactly_zero_next_to_huge_negative_logits(fill):
    scores = torch.tensor([[-1e30, -1e30, 5.0], [1.0, -1e30, 2.0]])
    mask = torch.tensor([[True, True, False], [False, True, False]])
    w = masked_softmax(scores, mask=mask, fill_value=fill)
    assert torch.equal(w[~mask], torch.zeros(3))
    torch.testing.assert_close(w[0], torch.tensor([0.5, 0.5, 0.0]))
    torch.testing.assert_close(w[1], torch.tensor([0.0, 1.0, 0.0]))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=str)
@pytest.mark.parametrize("big", [1e4, 1e30])
def test_huge_logits_stay_finite(big, dtype):
    scores = torch.tensor(
        [[big, 0.0, -big], [big, big, -big], [-big, -big, -big], [big, big / 2, 0.0]], dtype=dtype
    )
    w = masked_softmax(scores)
    assert torch.isfinite(w).all()
    torch.testing.assert_close(w.sum(-1), torch.ones(4, dtype=dtype))
    expected = torch.tensor(
        [[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [1 / 3, 1 / 3, 1 / 3], [1.0, 0.0, 0.0]], dtype=dtype
    )
    torch.testing.assert_close(w, expected)


@pytest.mark.parametrize("score", ["dot", "scaled_dot"])
def test_attend_with_scores_of_1e4_is_finite(score):
    d = 4
    q = torch.full((2, d), 100.0)
    q[1] *= -1
    k = torch.tensor([[50.0] * d, [0.0] * d, [-50.0] * d])
    v = randn(3, 2, g=gen(0))
    result = attend(q, k, v, score=score)
    assert result.scores.abs().max() >= 1e4
    assert torch.isfinite(result.weights).all()
    assert torch.isfinite(result.output).all()
    torch.testing.assert_close(result.weights.sum(-1), torch.ones(2))
    torch.testing.assert_close(result.weights, torch.tensor([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]))


@pytest.mark.parametrize(
    ("score", "key_sign"), [("dot", 1), ("scaled_dot", 1), ("general", 1), ("gaussian", -1)]
)
def test_overflowing_scores_raise(score, key_sign):
    d = 4
    q = torch.full((2, d), 1e30)
    k = torch.full((3, d), key_sign * 1e30)
    v = torch.ones(3, 2)
    with pytest.raises(ValueError, match=r"(?i)too large"):
        attend(q, k, v, score=score)


def test_cosine_with_a_tiny_temperature_overflows_with_a_message():
    g = gen(0)
    q, k, v = randn(2, 4, g=g), randn(3, 4, g=g), randn(3, 2, g=g)
    with pytest.raises(ValueError, match=r"(?i)too large"):
        attend(q, k, v, score="cosine", temperature=1e-300)


@pytest.mark.parametrize("masked", [False, True])
def test_masked_softmax_in_place_matches_and_reuses_the_scores(masked):
    g = gen(1)
    scores = randn(2, 3, 5, g=g)
    mask = causal_mask(3, 5) if masked else None
    expected = masked_softmax(scores, mask)
    buffer = scores.clone()
    weights = masked_softmax(buffer, mask, inplace=True)
    assert weights.data_ptr() == buffer.data_ptr()
    torch.testing.assert_close(weights, expected)


# --------------------------------------------------------------------------------------
# masked_scores and fill values
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("score", SCORES)
def test_masked_scores_is_scores_when_nothing_masked(score):
    g = gen(0)
    result = attend(randn(2, 3, 4, g=g), randn(2, 5, 4, g=g), randn(2, 5, 2, g=g), score=score)
    assert result.masked_scores is result.scores


@pytest.mark.parametrize("fill", [-1e6, -1e9, -5.0, float("-inf")])
def test_masked_scores_hold_fill_value(fill):
    g = gen(1)
    n, m = 4, 5
    q, k, v = randn(2, n, 3, g=g), randn(2, m, 3, g=g), randn(2, m, 2, g=g)
    mask = torch.rand(2, n, m, generator=g) < 0.5
    mask[0, 0] = False
    mask[1, 1] = True
    result = attend(q, k, v, mask=mask, fill_value=fill)

    assert torch.equal(result.masked_scores[mask], result.scores[mask])
    filled = result.masked_scores[~mask]
    assert torch.equal(filled, torch.full_like(filled, fill))
    assert not torch.isnan(result.weights).any()
    assert not torch.isnan(result.output).any()
    allowed = mask.any(-1)
    assert (result.weights[~mask & allowed[..., None]] == 0).all()
    dead = result.weights[0, 0]
    expected = 0.0 if fill == float("-inf") else 1 / m
    torch.testing.assert_close(dead, torch.full_like(dead, expected))
    torch.testing.assert_close(result.output, result.weights @ v)


# --------------------------------------------------------------------------------------
# scoring functions against hand-written formulas
# --------------------------------------------------------------------------------------


def loop_scores(fn, q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    """scores[b, i, j] = fn(q[b, i], k[b, j]) for 3-d q and k."""
    rows = [
        [[fn(q[b, i], k[b, j]) for j in range(k.shape[1])] for i in range(q.shape[1])]
        for b in range(q.shape[0])
    ]
    return torch.tensor(rows, dtype=q.dtype)


def check_scores(result, expected: torch.Tensor, v: torch.Tensor) -> None:
    torch.testing.assert_close(result.scores, expected)
    torch.testing.assert_close(result.weights, expected.softmax(-1))
    torch.testing.assert_close(result.output, expected.softmax(-1) @ v)


def qkv(d_q: int, d_k: int, seed: int = 0, n: int = 3, m: int = 4, dv: int = 2):
    g = gen(seed)
    dt = torch.float64
    q = randn(2, n, d_q, g=g, dtype=dt)
    k = randn(2, m, d_k, g=g, dtype=dt)
    return q, k, randn(2, m, dv, g=g, dtype=dt)


def test_dot_score_formula():
    q, k, v = qkv(5, 5)
    expected = loop_scores(lambda a, b: float(sum(a[t] * b[t] for t in range(5))), q, k)
    check_scores(attend(q, k, v, score="dot"), expected, v)


def test_scaled_dot_score_formula():
    q, k, v = qkv(6, 6)
    expected = loop_scores(lambda a, b: float(a @ b) / math.sqrt(6), q, k)
    check_scores(attend(q, k, v, score="scaled_dot"), expected, v)


def test_general_score_formula_with_given_w():
    d_q, d_k = 3, 5
    q, k, v = qkv(d_q, d_k, seed=1)
    W = randn(d_q, d_k, g=gen(9), dtype=torch.float64)
    expected = loop_scores(lambda a, b: float(a @ W @ b), q, k)
    result = attend(q, k, v, score="general", params={"W": W})
    check_scores(result, expected, v)
    assert torch.equal(result.params["W"], W)
    assert torch.allclose(result.scores, torch.einsum("bip,pq,bjq->bij", q, W, k))


def test_general_score_formula_with_default_w():
    d_q, d_k = 4, 2
    q, k, v = qkv(d_q, d_k, seed=2)
    result = attend(q, k, v, score="general")
    W = result.params["W"]
    assert W.shape == (d_q, d_k)
    assert "seed" in result.params
    expected = loop_scores(lambda a, b: float(a @ W.to(a.dtype) @ b), q, k)
    check_scores(result, expected, v)


def test_additive_score_formula_with_given_params():
    d_q, d_k, h = 3, 5, 7
    q, k, v = qkv(d_q, d_k, seed=3)
    g = gen(10)
    W_q = randn(h, d_q, g=g, dtype=torch.float64)
    W_k = randn(h, d_k, g=g, dtype=torch.float64)
    w_v = randn(h, g=g, dtype=torch.float64)
    expected = loop_scores(lambda a, b: float(w_v @ torch.tanh(W_q @ a + W_k @ b)), q, k)

    result = attend(q, k, v, score="additive", params={"W_q": W_q, "W_k": W_k, "w_v": w_v})

    check_scores(result, expected, v)
    assert result.params["h"] == h
    assert torch.equal(result.params["W_q"], W_q)
    assert torch.equal(result.params["W_k"], W_k)
    assert torch.equal(result.params["w_v"], w_v)


def test_additive_score_formula_with_default_params():
    d_q, d_k = 4, 6
    q, k, v = qkv(d_q, d_k, seed=4)
    result = attend(q, k, v, score="additive")
    p = result.params
    assert {"W_q", "W_k", "w_v", "h", "seed"} <= set(p)
    assert p["h"] == d_k
    assert p["W_q"].shape == (d_k, d_q)
    assert p["W_k"].shape == (d_k, d_k)
    assert p["w_v"].shape == (d_k,)
    W_q, W_k, w_v = (p[name].to(torch.float64) for name in ("W_q", "W_k", "w_v"))
    expected = loop_scores(lambda a, b: float(w_v @ torch.tanh(W_q @ a + W_k @ b)), q, k)
    check_scores(result, expected, v)


def test_cosine_score_matches_f_cosine_similarity():
    q, k, v = qkv(4, 4, seed=5)
    q[0, 1] = 0.0  # a zero query vector: similarity 0, never NaN
    expected = loop_scores(lambda a, b: float(F.cosine_similarity(a, b, dim=-1, eps=1e-8)), q, k)
    result = attend(q, k, v, score="cosine")
    assert not torch.isnan(result.scores).any()
    assert torch.equal(result.scores[0, 1], torch.zeros(4, dtype=q.dtype))
    check_scores(result, expected, v)


def test_cosine_score_with_zero_key_vector_is_zero():
    q, k, v = qkv(4, 4, seed=6)
    k[1, 2] = 0.0
    result = attend(q.float(), k.float(), v.float(), score="cosine")
    assert not torch.isnan(result.scores).any()
    assert torch.equal(result.scores[1, :, 2], torch.zeros(3))
    assert torch.isfinite(result.weights).all()


@pytest.mark.parametrize("sigma", [None, 0.5, 2.0])
def test_gaussian_score_formula(sigma):
    q, k, v = qkv(3, 3, seed=7)
    s = 1.0 if sigma is None else sigma
    expected = loop_scores(
        lambda a, b: -float(sum((a[t] - b[t]) ** 2 for t in range(3))) / (2 * s**2), q, k
    )
    params = None if sigma is None else {"sigma": sigma}
    result = attend(q, k, v, score="gaussian", params=params)
    check_scores(result, expected, v)
    assert result.params["sigma"] == s


@pytest.mark.parametrize("temperature", [0.5, 2.0, 10.0])
@pytest.mark.parametrize("score", SCORES)
def test_temperature_divides_scores(score, temperature):
    q, k, v = qkv(4, 4, seed=8)
    base = attend(q, k, v, score=score)
    hot = attend(q, k, v, score=score, temperature=temperature, params=base.params)
    expected = base.scores / temperature
    check_scores(hot, expected, v)


@pytest.mark.parametrize("score", SCORES)
def test_output_is_weights_times_values(score):
    q, k, v = qkv(4, 4, seed=12, n=5, m=3, dv=6)
    result = attend(q.float(), k.float(), v.float(), score=score)
    assert result.scores.shape == (2, 5, 3)
    assert result.output.shape == (2, 5, 6)
    torch.testing.assert_close(result.output, result.weights @ v.float())
    torch.testing.assert_close(result.weights.sum(-1), torch.ones(2, 5))


# --------------------------------------------------------------------------------------
# params: seeding, reproduction, shapes, validation
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("score", ["general", "additive"])
def test_default_params_are_seeded(score):
    q, k, v = qkv(3, 5, seed=13)
    q, k, v = q.float(), k.float(), v.float()
    first = attend(q, k, v, score=score)
    again = attend(q, k, v, score=score)
    seed0 = attend(q, k, v, score=score, params={"seed": 0})
    seed1 = attend(q, k, v, score=score, params={"seed": 1})
    assert torch.equal(first.scores, again.scores)
    assert torch.equal(first.scores, seed0.scores)
    assert first.params["seed"] == 0
    assert seed1.params["seed"] == 1
    assert not torch.equal(first.scores, seed1.scores)
    for name, tensor in first.params.items():
        if isinstance(tensor, torch.Tensor):
            assert torch.equal(tensor, again.params[name]), name
            assert not torch.equal(tensor, seed1.params[name]), name


@pytest.mark.parametrize("score", SCORES)
def test_result_params_reproduce_result_exactly(score):
    d_q, d_k = (3, 5) if score in ("general", "additive") else (4, 4)
    q, k, v = qkv(d_q, d_k, seed=14)
    q, k, v = q.float(), k.float(), v.float()
    first_params = {"seed": 3} if score in ("general", "additive") else None
    first = attend(q, k, v, score=score, params=first_params)
    again = attend(q, k, v, score=score, params=first.params)
    assert torch.equal(first.scores, again.scores)
    assert torch.equal(first.weights, again.weights)
    assert torch.equal(first.output, again.output)


@pytest.mark.parametrize(
    ("given", "h"), [("W_q", 5), ("W_k", 6), ("w_v", 9)], ids=["W_q", "W_k", "w_v"]
)
def test_additive_h_inferred_from_given_tensor(given, h):
    d_q, d_k = 3, 4
    q, k, v = qkv(d_q, d_k, seed=15)
    shapes = {"W_q": (h, d_q), "W_k": (h, d_k), "w_v": (h,)}
    tensor = randn(*shapes[given], g=gen(1), dtype=torch.float64)
    result = attend(q, k, v, score="additive", params={given: tensor})
    assert result.params["h"] == h
    for name, shape in shapes.items():
        assert tuple(result.params[name].shape) == shape, name
    assert torch.equal(result.params[given], tensor)


@pytest.mark.parametrize("h", [1, 7, 32])
def test_additive_h_param_sets_hidden_size(h):
    d_q, d_k = 3, 5
    q, k, v = qkv(d_q, d_k, seed=16)
    result = attend(q, k, v, score="additive", params={"h": h})
    assert result.params["h"] == h
    assert result.params["W_q"].shape == (h, d_q)
    assert result.params["W_k"].shape == (h, d_k)
    assert result.params["w_v"].shape == (h,)


def test_additive_default_draws_have_fan_in_std():
    h, d_q, d_k = 4096, 64, 32
    g = gen(0)
    q, k, v = randn(2, d_q, g=g), randn(3, d_k, g=g), randn(3, 2, g=g)
    p = attend(q, k, v, score="additive", params={"h": h}).params
    for name, fan_in in (("W_q", d_q), ("W_k", d_k), ("w_v", h)):
        tensor = p[name].double()
        expected = 1 / math.sqrt(fan_in)
        assert abs(tensor.std().item() - expected) < 0.1 * expected, name
        assert abs(tensor.mean().item()) < 0.1 * expected, name


def test_general_default_draw_has_fan_in_std():
    d = 64
    g = gen(0)
    q, k, v = randn(2, d, g=g), randn(3, d, g=g), randn(3, 2, g=g)
    W = attend(q, k, v, score="general").params["W"].double()
    assert abs(W.std().item() - 1 / 8) < 0.1 / 8
    assert abs(W.mean().item()) < 0.1 / 8


@pytest.mark.parametrize("score", SCORES)
def test_unknown_params_key_raises(score):
    q, k, v = qkv(4, 4, seed=17)
    with pytest.raises(ValueError):
        attend(q, k, v, score=score, params={"bogus": 1.0})


@pytest.mark.parametrize(
    ("score", "params"),
    [
        ("general", {"W": torch.zeros(5, 3)}),
        ("general", {"W": torch.zeros(3)}),
        ("additive", {"W_q": torch.zeros(4, 5)}),
        ("additive", {"W_k": torch.zeros(4, 3)}),
        ("additive", {"W_q": torch.zeros(4, 3), "W_k": torch.zeros(6, 5)}),
        ("additive", {"W_q": torch.zeros(4, 3), "w_v": torch.zeros(5)}),
        ("additive", {"h": 4, "W_q": torch.zeros(6, 3)}),
        ("additive", {"w_v": torch.zeros(4, 1)}),
    ],
    ids=lambda x: x if isinstance(x, str) else ",".join(x),
)
def test_wrong_param_shape_raises(score, params):
    q, k, v = qkv(3, 5, seed=18)  # d_q = 3, d_k = 5
    params = {name: t.double() if isinstance(t, torch.Tensor) else t for name, t in params.items()}
    with pytest.raises(ValueError):
        attend(q, k, v, score=score, params=params)


# --------------------------------------------------------------------------------------
# shape and argument errors
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("score", SAME_D_SCORES)
def test_mismatched_feature_sizes_raise_naming_both(score):
    g = gen(0)
    q, k, v = randn(2, 5, g=g), randn(4, 7, g=g), randn(4, 3, g=g)
    with pytest.raises(ValueError) as info:
        attend(q, k, v, score=score)
    assert mentions(str(info.value), 5, 7), str(info.value)


@pytest.mark.parametrize("score", SCORES)
def test_keys_values_length_mismatch_raises(score):
    g = gen(0)
    q, k, v = randn(2, 3, g=g), randn(5, 3, g=g), randn(7, 3, g=g)
    with pytest.raises(ValueError) as info:
        attend(q, k, v, score=score)
    assert mentions(str(info.value), 5, 7), str(info.value)


def test_unbroadcastable_batch_axes_raise():
    g = gen(0)
    with pytest.raises(ValueError):
        attend(randn(2, 3, 4, g=g), randn(3, 5, 4, g=g), randn(3, 5, 2, g=g))


def test_unbroadcastable_mask_raises():
    g = gen(0)
    q, k, v = randn(3, 4, g=g), randn(5, 4, g=g), randn(5, 2, g=g)
    with pytest.raises(ValueError):
        attend(q, k, v, mask=torch.ones(6, dtype=torch.bool))


@pytest.mark.parametrize("score", ["bilinear", ""])
def test_unknown_score_raises(score):
    g = gen(0)
    with pytest.raises(ValueError):
        attend(randn(2, 3, g=g), randn(4, 3, g=g), randn(4, 2, g=g), score=score)


@pytest.mark.parametrize("temperature", [0.0, -1.0, float("inf"), float("nan")])
def test_bad_temperature_raises(temperature):
    g = gen(0)
    with pytest.raises(ValueError):
        attend(randn(2, 3, g=g), randn(4, 3, g=g), randn(4, 2, g=g), temperature=temperature)


def test_masked_softmax_is_differentiable_with_a_mask():
    scores = torch.randn(3, 4, generator=gen(2), requires_grad=True)
    weights = masked_softmax(scores, causal_mask(3, 4))
    (weights * torch.arange(4.0)).sum().backward()
    assert scores.grad is not None
    assert torch.isfinite(scores.grad).all()
    assert (scores.grad[~causal_mask(3, 4)] == 0).all()


@pytest.mark.parametrize("name", list(SCORE_FUNCTIONS))
def test_the_score_registry_says_what_attend_does(name: str) -> None:
    """One registry of scoring functions: its sizes rule and parameter keys are attend's."""
    fn = SCORE_FUNCTIONS[name]
    q, k, v = torch.randn(2, 3), torch.randn(4, 5), torch.randn(4, 2)
    if fn.equal_sizes:
        with pytest.raises(ValueError, match=f"{fn.called} scoring needs equal sizes"):
            attend(q, k, v, score=name)
    else:
        assert attend(q, k, v, score=name).scores.shape == (2, 4)
    square = torch.randn(4, 3)
    used = attend(q, square, v, score=name).params
    assert set(used) <= fn.params
    with pytest.raises(ValueError, match="unknown"):
        attend(q, square, v, score=name, params={"nonsense": 1})
    assert fn.label == f"score.{name}" and tuple(SCORES) == tuple(SCORE_FUNCTIONS)
    assert fn.equal_sizes == (name in SAME_D_SCORES)
