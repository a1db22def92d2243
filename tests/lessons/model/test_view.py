"""The model lesson through AppTest, with the real model (it loads in a few seconds)."""

from __future__ import annotations

import numpy as np
import torch

from attnviz.app import model as app_model
from attnviz.lessons.model_controls import view as model_controls
from tests.apptest import chart, open_page, texts_of, z_of
from tests.plotly_data import grid_block

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
    mosaic, targets = grid["data"]  # every head in one heatmap, one click target each
    assert targets["name"] == "heads"
    assert len(targets["customdata"]) == encoder.num_layers * encoder.num_heads
    np.testing.assert_allclose(
        grid_block(mosaic["z"], 6, 12, 5, 3), encoded.attentions[5, 3], atol=1e-5
    )
    at.selectbox(key=model_controls.LAYER.key).set_value(3).run()
    at.selectbox(key=model_controls.HEAD.key).set_value(7).run()
    np.testing.assert_allclose(z_of(at, "view_head"), encoded.attentions[3, 7], atol=1e-5)
    assert chart(at, "view_head")["layout"]["yaxis"]["ticktext"][:2] == ["[CLS]", "i"]
    # The grid is sent unchanged, so that Chromium keeps it drawn; the caption names the head.
    assert chart(at, "view_grid") == grid
    assert "Layer 3, head 7 is enlarged above" in " ".join(c.value for c in at.caption)


def test_model_page_block_and_specials(encoder):
    at = open_page(MODEL)
    assert model_controls.RENORM.key not in [w.key for w in at.toggle]  # only with specials hidden
    at.radio(key=model_controls.BLOCK.key).set_value("AB").run()
    at.toggle(key=model_controls.HIDE.key).set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    encoded = encoder.encode("I do need sleep", "I am tired")
    rows = [1, 2, 3, 4]  # i do need sleep
    cols = [6, 7, 8]  # i am tired
    specials = [0, 5, 9]
    raw = encoded.attentions[:, :, rows][..., cols]  # (L, H, 4, 3)
    # Renormalised by default once the specials are hidden: the A -> B rows sum to 1.
    assert at.toggle(key=model_controls.RENORM.key).value is True
    renormalised = raw / raw.sum(-1, keepdim=True)
    np.testing.assert_allclose(z_of(at, "view_head"), renormalised[0, 0], atol=1e-5)
    np.testing.assert_allclose(z_of(at, "view_head").sum(-1), np.ones(4), atol=1e-5)
    np.testing.assert_allclose(z_of(at, "view_average"), renormalised[0].mean(dim=0), atol=1e-5)
    grid = chart(at, "view_grid")
    block = grid_block(grid["data"][0]["z"], 6, 12, 5, 3)
    np.testing.assert_allclose(block, renormalised[5, 3], atol=1e-5)
    spec = chart(at, "view_head")
    assert spec["layout"]["yaxis"]["ticktext"] == ["i", "do", "need", "sleep"]
    assert spec["layout"]["xaxis"]["ticktext"] == ["i", "am", "tired"]
    # The note: what [CLS] and [SEP] took from these rows, in head 0 of layer 0 and overall.
    share = encoded.attentions[:, :, rows][..., specials].sum(-1)  # (L, H, 4)
    note = next(c.value for c in at.caption if "Rows are renormalised" in c.value)
    assert f"took on average {float(share[0, 0].mean()):.1%} of a shown row's" in note
    assert f"({float(share.mean()):.1%} over all 72 heads)" in note
    assert f"the shown keys held {float(raw[0, 0].sum(-1).mean()):.1%}" in note
    # Switched off: the rows as the model gave them, and a note saying so.
    at.toggle(key=model_controls.RENORM.key).set_value(False).run()
    np.testing.assert_allclose(z_of(at, "view_head"), raw[0, 0], atol=1e-5)
    note = next(c.value for c in at.caption if "not renormalised" in c.value)
    assert f"keys hold {float(raw[0, 0].sum(-1).mean()):.1%}, so the rows sum to that" in note
    assert at.query_params["hide"] == "1" and at.query_params["renorm"] == "0"


