"""Pieces as readers read them: the text each piece encodes, not the tokenizer's alphabet.

Byte-level BPE (GPT-2, RoBERTa, Llama 3, SmolLM2) writes every byte as a printable character
("Ġ" for a space, "Ċ" for a newline, "ì" "ķ" "Ī" for the three bytes of 안); SentencePiece
writes a space as "▁" and an unknown character as byte pieces "<0xEC>". `readable` turns each
piece back into its bytes and decodes them in order:

- a piece's text is shown as text, its spaces as "␣", newlines as "↵", tabs as "⇥" (so "Ġthe"
  reads "␣the" and the leading space stays visible);
- a piece that completes a character begun in earlier pieces shows that whole character;
- bytes that do not yet make a character show as hex, "⟨EC 95⟩";
- specials (but for whitespace, such as the newline between a decoder's pair), WordPiece's "##"
  pieces and anything else are shown as the tokenizer writes them.
"""

from __future__ import annotations

import codecs
import functools
import json
import re
from collections.abc import Sequence
from typing import Any

STYLES = ("bytelevel", "metaspace", "plain")
SPACE, NEWLINE, TAB = "␣", "↵", "⇥"
_BYTE_PIECE = re.compile(r"<0x([0-9A-Fa-f]{2})>")


@functools.cache
def _byte_of() -> dict[str, int]:
    """GPT-2's byte-level alphabet, character -> byte (the inverse of bytes_to_unicode)."""
    printable = [*range(ord("!"), ord("~") + 1), *range(0xA1, 0xAC + 1), *range(0xAE, 0xFF + 1)]
    chars, extra = list(printable), 0
    for b in range(256):
        if b not in printable:
            printable.append(b)
            chars.append(256 + extra)
            extra += 1
    return {chr(c): b for b, c in zip(printable, chars, strict=True)}


def style_of(tokenizer_json: str) -> str:
    """The piece alphabet of a tokenizers JSON: "bytelevel", "metaspace" or "plain"."""
    try:
        spec = json.loads(tokenizer_json)
    except ValueError:
        return "plain"
    parts = [spec.get("decoder") or {}, spec.get("pre_tokenizer") or {}]
    types: list[str] = []
    while parts:
        part = parts.pop()
        if isinstance(part, dict):
            types.append(str(part.get("type")))
            if part.get("type") == "Replace" and "▁" in json.dumps(part.get("pattern")):
                types.append("Metaspace")
            parts += part.get("decoders") or part.get("pretokenizers") or []
    if "ByteLevel" in types:
        return "bytelevel"
    if "Metaspace" in types or "ByteFallback" in types:
        return "metaspace"
    return "plain"


def piece_bytes(piece: str, style: str) -> bytes | None:
    """The bytes a piece encodes, or None when it is not written in the style's alphabet."""
    if style == "bytelevel":
        table = _byte_of()
        if not all(c in table for c in piece):
            return None
        return bytes(table[c] for c in piece)
    if style == "metaspace":
        found = _BYTE_PIECE.fullmatch(piece)
        if found:
            return bytes([int(found.group(1), 16)])
        return piece.replace("▁", " ").encode("utf-8")
    return None


def _shown(text: str) -> str:
    return text.replace(" ", SPACE).replace("\n", NEWLINE).replace("\t", TAB)


def _hex(data: bytes) -> str:
    return "⟨" + " ".join(f"{b:02X}" for b in data) + "⟩"


def readable(pieces: Sequence[str], style: str, special: Sequence[bool] | None = None) -> list[str]:
    """Each piece's label, the pieces read in order (a character split over pieces is shown on
    the piece that completes it). `special` marks pieces to keep as written."""
    special = special if special is not None else [False] * len(pieces)
    labels: list[str] = []
    decoder = codecs.getincrementaldecoder("utf-8")()
    for piece, is_special in zip(pieces, special, strict=True):
        data = piece_bytes(piece, style)
        if is_special and data is not None and not data.isspace():
            data = None  # a special as written; one of whitespace (a pair's newline) as marks
        if data is None:
            decoder.reset()
            labels.append(piece)
            continue
        try:
            text = decoder.decode(data)
        except UnicodeDecodeError:  # bytes that no UTF-8 text holds: shown as they are
            decoder.reset()
            labels.append(_hex(data))
            continue
        waiting = decoder.getstate()[0]  # bytes of a character not yet complete
        own = waiting[-len(data) :] if waiting else b""
        labels.append(_shown(text) + (_hex(own) if own else ""))
    return labels


class Vocabulary:
    """A tokenizer's every id's piece, looked up once on first use (the tokenizer's own lookup
    costs more per id); ids past the tokenizer's own (a model's padded vocabulary) read ""."""

    def __init__(self, tokenizer: Any, size: int, style: str) -> None:
        self._tokenizer = tokenizer
        self._size = size  # the model's vocabulary size
        self.style = style
        self._pieces: list[str] | None = None

    def pieces(self) -> list[str]:
        """Every id's piece, as the tokenizer writes it."""
        if self._pieces is None:
            known = len(self._tokenizer)
            size = max(known, self._size)
            pieces = self._tokenizer.convert_ids_to_tokens(list(range(known)))
            self._pieces = [str(p) for p in pieces] + [""] * (size - known)
        return self._pieces

    def readable(self, token_id: int) -> str:
        """One piece as a reader reads it ("␣cat" for "Ġcat")."""
        return readable([self.pieces()[token_id]], self.style)[0]
