"""Across layers on the picked model through AppTest: SmolLM2 (the pair read as A, a newline,
B) for rollout, the head statistics and the saliency of its next token's log-probability, each
against the backend on the same reading."""

from __future__ import annotations

import numpy as np
import torch

from attnviz.app.model import MODEL
from attnviz.lessons.across.compute import head_statistics, next_token_forward
from attnviz.rollout import attention_rollout
from attnviz.transformer import models
from attnviz.transformer.encoder import Encoder
from tests.apptest import chart, open_page, z_of
from tests.lessons.across.test_view import PAGE, A, B, bars, show


def _smol_page():
    at = open_page(PAGE)
    at.selectbox(key=MODEL.key).set_value(models.SMOLLM2).run(timeout=120)
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_rollout_and_heads_read_smollm2(smol: Encoder) -> None:
    at = _smol_page()
    encoded = smol.encode(A, B)
    assert encoded.labels[4] == "↵"  # A, a newline, B
    rollout = attention_rollout(encoded.every_attention())
    np.testing.assert_allclose(z_of(at, "across_rollout"), rollout[-1], atol=1e-5)
    assert chart(at, "across_rollout")["layout"]["yaxis"]["ticktext"][1] == "␣do"
    at = show(at, "heads")
    stats = head_statistics(encoded)
    np.testing.assert_allclose(z_of(at, "across_stat_first"), stats["first"], atol=1e-6)
    assert z_of(at, "across_stat_first").shape == (30, 9)


def test_the_saliency_of_smollm2s_next_token(smol: Encoder) -> None:
    at = show(_smol_page(), "saliency")
    assert not at.exception, [e.value for e in at.exception]
    encoded = smol.encode(A, B)
    assert encoded.next_token_ids is not None
    token = int(encoded.next_token_ids[-1, 0])
    with torch.no_grad():
        value = float(next_token_forward(smol, token)(encoded.input_embeddings.float()))
    logits = encoded.next_token_probs
    assert logits is not None
    assert abs(value - float(torch.log(logits[-1, 0]))) < 1e-4  # the model's own probability
    text = " ".join(m.value for m in at.markdown)
    assert f"is **{value:.4f}**" in text and smol.readable_piece(token) in text
    shown = bars(at, "across_saliency")
    rollout = attention_rollout(encoded.every_attention())[-1, -1]
    np.testing.assert_allclose(shown["rollout from the last position"], rollout, atol=1e-5)
    assert len(shown["integrated gradients"]) == len(encoded.tokens)