def test_renormalising_follows_the_chosen_head_with_all_tokens(encoder):
    at = open_page(MODEL)
    at.toggle(key=model_controls.HIDE.key).set_value(True).run()
    at.selectbox(key=model_controls.LAYER.key).set_value(4).run()
    at.selectbox(key=model_controls.HEAD.key).set_value(9).run()
    encoded = encoder.encode("I do need sleep", "I am tired")
    shown = [1, 2, 3, 4, 6, 7, 8]
    raw = encoded.attentions[4, 9][shown][:, shown]
    np.testing.assert_allclose(z_of(at, "view_head"), raw / raw.sum(-1, keepdim=True), atol=1e-5)
    # With every other token shown, the specials took exactly what the shown keys did not.
    share = 1 - raw.sum(-1)
    note = next(c.value for c in at.caption if "Rows are renormalised" in c.value)
    assert "in layer 4, head 9" in note and f"{float(share.mean()):.1%}" in note


def test_model_page_single_sentence_and_merged_words(encoder):
    at = open_page(MODEL)
    at.text_area(key=model_controls.SENTENCE_B.key).input("").run()
    at.text_area(key=model_controls.SENTENCE_A.key).input("Unbelievably tired").run()
    at.toggle(key=model_controls.MERGE.key).set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    spec = chart(at, "view_head")
    assert spec["layout"]["yaxis"]["ticktext"] == ["[CLS]", "Unbelievably", "tired", "[SEP]"]
    rows = z_of(at, "view_head")
    np.testing.assert_allclose(rows.sum(axis=1), np.ones(4), atol=1e-5)
    assert not at.get("radio")  # no block filter for one sentence
    assert torch.is_tensor(encoder.encode("Unbelievably tired").attentions)


def test_model_page_warns_for_korean_and_keeps_html_literal():
    at = open_page(MODEL)
    at.text_area(key=model_controls.SENTENCE_A.key).input("나는 정말 피곤해").run()
    assert not at.exception and "mean little" in texts_of(at)
    at.text_area(key=model_controls.SENTENCE_A.key).input("<b>bold</b> text").run()
    assert not at.exception
    labels = chart(at, "view_head")["layout"]["yaxis"]["ticktext"]
    assert "&lt;" in labels and all("<b>" not in label for label in labels)
    at.text_area(key=model_controls.SENTENCE_A.key).input("  ").run()
    assert "is empty" in at.error[0].value


def test_the_page_says_minilm_is_a_bi_encoder_and_a_joint_pair_is_outside_its_training():
    at = open_page(MODEL)
    intro = " ".join(m.value for m in [*at.markdown, *at.caption])
    assert "**bi-encoder**" in intro and "each sentence of a pair was encoded alone" in intro
    assert "`[CLS] A [SEP] B [SEP]`: that input is outside what it was trained on" in intro
    assert "trained on sentence pairs" not in intro


def _smollm2():
    from attnviz.transformer import models

    at = open_page(MODEL)
    at.selectbox(key=app_model.MODEL.key).set_value(models.SMOLLM2).run(timeout=120)
    assert not at.exception, [e.value for e in at.exception]
    return at


def _charts(at) -> list[str]:
    return [c.proto.id.rsplit("-", 1)[-1] for c in at.get("plotly_chart")]


def test_the_next_tokens_are_drawn_once_until_a_position_is_picked() -> None:
    at = _smollm2()
    charts = _charts(at)
    assert charts.count("view_next_last") == 1 and "view_next_picked" not in charts
    at.session_state[model_controls.QUERY.key] = 2  # a click on the enlarged head's row 2
    at.run()
    charts = _charts(at)
    assert charts.count("view_next_last") == 1 and charts.count("view_next_picked") == 1


def test_hiding_the_first_token_reuses_the_reading(monkeypatch) -> None:
    """The switch only slices and renormalises the attention already read: the model is not
    run again, on or off."""
    from attnviz.transformer.encoder import Encoder

    at = _smollm2()
    at.text_area(key=model_controls.SENTENCE_A.key).input("A new sentence of a dozen tokens.").run()
    forward = Encoder._forward
    runs: list[int] = []

    def counted(self, *args, **kwargs):
        runs.append(1)
        return forward(self, *args, **kwargs)

    monkeypatch.setattr(Encoder, "_forward", counted)
    for hide in (True, False, True):
        at.toggle(key=model_controls.HIDE.key).set_value(hide).run()
        assert not at.exception, [e.value for e in at.exception]
    assert "The first token took on average" in " ".join(c.value for c in at.caption)
    assert not runs
    at.text_area(key=model_controls.SENTENCE_A.key).input("Another sentence.").run()
    assert len(runs) == 1  # a new text is read, once
