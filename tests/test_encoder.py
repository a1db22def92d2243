"""Tests for `attnviz.transformer.encoder` with the real all-MiniLM-L6-v2 (no mocks; loaded
once, ~3 s).

References are independent of the implementation: the tokenizer's own pair encoding, the
model's word-embedding matrix, the original text sliced by offsets, hand-merged matrices.
"""

from __future__ import annotations

import unicodedata

import pytest
import torch

from attnviz.transformer.encoder import MAX_TOKENS, Encoded, Encoder, load_encoder
from attnviz.transformer.views import (
    alignment_caveat,
    attention_view,
    recompute_attention,
    view_positions,
)
from attnviz.transformer.words import merge_attention, merge_vectors, word_groups, word_labels

PAIR = ("I do need sleep", "I am tired")
MIXED = "Hello, World! It's a CAFÉ-time (naïve?) -- isn't it? 42% of e-mails, Dr. O'Neil."


@pytest.fixture(scope="module")
def encoder() -> Encoder:
    return load_encoder()


@pytest.fixture(scope="module")
def pair(encoder: Encoder) -> Encoded:
    return encoder.encode(*PAIR)


def test_encoder_attributes(encoder: Encoder) -> None:
    assert (encoder.num_layers, encoder.num_heads, encoder.hidden_size) == (6, 12, 384)
    assert not encoder.model.training


def test_pair_shapes_tokens_and_segments(encoder: Encoder, pair: Encoded) -> None:
    tokens = ["[CLS]", "i", "do", "need", "sleep", "[SEP]", "i", "am", "tired", "[SEP]"]
    assert pair.tokens == tokens
    assert pair.segments == [0, 0, 0, 0, 0, 0, 1, 1, 1, 1]
    assert pair.special == [tok in ("[CLS]", "[SEP]") for tok in tokens]
    assert pair.offsets[:6] == [(0, 0), (0, 1), (2, 4), (5, 9), (10, 15), (0, 0)]
    assert pair.offsets[6:] == [(0, 1), (2, 4), (5, 10), (0, 0)]
    assert pair.texts == PAIR
    assert pair.truncated == (False, False)
    n = len(tokens)
    assert len(pair.segments) == len(pair.special) == len(pair.offsets) == n
    assert pair.attentions.shape == (6, 12, n, n)
    assert pair.attentions.dtype == torch.float32
    torch.testing.assert_close(pair.attentions.sum(-1), torch.ones(6, 12, n), atol=1e-5, rtol=0)
    assert pair.hidden_states.shape == (7, n, 384)
    assert pair.input_embeddings.shape == (n, 384)


def test_pair_is_read_as_the_tokenizer_pairs_it(encoder: Encoder, pair: Encoded) -> None:
    ref = encoder.tokenizer(*PAIR)
    assert encoder.tokenizer.convert_ids_to_tokens(ref["input_ids"]) == pair.tokens
    assert ref["token_type_ids"] == pair.segments
    ids = torch.tensor(ref["input_ids"])
    weight = encoder.model.get_input_embeddings().weight
    assert torch.equal(pair.input_embeddings, weight[ids])
    with torch.inference_mode():
        out = encoder.model(
            **ref.convert_to_tensors("pt", prepend_batch_axis=True),
            output_attentions=True,
            output_hidden_states=True,
        )
    torch.testing.assert_close(pair.attentions, torch.stack(out.attentions)[:, 0])
    torch.testing.assert_close(pair.hidden_states, torch.stack(out.hidden_states)[:, 0])


@pytest.mark.parametrize("texts", [("The cat sat on the mat, unbelievably.",), PAIR])
def test_recompute_attention_reproduces_every_layer(
    encoder: Encoder, texts: tuple[str, ...]
) -> None:
    encoded = encoder.encode(*texts)
    n = len(encoded.tokens)
    for layer in range(encoder.num_layers):
        ours = recompute_attention(encoder, encoded, layer)
        assert ours.shape == (12, n, n)
        error = (ours - encoded.attentions[layer]).abs().max().item()
        assert error < 1e-5, (layer, error)


