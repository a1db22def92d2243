"""A real head to the Playground and back, through AppTest: the neuron view opens the Playground
by a link (its own link names, never its state keys) with the head's Q, K, V, scoring and mask;
the Playground's output equals the head's own; back on the model page, an unchanged output
leaves the prediction as it was, and zero values equal the head's zero ablation."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from attnviz.app.model import MODEL
from attnviz.figures.labels import unique_labels
from attnviz.lessons.model_controls import view as model_controls
from attnviz.lessons.model_neuron import view as model_edit
from attnviz.lessons.playground import view as playground
from attnviz.transformer import interventions, models
from attnviz.transformer.encoder import Encoder
from attnviz.transformer.neurons import head_vectors
from tests.apptest import chart, open_page, panel_z_of, texts_of
from tests.plotly_data import panel_axis

PAGE = "pages/8_Model_attention.py"
PLAYGROUND = "pages/1_Playground.py"


def test_the_playgrounds_link_names_are_its_own() -> None:
    names = {c.name for c in playground.LINK}
    assert {model_edit.PLAYGROUND_SCORE, model_edit.PLAYGROUND_CAUSAL} <= names
    assert playground.BACK.name == model_edit.PLAYGROUND_BACK
    assert {playground.BACK_EDIT, playground.BACK_AT} == {
        model_controls.EDIT.name, model_controls.EDIT_AT.name,
    }  # fmt: skip


def said(at) -> str:  # type: ignore[no-untyped-def]
    """The page's words: its text, captions and boxes."""
    return " ".join([*(m.value for m in at.markdown), *(c.value for c in at.caption), texts_of(at)])


def _open_head(at, layer: int, head: int) -> None:  # type: ignore[no-untyped-def]
    at.segmented_control(key=model_controls.VIEW.key).set_value("neuron").run(timeout=120)
    at.selectbox(key=model_controls.LAYER.key).set_value(layer).run(timeout=120)
    at.selectbox(key=model_controls.HEAD.key).set_value(head).run(timeout=120)
    at.button(key="model_neuron_playground").click().run(timeout=120)
    assert not at.exception, [e.value for e in at.exception]
    at.switch_page(PLAYGROUND)  # AppTest's next runs stay where the page's own switch went


def _back(at) -> None:  # type: ignore[no-untyped-def]
    at.button(key="pg_back_go").click().run(timeout=120)
    assert not at.exception, [e.value for e in at.exception]
    at.switch_page(PAGE)


def test_a_decoder_head_there_and_back(smol: Encoder) -> None:
    at = open_page(PAGE)
    at.selectbox(key=MODEL.key).set_value(models.SMOLLM2).run(timeout=120)
    encoded = smol.encode(model_controls._A, model_controls._B)
    _open_head(at, 14, 3)
    # The Playground, opened by its link: the head's rows, scaled dot, causal.
    assert at.session_state["attn_score"] == "scaled_dot" and at.session_state["mask_causal"]
    assert "layer 14, head 3" in said(at)
    vectors = head_vectors(smol, encoded, layer=14, head=3)
    np.testing.assert_allclose(
        panel_z_of(at, *playground.PANELS["pg_output"]),
        vectors.weights @ vectors.values,
        atol=1e-4,
        rtol=1e-4,
    )
    # Back unchanged: the same prediction.
    _back(at)
    assert at.session_state[model_controls.VIEW.key] == "neuron"
    assert at.session_state[model_controls.EDIT_AT.key] == "14.3"
    assert "KL(before ‖ after) = 0.0000 nats" in said(at)
    # There again, every value zero: the head's output is zero, its zero ablation.
    _open_head(at, 14, 3)
    rows = len(encoded.tokens)
    at.text_area(key="qkv_text_values").set_value("\n".join(["0 " * 64] * rows)).run()
    _back(at)
    after = chart(at, "model_edit_after")["data"][0]
    with torch.inference_mode():
        patched = interventions.patched_output(
            smol, encoded.inputs, {(14, 3): torch.zeros(rows, 64)}
        )
    expected = torch.softmax(patched[-1], -1).topk(10).values
    np.testing.assert_allclose(after["x"], expected.numpy(), atol=1e-6)


