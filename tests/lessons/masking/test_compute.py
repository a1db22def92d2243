"""The masking page's backend: its inputs through `attend`, against d2l and hand-built masks."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from attnviz.attention import row_check
from attnviz.parsing import InputError
from attnviz.ui import masking as view

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
    inputs = view.batch_inputs(len(lens), m, seed)  # (B, m, d), the page's inputs
    lens_t = view.parse_lens(", ".join(map(str, lens)), len(lens), m)
    return inputs, view.compute(inputs, lens_t, view.build_mask(m, causal, blocked), fill)


# --- parsing the valid lengths ---


@pytest.mark.parametrize(
    ("text", "batch", "expected"),
    [("4, 6, 2", 3, [4, 6, 2]), ("4 6 2", 3, [4, 6, 2]), (" 0,6 ", 2, [0, 6]), ("06", 1, [6])],
)
def test_parse_lens_accepts_one_whole_number_per_sequence(text, batch, expected):
    lens = view.parse_lens(text, batch, 6)
    assert lens.dtype == torch.int64 and lens.tolist() == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4, 6", "'4, 6': 2 number(s) for 3 sequences; type exactly one whole number between"),
        ("", "'': 0 number(s) for 3 sequences"),
        ("4, 7, 2", "'7' (sequence 1) is not allowed; each valid length is a whole number between"),
        ("4, -1, 2", "'-1' (sequence 1) is not allowed"),
        ("4, 2.5, 2", "'2.5' (sequence 1)"),
        ("4, two, 2", "'two' (sequence 1)"),
        ("4,,2", "'' (sequence 1)"),
        ("4, 2, " + "9" * 5000, "(sequence 2) is not allowed"),
    ],
)  # fmt: skip
def test_parse_lens_names_the_value_and_the_range(text, message):
    with pytest.raises(InputError) as err:
        view.parse_lens(text, 3, 6)
    assert message in str(err.value)
    assert "between 0 and 6" in str(err.value)
    assert len(str(err.value)) < 200  # a 5,000-digit token is shortened


def test_fit_lens_text_keeps_numbers_caps_them_and_fills_new_sequences():
    assert view.fit_lens_text("4, 6, 2", 5, 6) == "4, 6, 2, 6, 6"
    assert view.fit_lens_text("4, 6, 2", 2, 3) == "3, 3"
    assert view.fit_lens_text("x, 1", 2, 8) == "8, 1"


def test_batch_inputs_are_seeded_and_have_the_batch_shape():
    x = view.batch_inputs(3, 6, seed=7)
    assert x.shape == (3, 6, view.D)
    torch.testing.assert_close(x, view.batch_inputs(3, 6, seed=7))
    assert not torch.equal(x, view.batch_inputs(3, 6, seed=8))


# --- valid_lens with d2l semantics, on the whole batch ---


@pytest.mark.parametrize("lens", [[4, 6, 2], [1, 3], [6, 6, 6, 6], [2, 5, 1, 3, 6, 4]])
def test_valid_lens_match_d2l_on_the_batch(lens):
    m = 6
    inputs, result = run(lens, m)
    scores = inputs @ inputs.transpose(-2, -1) / math.sqrt(view.D)  # (B, m, m)
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
        np.testing.assert_array_equal(view.combined_mask(result, b).numpy(), allowed[b])


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
    assert row_check(view.sequence_result(result, 1)) == (0.0, m)
    assert row_check(view.sequence_result(result, 0))[1] == 1
    assert row_check(view.sequence_result(result, 2))[1] == 1


def test_mask_reasons_name_every_mask_that_hides_a_cell():
    reasons = view.mask_reasons(3, 4, causal=True, blocked=frozenset({(3, 1)}))
    assert reasons[0, 0] == ""
    assert reasons[0, 1] == "causal"
    assert reasons[3, 1] == "hand-picked"
    assert reasons[1, 3] == "padding, causal"
    assert reasons[3, 3] == "padding"
    _, result = run([3], 4, causal=True, blocked=frozenset({(3, 1)}))
    np.testing.assert_array_equal(reasons == "", view.combined_mask(result, 0).numpy())


def test_figures_carry_the_sequence_and_its_mask():
    lens, m = [4, 6, 2], 6
    _, result = run(lens, m, causal=True)
    figs = view.step_figures(result, 2)
    scores = np.asarray(figs[view.FIG_SCORES].data[0].z)
    np.testing.assert_allclose(scores, result.scores[2].numpy(), rtol=1e-6)
    weights = np.asarray(figs[view.FIG_WEIGHTS].data[0].z, dtype=float)
    allowed = hand_mask(lens, m, True, set())[2]
    assert np.isnan(weights[~allowed]).all()
    np.testing.assert_allclose(weights[allowed], result.weights[2].numpy()[allowed], rtol=1e-6)
    grid = view.mask_figure(view.combined_mask(result, 2), view.mask_reasons(2, m, True, set()), 2)
    np.testing.assert_array_equal(np.asarray(grid.data[0].z), allowed.astype(float))
    assert grid.data[0].customdata[0][3] == "query q0, key k3: masked (padding, causal)"
    assert grid.data[0].customdata[1][1] == "query q1, key k1: may attend"
    padding = view.padding_figure(torch.tensor(lens), m, 2)
    np.testing.assert_array_equal(
        np.asarray(padding.data[0].z), (np.arange(m) < np.array(lens)[:, None]).astype(float)
    )
    assert padding.layout.shapes[0].y0 == 1.5  # the frame around sequence 2


@pytest.mark.parametrize("fill", FILLS)
def test_formula_shows_the_fill_value_and_the_valid_length(fill):
    from attnviz import formulas

    assert formulas.number(fill) in formulas.mask(fill)
    latex = view.mask_latex(4, 1, causal=True, cells=True)
    assert r"\ell_{1} = 4" in latex and r"j \le i" in latex and "C_{ij}" in latex
    assert r"j \le i" not in view.mask_latex(4, 1, causal=False, cells=False)
