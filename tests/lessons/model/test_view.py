"""The NLI and model pages through AppTest, with the real model (it loads in a few seconds)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from attnviz import nli, ui
from attnviz.encoder import MAX_TOKENS, load_encoder
from tests.plotly_data import decode
from tests.test_pages import chart, open_page, z_of

NLI, MODEL = "pages/7_NLI_alignment.py", "pages/8_Model_attention.py"


@pytest.fixture(scope="module")
def encoder():
    return load_encoder()


def texts_of(at) -> str:
    return " ".join(
        str(e.value) for kind in ("error", "warning", "info") for e in getattr(at, kind)
    )


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
    at.toggle(key=ui.NLI_ROWS).set_value(False).run()
    assert not at.exception, [e.value for e in at.exception]
    _, a, lens_a = nli.sentence_embeddings(encoder, ["I do need sleep"])
    _, b, lens_b = nli.sentence_embeddings(encoder, ["I am tired"])
    expected = nli.decomposable_attention(a, b, lens_a, lens_b)
    np.testing.assert_allclose(z_of(at, "nli_weights"), expected.weights_beta[0], rtol=1e-4)
    assert chart(at, "nli_weights")["layout"]["yaxis"]["ticktext"] == ["i", "do", "need", "sleep"]


def test_nli_changed_pair_and_source(encoder):
    at = open_page(NLI)
    at.text_area(key=ui.NLI_PREMISE).input("A cat sleeps").run()
    at.selectbox(key=ui.NLI_SOURCE).set_value("static").run()
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
    at.text_area(key=ui.NLI_PREMISE).input(premise).run()
    assert not at.exception
    assert message in at.error[0].value
    assert at.text_area(key=ui.NLI_PREMISE).value == premise


def test_nli_long_korean_emoji_and_html_text():
    at = open_page(NLI)
    at.text_area(key=ui.NLI_PREMISE).input("word " * 2000).run()
    assert not at.exception, [e.value for e in at.exception]
    assert f"first {MAX_TOKENS} word pieces" in texts_of(at)
    at.text_area(key=ui.NLI_PREMISE).input("나는 정말 잠이 필요해 🙂").run()
    assert not at.exception and "mean little" in texts_of(at)
    hostile = "<img src=x onerror=alert(1)>"
    at.text_area(key=ui.NLI_PREMISE).input(hostile).run()
    assert not at.exception
    spec = chart(at, "nli_weights")
    assert all("<img" not in label for label in spec["layout"]["xaxis"]["ticktext"])


def test_nli_batch_with_padding_matches_pairs_alone(encoder):
    at = open_page(NLI)
    at.get("button_group")[0].set_value("batch").run()
    assert not at.exception, [e.value for e in at.exception]
    pairs = [(p, h) for _, p, h in ui.NLI_PRESETS.values()]
    at.selectbox(key=ui.NLI_CHOICE).set_value(1).run()
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
    at.text_area(key=ui.NLI_BATCH).input("a premise without a hypothesis").run()
    assert not at.exception
    assert "Line 1" in at.error[0].value


def test_model_page_matches_the_model(encoder):
    at = open_page(MODEL)
    assert not at.exception, [e.value for e in at.exception]
    encoded = encoder.encode("I do need sleep", "I am tired")
    np.testing.assert_allclose(z_of(at, "view_head"), encoded.attentions[0, 0], atol=1e-5)
    np.testing.assert_allclose(
        z_of(at, "view_average"), encoded.attentions[0].mean(dim=0), atol=1e-5
    )
    grid = chart(at, "view_grid")
    thumbnails = [trace for trace in grid["data"] if trace["type"] == "heatmap"]
    assert len(thumbnails) == encoder.num_layers * encoder.num_heads
    targets = [trace for trace in grid["data"] if trace.get("name") == "heads"]
    assert len(targets) == encoder.num_layers * encoder.num_heads  # one click target each
    np.testing.assert_allclose(
        decode(grid["data"][5 * 12 + 3]["z"]), encoded.attentions[5, 3], atol=1e-5
    )
    at.selectbox(key=ui.MODEL_LAYER).set_value(3).run()
    at.selectbox(key=ui.MODEL_HEAD).set_value(7).run()
    np.testing.assert_allclose(z_of(at, "view_head"), encoded.attentions[3, 7], atol=1e-5)
    assert chart(at, "view_head")["layout"]["yaxis"]["ticktext"][:2] == ["[CLS]", "i"]


def test_model_page_block_and_specials(encoder):
    at = open_page(MODEL)
    at.radio(key=ui.MODEL_BLOCK).set_value("AB").run()
    at.toggle(key=ui.MODEL_HIDE).set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    encoded = encoder.encode("I do need sleep", "I am tired")
    rows = [1, 2, 3, 4]  # i do need sleep
    cols = [6, 7, 8]  # i am tired
    expected = encoded.attentions[0, 0][rows][:, cols]
    np.testing.assert_allclose(z_of(at, "view_head"), expected, atol=1e-5)
    spec = chart(at, "view_head")
    assert spec["layout"]["yaxis"]["ticktext"] == ["i", "do", "need", "sleep"]
    assert spec["layout"]["xaxis"]["ticktext"] == ["i", "am", "tired"]


def test_model_page_single_sentence_and_merged_words(encoder):
    at = open_page(MODEL)
    at.text_area(key=ui.MODEL_B).input("").run()
    at.text_area(key=ui.MODEL_A).input("Unbelievably tired").run()
    at.toggle(key=ui.MODEL_MERGE).set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    spec = chart(at, "view_head")
    assert spec["layout"]["yaxis"]["ticktext"] == ["[CLS]", "Unbelievably", "tired", "[SEP]"]
    rows = z_of(at, "view_head")
    np.testing.assert_allclose(rows.sum(axis=1), np.ones(4), atol=1e-5)
    assert not at.get("radio")  # no block filter for one sentence
    assert torch.is_tensor(encoder.encode("Unbelievably tired").attentions)


def test_model_page_warns_for_korean_and_keeps_html_literal():
    at = open_page(MODEL)
    at.text_area(key=ui.MODEL_A).input("나는 정말 피곤해").run()
    assert not at.exception and "mean little" in texts_of(at)
    at.text_area(key=ui.MODEL_A).input("<b>bold</b> text").run()
    assert not at.exception
    labels = chart(at, "view_head")["layout"]["yaxis"]["ticktext"]
    assert "&lt;" in labels and all("<b>" not in label for label in labels)
    at.text_area(key=ui.MODEL_A).input("  ").run()
    assert "is empty" in at.error[0].value