def test_an_encoder_head_there_and_back(encoder: Encoder) -> None:
    at = open_page(PAGE)
    _open_head(at, 2, 5)
    assert not at.session_state["mask_causal"]
    _back(at)
    assert "keeps a cosine of 1.0000 with the unedited one" in said(at)
    _open_head(at, 2, 5)
    at.selectbox(key="attn_score").set_value("dot").run()  # unscaled: sharper rows
    _back(at)
    words = said(at)
    cosine = float(words.split("keeps a cosine of ")[1].split()[0])
    assert 0.5 < cosine < 0.9999, cosine
    at.button(key="model_edit_drop").click().run()
    assert "Your Playground edit" not in said(at)


@pytest.mark.parametrize("edit_at", ["99.0", "x", ""])
def test_an_edit_naming_no_head_is_refused(encoder: Encoder, edit_at: str) -> None:
    at = open_page(PAGE)
    at.session_state[model_controls.EDIT.key] = "1 2"
    at.session_state[model_controls.EDIT_AT.key] = edit_at
    at.segmented_control(key=model_controls.VIEW.key).set_value("neuron").run(timeout=120)
    assert not at.exception, [e.value for e in at.exception]
    assert "The edit names no head of this model" in said(at)


LINK_NOTE = "Some typed text is too long for a link ("


def link_notes(at) -> list[str]:  # type: ignore[no-untyped-def]
    """The page's notes that some text is too long for its link."""
    return [c.value for c in at.caption if LINK_NOTE in c.value]


def test_the_round_trip_says_only_typed_text_is_too_long_for_a_link(encoder: Encoder) -> None:
    at = open_page(PAGE)
    _open_head(at, 2, 5)
    assert not link_notes(at)  # the head's matrices came by the model page's link, untyped
    rows = len(encoder.encode(model_controls._A, model_controls._B).tokens)
    typed = "\n".join(["0 " * 64] * rows)
    at.text_area(key="qkv_text_values").input(typed).run()
    assert link_notes(at) == [
        f"Some typed text is too long for a link ({len(typed)} characters, at most 600): a "
        "copied link keeps the other settings. Save the state as a file (Share, below) to pass "
        "it on."
    ]
    _back(at)
    assert at.session_state[model_controls.EDIT.key]  # the edit never goes in a link: no note
    assert not link_notes(at)
    sentence = "I do need sleep " * 50
    at.text_area(key=model_controls.SENTENCE_A.key).input(sentence).run(timeout=120)
    assert [n for n in link_notes(at) if f"({len(sentence)} characters, at most 600)" in n]


def test_a_head_in_the_playground_reads_its_tokens_and_offers_no_preset(smol: Encoder) -> None:
    at = open_page(PAGE)
    at.selectbox(key=MODEL.key).set_value(models.SMOLLM2).run(timeout=120)
    encoded = smol.encode(model_controls._A, model_controls._B)
    _open_head(at, 14, 3)
    steps, weights = chart(at, playground.STEPS_CHART), playground.PANELS["pg_weights"][1]
    tokens = unique_labels(list(encoded.labels))  # "I", "I (2)": the heatmap's own labels
    assert panel_axis(steps, weights, "y")["ticktext"] == tokens
    assert panel_axis(steps, weights, "x")["ticktext"] == tokens
    assert not [s for s in at.selectbox if s.key == "qkv_preset"]  # no "Small example" box
    # An edit that changes the rows' count: the tokens no longer fit, the rows are numbered.
    at.text_area(key="qkv_text_queries").set_value("1 0\n0 1").run()
    at.text_area(key="qkv_text_keys").set_value("1 0\n0 1").run()
    at.text_area(key="qkv_text_values").set_value("1 0\n0 1").run()
    steps = chart(at, playground.STEPS_CHART)
    assert panel_axis(steps, weights, "y")["ticktext"] == ["q0", "q1"]
    # Leaving the round trip brings the presets back.
    at.button(key="pg_back_leave").click().run()
    assert [s for s in at.selectbox if s.key == "qkv_preset"]
