"""The masking page through AppTest: the right mask and heatmaps, each control changes them."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
import torch

from attnviz.attention import build_mask
from attnviz.lessons.masking import compute, view
from tests.apptest import chart, open_page, z_of

PAGE = "pages/2_Masking.py"


def expected(lens, m=6, seed=0, causal=False, blocked=frozenset(), fill=-1e6):
    inputs = compute.batch_inputs(len(lens), m, seed)
    mask = build_mask(m, m, causal=causal, blocked=blocked)
    return compute.run(inputs, torch.tensor(lens), mask, fill)


def assert_sequence(at, result, seq: int) -> None:
    """The mask grid and the three heatmaps show sequence `seq` of `result`."""
    allowed = result.mask[seq].numpy()
    np.testing.assert_array_equal(z_of(at, view.FIG_MASK), allowed.astype(float))
    np.testing.assert_allclose(z_of(at, view.FIG_STEPS[0]), result.scores[seq], rtol=1e-5)
    for key, matrix in (
        (view.FIG_STEPS[1], result.masked_scores),
        (view.FIG_STEPS[2], result.weights),
    ):
        z = z_of(at, key)
        assert np.isnan(z[~allowed]).all()  # masked cells are gaps
        np.testing.assert_allclose(z[allowed], matrix[seq].numpy()[allowed], rtol=1e-5)


def no_exception(at) -> None:
    assert not at.exception, [e.value for e in at.exception]


def test_defaults_show_the_batch_the_mask_and_the_backend_values():
    at = open_page(PAGE)
    result = expected([4, 6, 2])
    np.testing.assert_array_equal(
        z_of(at, view.FIG_PADDING), (np.arange(6) < np.array([4, 6, 2])[:, None]).astype(float)
    )
    assert_sequence(at, result, 0)
    assert chart(at, view.FIG_MASK)["data"][0]["customdata"][0][4] == (
        "query q0, key k4: masked (padding)"
    )
    assert "sum to 1" in at.success[0].value
    assert any(r"\ell_{0} = 4" in latex.value for latex in at.latex)
    assert any(r"-1 \cdot 10^{6}" in latex.value for latex in at.latex)
    # The page's script run with default inputs, after the warm-up above.
    start = time.perf_counter()
    at.run()
    assert time.perf_counter() - start < 1.0  # generous on a busy 2-core machine; ~0.12 s idle


def test_changing_valid_lengths_causal_and_sequence_changes_the_data():
    at = open_page(PAGE)
    at.text_input(key=view.VALID_LENS.key).set_value("3, 5, 1").run()
    no_exception(at)
    assert_sequence(at, expected([3, 5, 1]), 0)
    at.toggle(key=view.CAUSAL.key).set_value(True).run()
    result = expected([3, 5, 1], causal=True)
    assert_sequence(at, result, 0)
    assert any(r"j \le i" in latex.value for latex in at.latex)
    at.selectbox(key=view.SEQUENCE.key).set_value(1).run()
    no_exception(at)
    assert_sequence(at, result, 1)
    assert any(r"\ell_{1} = 5" in latex.value for latex in at.latex)


def test_seed_and_sizes_change_the_inputs_and_refit_the_valid_lengths():
    at = open_page(PAGE)
    at.number_input(key=view.SEED.key).set_value(5).run()
    assert_sequence(at, expected([4, 6, 2], seed=5), 0)
    at.number_input(key=view.BATCH.key).set_value(4).run()
    assert at.text_input(key=view.VALID_LENS.key).value == "4, 6, 2, 6"
    at.number_input(key=view.LENGTH.key).set_value(5).run()
    no_exception(at)
    assert at.text_input(key=view.VALID_LENS.key).value == "4, 5, 2, 5"
    assert_sequence(at, expected([4, 5, 2, 5], m=5, seed=5), 0)
    at.selectbox(key=view.SEQUENCE.key).set_value(3).run()
    at.number_input(key=view.BATCH.key).set_value(2).run()  # sequence 3 no longer exists
    no_exception(at)
    assert at.selectbox(key=view.SEQUENCE.key).value == 1
    assert_sequence(at, expected([4, 5], m=5, seed=5), 1)


def test_hand_picked_cells_mask_every_sequence():
    at = open_page(PAGE)
    at.session_state[view.CELLS] = frozenset({(0, 1), (2, 0)})
    at.toggle(key=view.CELLS_ON.key).set_value(True).run()
    no_exception(at)
    result = expected([4, 6, 2], blocked=frozenset({(0, 1), (2, 0)}))
    assert_sequence(at, result, 0)
    assert chart(at, view.FIG_MASK)["data"][0]["customdata"][0][1] == (
        "query q0, key k1: masked (hand-picked)"
    )


@pytest.mark.parametrize(
    ("fill", "words", "row"),
    [(-1e6, "1/6 = 0.1667", np.full(6, 1 / 6)), (-1e9, "1/6", np.full(6, 1 / 6)),
     (-math.inf, "set to 0 instead of NaN", np.zeros(6))],
)  # fmt: skip
def test_valid_length_zero_is_explained_at_each_fill_value(fill, words, row):
    at = open_page(PAGE)
    at.text_input(key=view.VALID_LENS.key).set_value("0, 6, 2").run()
    at.radio(key=view.FILL.key).set_value(fill).run()
    no_exception(at)
    assert not at.success
    message = at.warning[0].value
    assert "6 of the 6 queries of sequence 0" in message and words in message
    # Drawn as masked (every cell in the gaps' grey, no colour bar), explained in words.
    weights = chart(at, view.FIG_STEPS[2])["data"][0]
    assert {c for _, c in weights["colorscale"]} == {"#bdbdbd"} and weights["showscale"] is False
    # The hover of the weights still gives the backend's weights of the fully masked rows.
    hover = chart(at, view.FIG_STEPS[2])["data"][0]["customdata"][0]
    result = expected([0, 6, 2], fill=fill)
    np.testing.assert_allclose(result.weights[0, 0].numpy(), row, rtol=1e-6)
    assert all(f"weight: {float(w):.4g}" in cell for w, cell in zip(row, hover, strict=True))
    fill_tex = r"-\infty" if fill == -math.inf else r"\cdot 10^{"
    assert any(fill_tex in latex.value for latex in at.latex)


def test_bad_valid_lengths_show_an_error_and_keep_the_text():
    at = open_page(PAGE)
    at.text_input(key=view.VALID_LENS.key).set_value("4, 9, 2").run()
    no_exception(at)
    assert "'9' (sequence 1)" in at.error[0].value and "between 0 and 6" in at.error[0].value
    assert at.text_input(key=view.VALID_LENS.key).value == "4, 9, 2"
    assert not at.get("plotly_chart")
    at.text_input(key=view.VALID_LENS.key).set_value("4, 2").run()
    assert "2 number(s) for 3 sequences" in at.error[0].value
    at.text_input(key=view.VALID_LENS.key).set_value("4, 2, 1").run()
    assert not at.error
    assert_sequence(at, expected([4, 2, 1]), 0)


def test_masked_cells_show_the_fill_value_and_the_uniform_row():
    at = open_page(PAGE)
    at.text_input(key=view.VALID_LENS.key).input("0, 6, 2").run()
    no_exception(at)
    scores = np.asarray(chart(at, view.FIG_STEPS[1])["data"][0]["text"], dtype=object)
    assert set(scores.flat) == {"-1e6"}  # sequence 0 has no valid key: every score is the fill
    weights = np.asarray(chart(at, view.FIG_STEPS[2])["data"][0]["text"], dtype=object)
    assert set(weights.flat) == {".17"}  # 1/m, m = 6, in every row
    at.radio(key=view.FILL.key).set_value(float("-inf")).run()
    scores = np.asarray(chart(at, view.FIG_STEPS[1])["data"][0]["text"], dtype=object)
    weights = np.asarray(chart(at, view.FIG_STEPS[2])["data"][0]["text"], dtype=object)
    assert set(scores.flat) == {"-inf"} and set(weights.flat) == {"0"}
    at.toggle(key=view.SHOW_MASKED.key).set_value(False).run()
    fig = chart(at, view.FIG_STEPS[1])
    assert set(np.asarray(fig["data"][0]["text"], dtype=object).flat) == {""}
    assert fig["data"][1]["text"] == "×"
