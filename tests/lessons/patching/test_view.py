"""The patching page through AppTest: with MiniLM it asks for a causal model and offers
SmolLM2; on SmolLM2 a run shows the logit differences and grids equal to
attnviz.transformer.patching's, a second run and a control change compute nothing again, and
each bad input shows the backend's message with the typed text kept."""

from __future__ import annotations

import numpy as np
import pytest
import streamlit as st
import torch
from streamlit.testing.v1 import AppTest

from attnviz.app import loading
from attnviz.app.model import MODEL
from attnviz.lessons.model_controls import view as model_controls
from attnviz.lessons.patching import view as patch_view
from attnviz.lessons.patching.compute import EXAMPLES
from attnviz.transformer import models, patching
from attnviz.transformer.encoder import Encoder
from tests.apptest import chart, open_page, texts_of, z_of

PAGE = "pages/12_Activation_patching.py"
IOI = EXAMPLES["ioi"]
PARIS = EXAMPLES["paris"]


@pytest.fixture(scope="module", autouse=True)
def _no_preload():
    """No background load of the shipped encoder beside this module's own SmolLM2: two
    transformers loads at once can leave the second's tied lm_head on the meta device."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(loading.PRELOAD_ENV, "0")
        yield


def on_smollm2() -> AppTest:
    at = open_page(PAGE)
    at.selectbox(key=MODEL.key).set_value(models.SMOLLM2).run(timeout=180)
    assert not at.exception, [e.value for e in at.exception]
    return at


def press_run(at: AppTest) -> None:
    at.button(key=patch_view.GO).click().run(timeout=300)
    assert not at.exception, [e.value for e in at.exception]


def test_an_encoder_is_refused_with_smollm2_offered() -> None:
    at = open_page(PAGE)
    assert "needs a causal language model" not in texts_of(at)
    assert "reads a causal language model's logits" in texts_of(at)
    assert not at.get("plotly_chart")
    at.button(key="patching_use_smollm2").click().run(timeout=180)
    assert at.session_state[MODEL.key] == models.SMOLLM2
    assert not at.exception and "Press **Run**" in texts_of(at)
    assert "14 tokens each; they differ at 9." in [c.value for c in at.caption]


def test_what_to_look_for_is_said_only_of_the_examples_own_prompts() -> None:
    at = on_smollm2()
    look = "What to look for: the repeated name"
    assert any(c.value.startswith(look) for c in at.caption)
    at.text_input(key=patch_view.CLEAN.key).set_value(EXAMPLES["paris"].clean).run()
    assert not any(c.value.startswith("What to look for") for c in at.caption)
    at.selectbox(key=patch_view.EXAMPLE.key).set_value("paris").run()  # the picker fills all four
    assert at.text_input(key=patch_view.CORRUPTED.key).value == EXAMPLES["paris"].corrupted
    assert any(c.value.startswith("What to look for: ") for c in at.caption)
    assert not any(c.value.startswith(look) for c in at.caption)


def test_a_run_shows_the_backends_grids_and_a_second_computes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[str] = []
    made: dict[str, torch.Tensor] = {}  # what the backend returned to the page
    for name in ("head_patching", "residual_patching", "attention_patching", "mlp_patching"):
        original = getattr(patching, name)

        def counted(*args, _original=original, _name=name, **kwargs):
            calls.append(_name)
            made[_name] = _original(*args, **kwargs)
            return made[_name]

        monkeypatch.setattr(patching, name, counted)
    patch_view._patching.clear()  # no run kept by an earlier test of this process
    at = on_smollm2()
    press_run(at)
    first = len(calls)
    assert first == 4, calls
    heads = made["head_patching"]
    lds = next(m.value for m in at.markdown if m.value.startswith("Logit difference"))
    assert "**+6.12** on the clean prompt, **-5.49** on the corrupted one" in lds
    np.testing.assert_allclose(z_of(at, patch_view.HEADS_GRID), heads.numpy(), atol=1e-5)
    residual = chart(at, patch_view.SITE_GRID)
    assert residual["layout"]["xaxis"]["ticktext"][9] == "␣John (2)"  # its second John
    assert z_of(at, patch_view.SITE_GRID).shape == (30, 14)
    top = at.dataframe[0].value
    best = divmod(int(heads.flatten().argmax()), heads.shape[1])
    assert top.iloc[0]["Head (layer.head)"] == f"{best[0]}.{best[1]}" and len(top) == 10
    # A control that does not change the grids repaints from the kept run.
    at.segmented_control(key=patch_view.SITE.key).set_value("mlp").run()
    at.number_input(key=patch_view.TOP.key).set_value(3).run()
    assert len(at.dataframe[0].value) == 3
    assert z_of(at, patch_view.SITE_GRID).shape == (30, 14)
    press_run(at)  # the same inputs again
    assert len(calls) == first
    again = on_smollm2()  # another session, the same inputs
    press_run(again)
    assert len(calls) == first
    np.testing.assert_allclose(z_of(again, patch_view.HEADS_GRID), heads.numpy(), atol=1e-5)
    # A click on head 23.3, as the grid's on_select stores it, opens it on Model attention.
    again.session_state[patch_view.CLICKED[0]] = 23
    again.session_state[patch_view.CLICKED[1]] = 3
    again.run(timeout=180)
    assert not again.exception, [e.value for e in again.exception]
    assert again.session_state[model_controls.LAYER.key] == 23
    assert again.session_state[model_controls.HEAD.key] == 3
    assert again.session_state[model_controls.SENTENCE_A.key] == IOI.clean
    assert not again.session_state[model_controls.SENTENCE_B.key]


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        (patch_view.CORRUPTED.key, "When Mary and John went to the shop, Mary gave a drink", "14"),
        (patch_view.ANSWER.key, " Maryanne", "Maryanne"),
        (patch_view.CORRUPTED.key, IOI.clean, "nothing"),
    ],
    ids=["lengths", "answer_pieces", "nothing"],
)
def test_bad_input_shows_the_backends_message_and_keeps_the_text(key, value, message) -> None:
    at = on_smollm2()
    at.text_input(key=key).set_value(value).run()
    press_run(at)
    errors = " ".join(e.value for e in at.error)
    assert errors and message in errors, errors
    assert at.text_input(key=key).value == value
    assert "Press **Run**" not in texts_of(at)


@pytest.mark.parametrize(
    ("grid", "said", "finished"),
    [
        ("head_patching", "Stopped before the grids were done", 0),
        ("attention_patching", "Stopped after 2 of 4 grids", 2),
    ],
    ids=["during_heads", "during_attention"],
)
def test_stop_shows_the_grids_finished_before_it_and_keeps_them_for_no_one_else(
    smol: Encoder, monkeypatch: pytest.MonkeyPatch, grid: str, said: str, finished: int
) -> None:
    original = getattr(patching, grid)

    def stop_pressed(*args, **kwargs):
        st.session_state[patch_view.HALTED] = True  # what Stop's click does while `grid` runs
        return original(*args, **kwargs)

    monkeypatch.setattr(patching, grid, stop_pressed)
    patch_view._patching.clear()
    at = on_smollm2()
    at.selectbox(key=patch_view.EXAMPLE.key).set_value("paris").run()  # 9 tokens: quicker
    press_run(at)
    assert said in texts_of(at)
    assert (str(smol.path), PARIS) not in patch_view._patching()[1]  # no other session sees it
    assert patch_view.RESULT not in at.session_state
    csvs = [d.proto.label for d in at.get("download_button") if "CSV" in d.proto.label]
    if not finished:
        assert not at.get("plotly_chart")[1:] and not csvs  # the tokens' chart alone
        return
    heads = patching.head_patching(
        smol, PARIS.clean, PARIS.corrupted, answer=PARIS.answer, wrong=PARIS.wrong
    )
    np.testing.assert_allclose(z_of(at, patch_view.HEADS_GRID), heads.numpy(), atol=1e-5)
    assert z_of(at, patch_view.SITE_GRID).shape == (30, 9)  # the residual stream's, finished
    assert csvs == ["top heads (CSV)", "heads grid (CSV)", "Residual stream (CSV)"]
    at.segmented_control(key=patch_view.SITE.key).set_value("attention").run()
    assert "Not finished before Stop: Attention output" in texts_of(at)
    keys = [c.proto.id.rpartition("-")[2] for c in at.get("plotly_chart")]
    assert patch_view.HEADS_GRID in keys and patch_view.SITE_GRID not in keys
