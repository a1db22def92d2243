"""The model lesson through AppTest, with the real model (it loads in a few seconds)."""

from __future__ import annotations

import numpy as np
import torch

from attnviz.lessons.model import view as model_view
from tests.apptest import chart, open_page, texts_of, z_of
from tests.plotly_data import decode

NLI, MODEL = "pages/7_NLI_alignment.py", "pages/8_Model_attention.py"


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
    at.selectbox(key=model_view.LAYER.key).set_value(3).run()
    at.selectbox(key=model_view.HEAD.key).set_value(7).run()
    np.testing.assert_allclose(z_of(at, "view_head"), encoded.attentions[3, 7], atol=1e-5)
    assert chart(at, "view_head")["layout"]["yaxis"]["ticktext"][:2] == ["[CLS]", "i"]
    # The grid is sent unchanged, so that Chromium keeps it drawn; the caption names the head.
    assert chart(at, "view_grid") == grid
    assert "Layer 3, head 7 is enlarged above" in " ".join(c.value for c in at.caption)


def test_model_page_block_and_specials(encoder):
    at = open_page(MODEL)
    at.radio(key=model_view.BLOCK.key).set_value("AB").run()
    at.toggle(key=model_view.HIDE.key).set_value(True).run()
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
    at.text_area(key=model_view.SENTENCE_B.key).input("").run()
    at.text_area(key=model_view.SENTENCE_A.key).input("Unbelievably tired").run()
    at.toggle(key=model_view.MERGE.key).set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    spec = chart(at, "view_head")
    assert spec["layout"]["yaxis"]["ticktext"] == ["[CLS]", "Unbelievably", "tired", "[SEP]"]
    rows = z_of(at, "view_head")
    np.testing.assert_allclose(rows.sum(axis=1), np.ones(4), atol=1e-5)
    assert not at.get("radio")  # no block filter for one sentence
    assert torch.is_tensor(encoder.encode("Unbelievably tired").attentions)


def test_model_page_warns_for_korean_and_keeps_html_literal():
    at = open_page(MODEL)
    at.text_area(key=model_view.SENTENCE_A.key).input("나는 정말 피곤해").run()
    assert not at.exception and "mean little" in texts_of(at)
    at.text_area(key=model_view.SENTENCE_A.key).input("<b>bold</b> text").run()
    assert not at.exception
    labels = chart(at, "view_head")["layout"]["yaxis"]["ticktext"]
    assert "&lt;" in labels and all("<b>" not in label for label in labels)
    at.text_area(key=model_view.SENTENCE_A.key).input("  ").run()
    assert "is empty" in at.error[0].value
