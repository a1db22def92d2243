"""Across layers on a decoder (SmolLM2) through AppTest: one sentence is enough for saliency,
the first token (its attention sink) can be hidden, the rollout row starts at the last
position and says when it sits on one token, the completeness gap comes with measured advice,
and every view's error ends in the page's own message."""

from __future__ import annotations

import numpy as np
import torch

from attnviz.app.model import MODEL
from attnviz.lessons.across import view as across
from attnviz.lessons.across.compute import spearman
from attnviz.lessons.across_common import view as view_common
from attnviz.lessons.across_rollout import view as view_rollout
from attnviz.lessons.across_saliency import view as view_saliency
from attnviz.rollout import attention_rollout
from attnviz.transformer import models
from attnviz.transformer.encoder import Encoder
from attnviz.transformer.views import renormalise
from tests.apptest import open_page, z_of
from tests.lessons.across.test_view import PAGE, A, B, bars, show

INDUCTION = "The cat sat on the mat. The dog sat on the rug. The cat sat on the"


def _smol_page():
    at = open_page(PAGE)
    at.selectbox(key=MODEL.key).set_value(models.SMOLLM2).run(timeout=120)
    assert not at.exception, [e.value for e in at.exception]
    return at


def picked(at) -> str:
    """The row picker's shown choice."""
    box = at.selectbox(key=view_rollout.ROW.key)
    return box.options[box.index]


def captions(at) -> str:
    return " ".join(c.value for c in at.caption)


def test_a_decoders_saliency_reads_one_sentence(smol: Encoder) -> None:
    at = _smol_page()
    at.text_area(key=across.SENTENCE_A.key).input(INDUCTION).run()
    at.text_area(key=across.SENTENCE_B.key).input("").run()
    at = show(at, "saliency")
    assert not at.exception, [e.value for e in at.exception]
    encoded = smol.encode(INDUCTION)
    shown = bars(at, "across_saliency")
    rollout = attention_rollout(encoded.every_attention())[-1, -1]
    np.testing.assert_allclose(shown["rollout from the last position"], rollout, atol=1e-5)
    assert len(shown["integrated gradients"]) == len(encoded.tokens)


def test_an_error_in_any_view_is_the_pages_message(monkeypatch) -> None:
    def fails(*args, **kwargs):
        raise ValueError("no gradient reaches the words")

    monkeypatch.setattr(view_saliency, "token_saliency", fails)
    at = show(open_page(PAGE), "saliency")
    assert not at.exception, [e.value for e in at.exception]
    assert "no gradient reaches the words" in at.error[0].value


def test_a_decoders_row_starts_at_the_last_position_and_names_its_one_token(
    smol: Encoder,
) -> None:
    at = _smol_page()
    rollout = attention_rollout(smol.encode(A, B).every_attention())[-1]  # (T, T)
    last = rollout.shape[0] - 1
    assert picked(at) == f"{last} · ␣tired"
    np.testing.assert_allclose(bars(at, "across_row_bars")["rollout"], rollout[last], atol=1e-5)
    share = float(rollout[last].max())
    assert share > 0.9 and int(rollout[last].argmax()) == 0
    assert f"puts {share:.2f} of its weight on “I”" in captions(at)
    assert "hide the first token" in captions(at)
    assert "row" not in at.query_params  # the default follows the text


def test_hiding_a_decoders_first_token_renormalises_rollout_and_saliency(smol: Encoder) -> None:
    at = _smol_page()
    at.toggle(key=view_common.FIRST.key).set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    rollout = attention_rollout(smol.encode(A, B).every_attention())[-1]  # (T, T)
    np.testing.assert_allclose(z_of(at, "across_rollout"), renormalise(rollout[1:, 1:]), atol=1e-5)
    np.testing.assert_allclose(
        bars(at, "across_row_bars")["rollout"], renormalise(rollout[-1, 1:]), atol=1e-5
    )
    assert "hide the first token" not in captions(at)
    assert at.query_params["first"] == "1"
    at = show(at, "saliency")
    assert not at.exception, [e.value for e in at.exception]
    shown = bars(at, "across_saliency")
    row = renormalise(rollout[-1, 1:])
    np.testing.assert_allclose(shown["rollout from the last position"], row, atol=1e-5)
    ig = torch.as_tensor(shown["integrated gradients"])
    assert len(ig) == rollout.shape[0] - 1
    assert at.dataframe[0].value["ρ"][2] == f"{spearman(row, ig.abs()):+.2f}"


def test_an_encoder_keeps_its_cls_row_and_has_no_first_token_switch() -> None:
    at = open_page(PAGE)
    assert picked(at) == "0 · [CLS]"
    assert not [w for w in at.toggle if w.key == view_common.FIRST.key]


def test_a_large_completeness_gap_measures_the_steps_that_close_it(smol: Encoder) -> None:
    at = show(_smol_page(), "saliency")
    at.select_slider(key=view_saliency.STEPS.key).set_value(8).run()
    at.selectbox(key=view_saliency.BASELINE.key).set_value("pad").run()
    note = next(c.value for c in at.caption if c.value.startswith("Completeness"))
    assert "over 8 steps" in note and "gap 13.9" in note  # measured: 13.97%
    assert "more steps may close it" in captions(at).lower()
    at.button(key=view_saliency.FIND_STEPS).click().run(timeout=300)
    assert not at.exception, [e.value for e in at.exception]
    # Measured: 16 steps leave 18.5%, 32 steps 4.80% (the page's default closes it).
    assert "Measured: 32 steps bring the gap under 10% (4.8" in captions(at)
    at.run()  # kept: the answer stays without a new click
    assert "Measured: 32 steps" in captions(at)


def test_no_steps_that_close_the_gap_name_another_baseline(monkeypatch) -> None:
    monkeypatch.setattr(view_saliency, "closing_steps", lambda *args: None)
    at = show(_smol_page(), "saliency")
    at.selectbox(key=view_saliency.BASELINE.key).set_value("zeros").run()  # 32 steps: a gap of 253%
    at.button(key=view_saliency.FIND_STEPS).click().run(timeout=300)
    assert not at.exception, [e.value for e in at.exception]
    assert "no number of steps up to 1024" in captions(at)
    assert "another baseline (the pad token's rows, special tokens kept)" in captions(at)


def test_a_decoders_saliency_starts_from_the_pad_rows_whose_gap_closes(smol: Encoder) -> None:
    at = show(_smol_page(), "saliency")
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=view_saliency.BASELINE.key).value == "pad"
    note = next(c.value for c in at.caption if c.value.startswith("Completeness"))
    gap = float(note.split("gap ")[1].split("%")[0])
    assert gap < 10  # measured: 4.8% over 32 steps (zeros: 253%)
    assert open_page(PAGE).session_state[view_saliency.BASELINE.key] == "zeros"  # MiniLM's stays