def test_recompute_attention_rejects_a_missing_layer(encoder: Encoder, pair: Encoded) -> None:
    with pytest.raises(ValueError, match="layer"):
        recompute_attention(encoder, pair, 6)


def _strip_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")


def test_offsets_map_pieces_back_to_the_text(encoder: Encoder) -> None:
    encoded = encoder.encode(MIXED, "Second SENTENCE, here!")
    accented = 0
    for token, segment, special, (s, e) in zip(
        encoded.tokens, encoded.segments, encoded.special, encoded.offsets, strict=True
    ):
        if special:
            assert (s, e) == (0, 0)
            continue
        text = encoded.texts[segment]
        assert 0 <= s < e <= len(text)
        if token == "[UNK]":
            continue
        piece, span = token.removeprefix("##"), text[s:e].lower()
        if span != piece:
            # The uncased tokenizer strips accents as well: "CAFÉ" is read as "cafe".
            assert _strip_accents(span) == piece, (token, span)
            accented += 1
            continue
        assert span == piece
    assert accented == 2  # café, naïve
    assert "," in encoded.tokens and "'" in encoded.tokens


def test_a_long_sentence_is_cut_to_max_tokens(encoder: Encoder) -> None:
    text = "word " * 2000
    assert len(text) == 10_000
    encoded = encoder.encode(text)
    assert len(encoded.tokens) == MAX_TOKENS + 2
    assert encoded.truncated == (True,)
    assert encoded.attentions.shape[-1] == MAX_TOKENS + 2


def test_only_the_long_sentence_of_a_pair_is_cut(encoder: Encoder) -> None:
    encoded = encoder.encode("I am tired", "very " * 2000)
    assert encoded.truncated == (False, True)
    assert encoded.tokens[:5] == ["[CLS]", "i", "am", "tired", "[SEP]"]
    assert len(encoded.tokens) == 5 + MAX_TOKENS + 1
    assert encoded.segments.count(1) == MAX_TOKENS + 1


def test_truncation_boundary(encoder: Encoder) -> None:
    assert encoder.encode("word " * MAX_TOKENS).truncated == (False,)
    assert encoder.encode("word " * (MAX_TOKENS + 1)).truncated == (True,)


def test_one_huge_word_is_a_single_unknown_piece(encoder: Encoder) -> None:
    # BERT's WordPiece gives up on words over 100 characters: one [UNK], nothing cut.
    encoded = encoder.encode("x" * 10_000)
    assert encoded.tokens == ["[CLS]", "[UNK]", "[SEP]"]
    assert encoded.truncated == (False,)
    assert word_labels(encoded, word_groups(encoded))[1] == "x" * 10_000


@pytest.mark.parametrize("blank", ["", "   ", "\n\t "])
def test_empty_sentences_raise(encoder: Encoder, blank: str) -> None:
    with pytest.raises(ValueError, match="sentence A is empty"):
        encoder.encode(blank)
    with pytest.raises(ValueError, match="sentence B is empty"):
        encoder.encode("I am tired", blank)
    with pytest.raises(ValueError, match="sentence 2 of the batch is empty"):
        encoder.encode_batch(["I am tired", blank])


def test_a_sentence_of_invisible_characters_raises(encoder: Encoder) -> None:
    with pytest.raises(ValueError, match="sentence A has no characters"):
        encoder.encode("\u200b\u200b")


def test_word_groups_merge_word_pieces(encoder: Encoder) -> None:
    encoded = encoder.encode("Unbelievably tired")
    # Measured: "unbelievably" is five pieces, "tired" is one.
    assert encoded.tokens == ["[CLS]", "un", "##bel", "##ie", "##va", "##bly", "tired", "[SEP]"]
    groups = word_groups(encoded)
    assert groups == [[0], [1, 2, 3, 4, 5], [6], [7]]
    assert word_labels(encoded, groups) == ["[CLS]", "Unbelievably", "tired", "[SEP]"]


