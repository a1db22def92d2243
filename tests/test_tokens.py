"""Readable pieces (attnviz.transformer.tokens): each piece's label is the text it encodes, for
byte-level BPE (SmolLM2, tiny GPT-2), SentencePiece (tiny Llama's metaspace) and WordPiece
(MiniLM, unchanged); the labels read in order rebuild the typed text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from attnviz.transformer.encoder import Encoder
from attnviz.transformer.tokens import NEWLINE, SPACE, TAB, piece_bytes, readable, style_of
from attnviz.transformer.words import word_groups, word_labels
from tests import families

TEXTS = {
    "english": "The cat sat on the mat.\nThen it slept\tall day.",
    "korean": "안녕하세요 세계, 저는 피곤해요",
    "emoji": "I love it 😀👍🏽 naïve café ❤️",
}


def rebuilt(labels: list[str]) -> str:
    """The text the labels spell: hex bytes are a character's unfinished part, which the piece
    that completes it shows whole, so they are left out."""
    text = re.sub("⟨[0-9A-F ]+⟩", "", "".join(labels))
    return text.replace(SPACE, " ").replace(NEWLINE, "\n").replace(TAB, "\t")


@pytest.mark.parametrize("which", TEXTS)
def test_smollm2_labels_rebuild_the_typed_text(smol: Encoder, which: str) -> None:
    encoded = smol.encode(TEXTS[which], next_tokens=False)
    assert encoded.token_style == "bytelevel"
    labels = encoded.labels
    assert not any(c in "".join(labels) for c in "ĠĊĉ")  # the byte alphabet's spellings
    assert rebuilt(labels) == TEXTS[which]
    complete = [label for label in labels if "⟨" not in label]
    assert len(complete) >= len(TEXTS[which].split())  # every word ends on a whole character


def test_a_character_shows_on_the_piece_that_completes_it(smol: Encoder) -> None:
    encoded = smol.encode("안녕", next_tokens=False)
    assert encoded.tokens == ["ì", "ķ", "Ī", "ë", "ħ", "ķ"]
    assert encoded.labels == ["⟨EC⟩", "⟨95⟩", "안", "⟨EB⟩", "⟨85⟩", "녕"]
    spaced = smol.encode("I am tired", next_tokens=False)
    assert spaced.tokens == ["I", "Ġam", "Ġtired"]
    assert spaced.labels == ["I", "␣am", "␣tired"]


def test_hangul_words_merge_from_offsets_with_their_piece_counts(smol: Encoder) -> None:
    encoded = smol.encode(TEXTS["korean"], next_tokens=False)
    groups = word_groups(encoded)
    assert word_labels(encoded, groups) == ["안녕하세요", "세계,", "저는", "피곤해요"]
    assert [len(g) for g in groups] == [14, 7, 6, 11]  # 3 bytes a syllable, some merged
    assert sum(len(g) for g in groups) == len(encoded.tokens)


def test_the_styles_of_the_families(tmp_path: Path) -> None:
    made = families.make_all(tmp_path, ("gpt2", "llama", "bert", "t5"))
    styles = {
        name: style_of(Encoder(folder).tokenizer.backend_tokenizer.to_str())
        for name, folder in made.items()
    }
    assert styles == {
        "gpt2": "bytelevel", "llama": "metaspace", "bert": "plain", "t5": "metaspace"
    }  # fmt: skip
    llama = Encoder(made["llama"]).encode("the cat sat", next_tokens=False)
    assert all("▁" not in label for label in llama.labels)
    assert "".join(llama.labels[1:]).replace(SPACE, " ").strip() == "the cat sat"


def test_wordpiece_and_specials_stay_as_written(encoder: Encoder) -> None:
    encoded = encoder.encode("I am tiredness", "ok")
    assert encoded.labels == encoded.tokens  # MiniLM's [CLS], ##ness: as before


def test_pieces_outside_the_alphabet_are_kept() -> None:
    assert piece_bytes("<0xEC>", "metaspace") == b"\xec"
    assert piece_bytes("▁the", "metaspace") == b" the"
    assert piece_bytes("日本", "bytelevel") is None  # not byte-level characters
    assert readable(["<|im_start|>", "Ġhi"], "bytelevel", [True, False]) == ["<|im_start|>", "␣hi"]
    # A byte that no UTF-8 text holds on its own (a continuation byte first): shown as hex.
    assert readable(["ķ"], "bytelevel") == ["⟨95⟩"]
