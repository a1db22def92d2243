"""The NLI lesson through AppTest, with the real model (it loads in a few seconds)."""

from __future__ import annotations

import numpy as np
import pytest

from attnviz import nli
from attnviz.app import sentences
from attnviz.encoder import MAX_TOKENS
from attnviz.lessons.nli import view as nli_view
from tests.apptest import chart, open_page, texts_of, z_of

NLI, MODEL = "pages/7_NLI_alignment.py", "pages/8_Model_attention.py"


def test_nli_default_matches_the_backend(encoder):
    at = open_page(NLI)
    tokens_a, a, lens_a = nli.sentence_embeddings(encoder, ["I do need sleep"])
    tokens_b, b, lens_b = nli.sentence_embeddings(encoder, ["I am tired"])
    expected = nli.decomposable_attention(a, b, lens_a, lens_b)
    np.testing.assert_allclose(z_of(at, "nli_weights"), expected.weights_alpha[0], rtol=1e-4)
    np.testing.assert_allclose(z_of(at, "nli_e"), expected.e[0].T, rtol=1e-4, atol=1e-4)
    spec = chart(at, "nli_weights")
    assert spec["layout"]["yaxis"]["ticktext"] == tokens_b[0]  # hypothesis rows
    assert spec["layout"]["xaxis"]["ticktext"] == tokens_a[0]
    hard = z_of(at, "nli_hard")
    assert (hard.sum(axis=1) == 1).all()
    assert "untrained" in texts_of(at)


def test_nli_orientation_toggle_swaps_to_beta(encoder):
    at = open_page(NLI)
    at.toggle(key=nli_view.ROWS.key).set_value(False).run()
    assert not at.exception, [e.value for e in at.exception]
    _, a, lens_a = nli.sentence_embeddings(encoder, ["I do need sleep"])
    _, b, lens_b = nli.sentence_embeddings(encoder, ["I am tired"])
    expected = nli.decomposable_attention(a, b, lens_a, lens_b)
    np.testing.assert_allclose(z_of(at, "nli_weights"), expected.weights_beta[0], rtol=1e-4)
    assert chart(at, "nli_weights")["layout"]["yaxis"]["ticktext"] == ["i", "do", "need", "sleep"]


def test_nli_changed_pair_and_source(encoder):
    at = open_page(NLI)
    at.text_area(key=nli_view.PREMISE.key).input("A cat sleeps").run()
    at.selectbox(key=nli_view.SOURCE.key).set_value("static").run()
    assert not at.exception, [e.value for e in at.exception]
    _, a, lens_a = nli.sentence_embeddings(encoder, ["A cat sleeps"], source="static")
    _, b, lens_b = nli.sentence_embeddings(encoder, ["I am tired"], source="static")
    expected = nli.decomposable_attention(a, b, lens_a, lens_b)
    np.testing.assert_allclose(z_of(at, "nli_weights"), expected.weights_alpha[0], rtol=1e-4)


@pytest.mark.parametrize(
    ("premise", "message"),
    [("", "is empty"), ("   \n ", "is empty")],
)
def test_nli_empty_sentence_is_an_error(premise, message):
    at = open_page(NLI)
    at.text_area(key=nli_view.PREMISE.key).input(premise).run()
    assert not at.exception
    assert message in at.error[0].value
    assert at.text_area(key=nli_view.PREMISE.key).value == premise


def test_nli_long_korean_emoji_and_html_text():
    at = open_page(NLI)
    at.text_area(key=nli_view.PREMISE.key).input("word " * 2000).run()
    assert not at.exception, [e.value for e in at.exception]
    assert f"first {MAX_TOKENS} word pieces" in texts_of(at)
    at.text_area(key=nli_view.PREMISE.key).input("나는 정말 잠이 필요해 🙂").run()
    assert not at.exception and "mean little" in texts_of(at)
    hostile = "<img src=x onerror=alert(1)>"
    at.text_area(key=nli_view.PREMISE.key).input(hostile).run()
    assert not at.exception
    spec = chart(at, "nli_weights")
    assert all("<img" not in label for label in spec["layout"]["xaxis"]["ticktext"])


def test_nli_batch_with_padding_matches_pairs_alone(encoder):
    at = open_page(NLI)
    at.get("button_group")[0].set_value("batch").run()
    assert not at.exception, [e.value for e in at.exception]
    pairs = [(p, h) for _, p, h in sentences.PRESETS.values()]
    at.selectbox(key=nli_view.PAIR.key).set_value(1).run()
    premise, hypothesis = pairs[1]
    _, a, lens_a = nli.sentence_embeddings(encoder, [premise])
    _, b, lens_b = nli.sentence_embeddings(encoder, [hypothesis])
    alone = nli.decomposable_attention(a, b, lens_a, lens_b)
    np.testing.assert_allclose(z_of(at, "nli_weights"), alone.weights_alpha[0], rtol=1e-4)
    assert len(at.dataframe) == 2  # the aligned pairs and the batch table
    assert len(at.dataframe[1].value) == len(pairs)


def test_nli_batch_bad_line_is_an_error():
    at = open_page(NLI)
    at.get("button_group")[0].set_value("batch").run()
    at.text_area(key=nli_view.BATCH.key).input("a premise without a hypothesis").run()
    assert not at.exception
    assert "Line 1" in at.error[0].value