def test_word_groups_follow_korean_words(encoder: Encoder) -> None:
    encoded = encoder.encode("나는 피곤하다")
    # Syllables fall apart into jamo pieces, several sharing one character's offsets.
    assert encoded.tokens[1:3] == ["ᄂ", "##ᅡ"]
    assert len(encoded.tokens) == 16
    groups = word_groups(encoded)
    assert groups == [[0], [1, 2, 3, 4, 5], list(range(6, 15)), [15]]
    assert word_labels(encoded, groups) == ["[CLS]", "나는", "피곤하다", "[SEP]"]
    assert alignment_caveat(encoded)


def test_word_groups_keep_an_emoji_as_its_word(encoder: Encoder) -> None:
    encoded = encoder.encode("I am 🙂")
    assert encoded.tokens == ["[CLS]", "i", "am", "[UNK]", "[SEP]"]
    groups = word_groups(encoded)
    assert groups == [[0], [1], [2], [3], [4]]
    assert word_labels(encoded, groups) == ["[CLS]", "I", "am", "🙂", "[SEP]"]
    assert alignment_caveat(encoded)
    # U+FE0F after the heart is dropped by the tokenizer; the label keeps the word whole.
    heart = encoder.encode("❤️ you")
    assert word_labels(heart, word_groups(heart))[1] == "❤️"


def test_word_groups_of_a_pair_and_punctuation(encoder: Encoder) -> None:
    encoded = encoder.encode("Hello, World!", "It's fine")
    groups = word_groups(encoded)
    labels = word_labels(encoded, groups)
    assert labels == ["[CLS]", "Hello,", "World!", "[SEP]", "It's", "fine", "[SEP]"]
    assert [encoded.segments[g[0]] for g in groups] == [0, 0, 0, 0, 1, 1, 1]
    assert sorted(i for g in groups for i in g) == list(range(len(encoded.tokens)))


def test_label_of_a_word_cut_by_truncation(encoder: Encoder) -> None:
    encoded = encoder.encode("a " * (MAX_TOKENS - 1) + "unbelievably")
    assert encoded.truncated == (True,)
    assert encoded.tokens[-2:] == ["un", "[SEP]"]
    assert word_labels(encoded, word_groups(encoded))[-2] == "un"


def test_alignment_caveat_is_false_for_english(encoder: Encoder, pair: Encoded) -> None:
    assert not alignment_caveat(pair)
    assert not alignment_caveat(encoder.encode(MIXED))


def test_merge_attention_sums_keys_and_averages_queries() -> None:
    attn = torch.tensor([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3], [0.0, 0.4, 0.6]])
    groups = [[0], [1, 2]]
    # Row 0 sums keys 1 and 2; rows 1 and 2, after summing, are averaged: ([.6, .4] + [0, 1]) / 2.
    expected = torch.tensor([[0.2, 0.8], [0.3, 0.7]])
    torch.testing.assert_close(merge_attention(attn, groups), expected)
    vectors = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 8.0]])
    torch.testing.assert_close(merge_vectors(vectors, groups), torch.tensor([[1.0, 2.0], [4, 6]]))


def test_merge_attention_on_the_model(encoder: Encoder, pair: Encoded) -> None:
    encoded = encoder.encode("Unbelievably tired, said the naïve café-owner", "나는 피곤하다 🙂")
    groups = word_groups(encoded)
    merged = merge_attention(encoded.attentions, groups)
    w = len(groups)
    assert merged.shape == (6, 12, w, w)
    torch.testing.assert_close(merged.sum(-1), torch.ones(6, 12, w), atol=1e-5, rtol=0)
    assert merge_vectors(encoded.hidden_states, groups).shape == (7, w, 384)
    # Every word of the pair is one piece: merging changes nothing, bit for bit.
    singles = word_groups(pair)
    assert singles == [[i] for i in range(len(pair.tokens))]
    assert torch.equal(merge_attention(pair.attentions, singles), pair.attentions)
    assert torch.equal(merge_vectors(pair.input_embeddings, singles), pair.input_embeddings)


