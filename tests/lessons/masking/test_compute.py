"""The masking page's backend: its inputs through `attend`, against d2l and hand-built masks."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from attnviz.attention import build_mask, row_check
from attnviz.lessons.masking import compute
from attnviz.parsing import parse_valid_lens

FILLS = [-1e6, -1e9, -math.inf]


def d2l_masked_softmax(X: torch.Tensor, valid_lens: torch.Tensor) -> torch.Tensor:
    """d2l 11.3's masked_softmax (valid_lens of shape (B,)), written out as the book does."""
    shape = X.shape
    valid = torch.repeat_interleave(valid_lens, shape[1])  # (B * n,)
    X = X.reshape(-1, shape[-1]).clone()
    maxlen = X.size(1)
    mask = torch.arange(maxlen, dtype=torch.float32)[None, :] < valid[:, None]
    X[~mask] = -1e6
    return torch.softmax(X.reshape(shape), dim=-1)


def hand_mask(lens: list[int], m: int, causal: bool, blocked: set[tuple[int, int]]) -> np.ndarray:
    """The combined mask (B, m, m) cell by cell, True = may attend."""
    out = np.zeros((len(lens), m, m), dtype=bool)
    for b, length in enumerate(lens):
        for i in range(m):
            for j in range(m):
                out[b, i, j] = j < length and (not causal or j <= i) and (i, j) not in blocked
    return out


def run(lens: list[int], m: int, *, causal=False, blocked=frozenset(), fill=-1e6, seed=0):
    inputs = compute.batch_inputs(len(lens), m, seed)  # (B, m, d), the page's inputs
    lens_t = parse_valid_lens(", ".join(map(str, lens)), len(lens), m, each="sequence")
    return inputs, compute.run(
        inputs, lens_t, build_mask(m, m, causal=causal, blocked=blocked), fill
    )


def test_fit_lens_text_keeps_numbers_caps_them_and_fills_new_sequences():
    assert compute.fit_lens_text("4, 6, 2", 5, 6) == "4, 6, 2, 6, 6"
    assert compute.fit_lens_text("4, 6, 2", 2, 3) == "3, 3"
    assert compute.fit_lens_text("x, 1", 2, 8) == "8, 1"


def test_batch_inputs_are_seeded_and_have_the_batch_shape():
    x = compute.batch_inputs(3, 6, seed=7)
    assert x.shape == (3, 6, compute.D)
    torch.testing.assert_close(x, compute.batch_inputs(3, 6, seed=7))
    assert not torch.equal(x, compute.batch_inputs(3, 6, seed=8))


# --- valid_lens with d2l semantics, on the whole batch ---


@pytest.mark.parametrize("lens", [[4, 6, 2], [1, 3], [6, 6, 6, 6], [2, 5, 1, 3, 6, 4]])
def test_valid_lens_match_d2l_on_the_batch(lens):
    m = 6
    inputs, result = run(lens, m)
    scores = inputs @ inputs.transpose(-2, -1) / math.sqrt(compute.D)  # (B, m, m)
    torch.testing.assert_close(result.scores, scores)
    expected = d2l_masked_softmax(scores, torch.tensor(lens))
    torch.testing.assert_close(result.weights, expected)
    for b, length in enumerate(lens):
        assert (result.weights[b, :, length:] == 0).all()  # exactly 0, not just small
        assert (result.masked_scores[b, :, length:] == -1e6).all()
    torch.testing.assert_close(result.weights.sum(-1), torch.ones(len(lens), m))
    torch.testing.assert_close(result.output, result.weights @ inputs)


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("blocked", [frozenset(), frozenset({(3, 0), (4, 1), (2, 2)})])
def test_padding_causal_and_cells_combine_like_a_hand_built_mask(causal, blocked):
    lens, m = [5, 3, 6], 6
    inputs, result = run(lens, m, causal=causal, blocked=blocked)
    allowed = hand_mask(lens, m, causal, set(blocked))
    np.testing.assert_array_equal(result.mask.numpy(), allowed)
    scores = (inputs @ inputs.transpose(-2, -1) / 2.0).numpy()  # (B, m, m), sqrt(d) = 2
    for b in range(len(lens)):
        for i in range(m):
            row = allowed[b, i]
            expected = np.zeros(m)
            if row.any():
                e = np.exp(scores[b, i, row] - scores[b, i, row].max())
                expected[row] = e / e.sum()
            else:
                expected[:] = 1 / m
            np.testing.assert_allclose(result.weights[b, i].numpy(), expected, rtol=1e-5, atol=1e-7)
    for b in range(len(lens)):
        np.testing.assert_array_equal(compute.combined_mask(result, b).numpy(), allowed[b])


@pytest.mark.parametrize("fill", FILLS)
def test_fully_masked_rows_at_every_fill_value(fill):
    # Sequence 1 has valid length 0; in the other two the causal mask and a hand-picked (0, 0)
    # (shared by the batch) leave query 0 no key.
    lens, m = [4, 0, 5], 5
    _, result = run(lens, m, causal=True, blocked=frozenset({(0, 0)}), fill=fill)
    assert not torch.isnan(result.weights).any() and not torch.isnan(result.output).any()
    expected_row = torch.zeros(m) if fill == -math.inf else torch.full((m,), 1 / m)
    for row in result.weights[1]:
        torch.testing.assert_close(row, expected_row)
    torch.testing.assert_close(result.weights[0, 0], expected_row)
    torch.testing.assert_close(result.weights[2, 0], expected_row)
    assert (result.masked_scores[1] == fill).all()
    deviation, fully = row_check(result)
    assert fully == m + 2 and deviation < 1e-6
    assert row_check(compute.sequence_result(result, 1)) == (0.0, m)
    assert row_check(compute.sequence_result(result, 0))[1] == 1
    assert row_check(compute.sequence_result(result, 2))[1] == 1


def test_mask_reasons_name_every_mask_that_hides_a_cell():
    reasons = compute.mask_reasons(3, 4, causal=True, blocked=frozenset({(3, 1)}))
    assert reasons[0, 0] == ()
    assert reasons[0, 1] == ("causal",)
    assert reasons[3, 1] == ("cell",)
    assert reasons[1, 3] == ("padding", "causal")
    assert reasons[3, 3] == ("padding",)
    _, result = run([3], 4, causal=True, blocked=frozenset({(3, 1)}))
    empty = np.vectorize(len)(reasons) == 0
    np.testing.assert_array_equal(empty, compute.combined_mask(result, 0).numpy())
