"""The multi-head page through AppTest: the figures hold the backend's numbers for every control."""

from __future__ import annotations

import re

import numpy as np

from attnviz.heads import embed_tokens, multi_head_attention, positional_encoding
from attnviz.lessons.multihead import view
from tests.apptest import chart, open_page, z_of

PAGE = "pages/6_Multi_head.py"
DEFAULT_TOKENS = ["the", "cat", "sat", "on", "the", "mat"]


def reference(tokens, d_model=16, heads=4, positional=True, causal=False, seed=0):
    """The page's numbers computed straight from the backend."""
    pe = positional_encoding(len(tokens), d_model)
    x = embed_tokens(tokens, d_model, seed) + (pe if positional else 0)
    return pe, x, multi_head_attention(x, num_heads=heads, seed=seed, causal=causal)


def head_keys(at) -> list[str]:
    ids = [c.proto.id for c in at.get("plotly_chart")]
    return sorted(i[i.index("mh_head_") :] for i in ids if "mh_head_" in i)


def assert_page_matches(at, tokens, **kwargs) -> None:
    assert not at.exception, [e.value for e in at.exception]
    pe, x, result = reference(tokens, **kwargs)
    heads = result.weights.shape[0]
    assert head_keys(at) == [f"mh_head_{h}" for h in range(heads)]
    for h in range(heads):
        z = z_of(at, f"mh_head_{h}")
        expected = result.weights[h].numpy()
        allowed = np.ones_like(expected, bool) if result.mask is None else result.mask[h].numpy()
        assert np.isnan(z[~allowed]).all()
        np.testing.assert_allclose(z[allowed], expected[allowed], rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(z_of(at, "mh_pe"), pe, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(z_of(at, "mh_input"), x, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(z_of(at, "mh_concat"), result.concat, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(z_of(at, "mh_output"), result.output, rtol=1e-5, atol=1e-6)


def test_defaults_show_the_backend_heads_and_output():
    at = open_page(PAGE)
    assert_page_matches(at, DEFAULT_TOKENS)
    weights = chart(at, "mh_head_0")
    ticks = weights["layout"]["yaxis"]["ticktext"]
    assert ticks == ["the", "cat", "sat", "on", "the (2)", "mat"]
    pe = chart(at, "mh_pe")
    assert pe["data"][0]["colorscale"][0][1] != weights["data"][0]["colorscale"][0][1]
    # The concatenation marks the 3 boundaries between 4 heads of 4 columns.
    lines = [s["x0"] for s in chart(at, "mh_concat")["layout"]["shapes"]]
    assert lines == [3.5, 7.5, 11.5]
    assert "differ" in at.info[0].value
    latex = " ".join(e.value for e in at.get("latex"))
    assert r"d_{\mathrm{head}} = d_{\mathrm{model}} / h = 16 / 4 = 4" in latex
    assert r"\mathbb{R}^{6 \times 16}" in latex


def test_heads_and_d_model_change_the_data():
    at = open_page(PAGE)
    at.selectbox(key=view.HEADS.key).set_value(2).run()
    assert_page_matches(at, DEFAULT_TOKENS, heads=2)
    at.selectbox(key=view.D_MODEL.key).set_value(32).run()
    assert_page_matches(at, DEFAULT_TOKENS, d_model=32, heads=2)
    assert z_of(at, "mh_output").shape == (6, 32)
    at.selectbox(key=view.HEADS.key).set_value(8).run()
    assert_page_matches(at, DEFAULT_TOKENS, d_model=32, heads=8)
    at.number_input(key=view.SEED.key).set_value(3).run()
    assert_page_matches(at, DEFAULT_TOKENS, d_model=32, heads=8, seed=3)


def test_sentence_changes_the_tokens():
    at = open_page(PAGE)
    at.text_input(key=view.SENTENCE.key).input("A dog chased a  Ball").run()
    assert_page_matches(at, ["a", "dog", "chased", "a", "ball"])
    assert chart(at, "mh_head_1")["layout"]["xaxis"]["ticktext"][3] == "a (2)"


def test_without_positions_the_two_thes_get_identical_rows():
    at = open_page(PAGE)
    at.toggle(key=view.POSITIONAL.key).set_value(False).run()
    assert_page_matches(at, DEFAULT_TOKENS, positional=False)
    for h in range(4):
        z = z_of(at, f"mh_head_{h}")
        np.testing.assert_allclose(z[0], z[4], rtol=0, atol=1e-7)
        # ... and identical columns: a key's weight does not depend on where it stands.
        np.testing.assert_allclose(z[:, 0], z[:, 4], rtol=0, atol=1e-7)
    np.testing.assert_allclose(z_of(at, "mh_output")[0], z_of(at, "mh_output")[4], atol=1e-6)
    assert "identical rows of weights" in at.warning[0].value
    assert "Input X = embeddings (no positions)" in chart(at, "mh_input")["layout"]["title"]["text"]


def test_causal_masks_the_future():
    at = open_page(PAGE)
    at.toggle(key=view.CAUSAL.key).set_value(True).run()
    assert_page_matches(at, DEFAULT_TOKENS, causal=True)
    z = z_of(at, "mh_head_0")
    np.testing.assert_array_equal(np.isnan(z), ~np.tril(np.ones((6, 6), bool)))
    np.testing.assert_allclose(z[0, 0], 1.0)
    # Without positions, the causal mask alone tells the two "the" apart.
    at.toggle(key=view.POSITIONAL.key).set_value(False).run()
    assert_page_matches(at, DEFAULT_TOKENS, causal=True, positional=False)
    assert "causal mask itself" in at.info[0].value


def test_bad_combination_shows_a_clear_error_and_keeps_the_choice():
    at = open_page(PAGE)
    at.selectbox(key=view.HEADS.key).set_value(3).run()
    assert not at.exception
    message = re.sub(r"\\(.)", r"\1", at.error[0].value)  # without markdown escapes
    assert "d_model = 16 cannot be split into 3 heads" in message
    assert "divisible" in message and "1, 2, 4, 8" in message
    assert not at.get("plotly_chart")
    assert at.selectbox(key=view.HEADS.key).value == 3
    at.selectbox(key=view.D_MODEL.key).set_value(12).run()
    assert not at.error
    assert_page_matches(at, DEFAULT_TOKENS, d_model=12, heads=3)


def test_empty_and_long_sentences():
    at = open_page(PAGE)
    at.text_input(key=view.SENTENCE.key).input("   ").run()
    assert not at.exception
    assert "The sentence is empty" in at.error[0].value
    assert at.text_input(key=view.SENTENCE.key).value == "   "
    words = [f"w{i}" for i in range(40)]
    at.text_input(key=view.SENTENCE.key).input(" ".join(words)).run()
    assert "40 tokens: only the first 32" in at.info[0].value
    assert_page_matches(at, words[:32])
    assert z_of(at, "mh_head_0").shape == (32, 32)