@pytest.mark.parametrize(
    ("groups", "message"),
    [([[0], [1]], "in no group"), ([[0, 1], [1, 2]], "more than one"), ([[0, 1, 2], []], "empty")],
)
def test_merge_rejects_groups_that_do_not_partition(groups: list[list[int]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        merge_attention(torch.eye(3), groups)


def test_encode_batch_equals_encoding_alone(encoder: Encoder) -> None:
    texts = ["Hi", "I do need sleep", "나는 정말 잠이 필요해 🙂", MIXED, "word " * 300]
    batch = encoder.encode_batch(texts)
    assert len(batch) == len(texts)
    for text, got in zip(texts, batch, strict=True):
        alone = encoder.encode(text)
        assert got.tokens == alone.tokens
        assert got.offsets == alone.offsets and got.segments == alone.segments
        assert got.texts == (text,) and got.truncated == alone.truncated
        for name in ("attentions", "hidden_states", "input_embeddings"):
            torch.testing.assert_close(
                getattr(got, name), getattr(alone, name), atol=1e-5, rtol=1.3e-6, msg=name
            )
    assert encoder.encode_batch([]) == []


def test_attention_view_blocks_specials_and_words(pair: Encoded) -> None:
    view, rows, cols = attention_view(pair, hide_specials=True, block="AB")
    assert rows == ["i", "do", "need", "sleep"] and cols == ["i", "am", "tired"]
    assert torch.equal(view, pair.attentions[:, :, 1:5, 6:9])
    full, rows, cols = attention_view(pair)
    assert torch.equal(full, pair.attentions) and rows == cols == pair.tokens
    with pytest.raises(ValueError, match="unknown block"):
        attention_view(pair, block="AC")


def test_view_positions_name_each_shown_row_and_column_by_its_token(pair: Encoded) -> None:
    assert view_positions(pair, hide_specials=True, block="AB") == ([1, 2, 3, 4], [6, 7, 8])
    assert view_positions(pair, hide_first=True)[0] == list(range(1, len(pair.tokens)))
    _, rows, _ = attention_view(pair, merge_words=True, hide_specials=True)
    positions, _ = view_positions(pair, merge_words=True, hide_specials=True)
    assert len(positions) == len(rows) and positions == sorted(positions)
    assert [pair.tokens[p] for p in positions] == ["i", "do", "need", "sleep", "i", "am", "tired"]


def test_attention_view_copies_nothing_where_the_shown_tokens_run_without_a_gap(
    pair: Encoded,
) -> None:
    """A view shares the reading's memory (SmolLM2's 512 tokens: 283 MB, two copies took 1.4 s
    of every rerun); only a gap (here [SEP] between A and B, hidden) makes a copy."""
    storage = pair.attentions.untyped_storage().data_ptr()
    for options in ({}, {"hide_specials": True, "block": "AB"}, {"hide_first": True}):
        view = attention_view(pair, **options)[0]
        assert view.untyped_storage().data_ptr() == storage, options
    gapped, rows, _ = attention_view(pair, hide_specials=True)  # A, then B: [SEP] between
    assert rows == ["i", "do", "need", "sleep", "i", "am", "tired"]
    assert gapped.untyped_storage().data_ptr() != storage
    assert torch.equal(
        gapped, pair.attentions[:, :, [1, 2, 3, 4, 6, 7, 8]][..., [1, 2, 3, 4, 6, 7, 8]]
    )


def test_attention_view_merged_words(encoder: Encoder) -> None:
    encoded = encoder.encode("Unbelievably tired")
    view, rows, cols = attention_view(encoded, merge_words=True)
    assert rows == cols == ["[CLS]", "Unbelievably", "tired", "[SEP]"]
    torch.testing.assert_close(view.sum(-1), torch.ones(6, 12, 4), atol=1e-5, rtol=0)
    with pytest.raises(ValueError, match="needs a pair"):
        attention_view(encoded, block="AB")
