"""Long readings (attnviz.transformer.lazy, Encoder.encode(lazy=True)): one forward that keeps
q, k and v, and one head's weights computed tile by tile, equal to the eager weights; SmolLM2 at
4,096 tokens; the tiny families that lazy reading serves, and those it refuses."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from attnviz.errors import InputError
from attnviz.transformer import lazy
from attnviz.transformer.encoder import MAX_TOTAL_TOKENS, Encoder
from tests import families

LONG = 4096


def long_text(tokens: int = LONG) -> str:
    """Sentences of the hard set, enough for `tokens` of SmolLM2's pieces (about 4.7 characters
    a piece in English prose, so 6 characters a piece is plenty)."""
    text, sentences = "", iter(families.corpus())
    while len(text) < tokens * 6:
        text += next(sentences) + " "
    return text


def test_a_lazy_reading_equals_the_eager_one(smol: Encoder) -> None:
    text = long_text(600)
    eager = smol.encode(text, max_length=MAX_TOTAL_TOKENS)
    reading = smol.encode(text, max_length=MAX_TOTAL_TOKENS, lazy=True)
    assert reading.attentions is None and reading.lazy is not None
    assert reading.tokens == eager.tokens and len(reading.tokens) == MAX_TOTAL_TOKENS
    for layer in range(smol.num_layers):
        for head in range(smol.num_heads):
            torch.testing.assert_close(
                reading.head_attention(layer, head),
                eager.head_attention(layer, head),
                atol=1e-5,
                rtol=0,
            )
    torch.testing.assert_close(reading.hidden_states, eager.hidden_states, atol=2e-3, rtol=1e-4)
    assert reading.next_token_ids is not None and eager.next_token_ids is not None
    assert torch.equal(reading.next_token_ids, eager.next_token_ids)
    with pytest.raises(ValueError, match="keeps no attentions"):
        reading.every_attention()


def test_4096_tokens_one_head_at_a_time(smol: Encoder) -> None:
    assert smol.max_lazy_length == LONG and smol.max_length == MAX_TOTAL_TOKENS
    text = long_text()
    reading = smol.encode(text, lazy=True)
    assert reading.lazy is not None and len(reading.tokens) == LONG
    assert reading.truncated == (True,)
    # Memory as ARCHITECTURE.md states it: q, k, v and the shared causal pattern.
    assert 0.48e9 < reading.lazy.nbytes < 0.52e9
    weights = reading.head_attention(5, 3)
    assert weights.shape == (LONG, LONG) and weights.dtype == torch.float32
    torch.testing.assert_close(weights.sum(-1), torch.ones(LONG), atol=1e-5, rtol=0)
    first = smol.encode(text, max_length=MAX_TOTAL_TOKENS)  # the first 512 tokens, eagerly
    assert first.tokens == reading.tokens[:MAX_TOTAL_TOKENS]
    torch.testing.assert_close(weights[:512, :512], first.head_attention(5, 3), atol=1e-5, rtol=0)
    assert float(weights[:512, 512:].abs().max()) == 0.0  # causal: no look ahead
    row = reading.lazy.row(5, 3, LONG - 1)
    torch.testing.assert_close(row, weights[-1], atol=1e-6, rtol=0)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    names = ("gpt2", "llama", "gpt_neox", "qwen2", "bert", "roberta", "deberta-v2", "t5")
    return families.make_all(tmp_path_factory.mktemp("lazy"), names)


@pytest.mark.parametrize("name", ["gpt2", "llama", "gpt_neox", "qwen2", "bert", "roberta"])
def test_the_families_lazy_reading_serves(tiny: dict[str, Path], name: str) -> None:
    encoder = Encoder(tiny[name])
    assert encoder.lazy_supported()
    text = " ".join(families.corpus()[:4])
    eager = encoder.encode(text, max_length=64)
    reading = encoder.encode(text, max_length=64, lazy=True)
    assert reading.tokens == eager.tokens
    assert reading.lazy is not None
    for layer in range(encoder.num_layers):
        for head in range(encoder.num_heads):
            torch.testing.assert_close(
                reading.head_attention(layer, head), eager.every_attention()[layer, head],
                atol=1e-5, rtol=0,
            )  # fmt: skip


@pytest.mark.parametrize("name", ["deberta-v2", "t5"])
def test_the_families_it_refuses_say_so(tiny: dict[str, Path], name: str) -> None:
    encoder = Encoder(tiny[name])
    assert not encoder.lazy_supported()
    with pytest.raises(InputError, match="cannot be read lazily"):
        encoder.encode("A dog runs on the beach.", lazy=True)
    assert encoder.encode("A dog runs on the beach.").attentions is not None  # eager as before


def test_other_callers_see_eager_attention_while_one_reads_lazily(smol: Encoder) -> None:
    # The capture is the calling thread's: outside it the wrapped function is the library's.
    assert not lazy.active()
    with lazy.keeping():
        assert lazy.active()
    assert smol.encode("The cat sat.").attentions is not None


@pytest.mark.parametrize("name", ["gpt2", "llama", "gpt_neox", "qwen2", "bert", "roberta", "t5"])
def test_recompute_attention_works_for_every_family_the_neuron_view_reads(
    tiny: dict[str, Path], name: str
) -> None:
    from attnviz.transformer.views import recompute_attention

    encoder = Encoder(tiny[name])
    encoded = encoder.encode(" ".join(families.corpus()[:2]), "A dog runs.", max_length=64)
    for layer in range(encoder.num_layers):
        ours = recompute_attention(encoder, encoded, layer)
        torch.testing.assert_close(ours, encoded.every_attention()[layer], atol=1e-5, rtol=0)
    if encoded.kind == "encoder-decoder":  # T5's decoder self-attention and cross-attention
        assert encoded.decoder_attentions is not None and encoded.cross_attentions is not None
        for stack, expected in (
            ("decoder", encoded.decoder_attentions),
            ("cross", encoded.cross_attentions),
        ):
            ours = recompute_attention(encoder, encoded, 0, stack=stack)
            torch.testing.assert_close(ours, expected[0], atol=1e-5, rtol=0)
