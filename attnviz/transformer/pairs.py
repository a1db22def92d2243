"""One sentence or a pair as a model's input row: each sentence's pieces cut to fit, the
tokenizer's own specials and pair template around them, each token's segment and offsets.

`PairTokenizer` keeps a private copy of the model's Rust tokenizer, never reconfigured after it
is made: the library's own call sets truncation on its object per call, and two Streamlit
sessions tokenizing at once through one Encoder could otherwise collide ("Already borrowed").
A decoder has no pair template: a newline goes between A and B when the template puts nothing
there ("A" "B" would read as one run-on text).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

from attnviz.errors import InputError
from attnviz.transformer import tokens as piece_text


@dataclass(frozen=True)
class Pieces:
    """One sentence's pieces before the specials are added."""

    encoding: Any  # tokenizers.Encoding, already cut
    truncated: bool

    @property
    def ids(self) -> list[int]:
        return list(self.encoding.ids)


@dataclass(frozen=True)
class Row:
    """One model input row, the tokenizer's specials added, before padding."""

    ids: list[int]
    type_ids: list[int]  # what the tokenizer gives a model with token types (BERT's segments)
    segments: list[int]
    special: list[bool]
    offsets: list[tuple[int, int]]


class PairTokenizer:
    """A model's fast tokenizer as `Encoder` uses it: pieces, rows, and the ids of a text."""

    def __init__(self, tokenizer: Any, kind: str) -> None:
        from tokenizers import Tokenizer

        spec = tokenizer.backend_tokenizer.to_str()
        self._backend = Tokenizer.from_str(spec)
        self.style: str = piece_text.style_of(spec)  # how its pieces spell bytes (readable)
        self._backend.no_truncation()
        self._backend.no_padding()
        self.newline: list[int] = []  # a decoder reads a pair as A, "\n", B
        self.newline = self._newline_between(kind)

    def ids(self, text: str) -> list[int]:
        """The text's ids without any special."""
        return list(self._backend.encode(text, add_special_tokens=False).ids)

    def pieces(
        self,
        texts: list[str],
        names: list[str],
        max_length: int | None,
        *,
        cap: int,
        each: int,
    ) -> list[Pieces]:
        """Each sentence's pieces: cut to `each` pieces (max_length None), or together to
        `max_length` tokens with the specials (at most `cap`), the longer sentence first."""
        for text, name in zip(texts, names, strict=True):
            if not isinstance(text, str):
                raise TypeError(f"{name} must be a string, got {type(text).__name__}")
            if not text.strip():
                raise ValueError(f"{name} is empty")
        encodings = self._backend.encode_batch(list(texts), add_special_tokens=False)
        for name, encoding in zip(names, encodings, strict=True):
            if not encoding.ids:
                # Bad input a person can fix (zero-width or combining characters only), so an
                # InputError the pages show as a message.
                raise InputError("sentence_unreadable", which=name)
        lengths = [len(e.ids) for e in encodings]
        if max_length is None:
            keep = [min(n, each) for n in lengths]
        else:
            specials = self._backend.num_special_tokens_to_add(len(texts) == 2)
            if len(texts) == 2:
                specials += len(self.newline)
            keep = longest_first(lengths, max(len(texts), min(max_length, cap) - specials))
        result = []
        for encoding, n, k in zip(encodings, lengths, keep, strict=True):
            if k < n:
                encoding.truncate(k)
            result.append(Pieces(encoding, k < n))
        return result

    def assemble(self, pieces: list[Pieces]) -> Row:
        """The row with the tokenizer's own specials, each token's segment and offsets."""
        encoding = self._backend.post_process(
            pieces[0].encoding,
            pieces[1].encoding if len(pieces) > 1 else None,
            add_special_tokens=True,
        )
        segments: list[int] = []
        for sequence in encoding.sequence_ids:
            segments.append(segments[-1] if sequence is None and segments else (sequence or 0))
        special = [bool(m) for m in encoding.special_tokens_mask]
        offsets = [
            (0, 0) if s else (int(a), int(b))
            for s, (a, b) in zip(special, encoding.offsets, strict=True)
        ]
        row = Row(list(encoding.ids), list(encoding.type_ids), segments, special, offsets)
        if len(pieces) > 1 and self.newline:
            at = segments.index(1)  # B's first token: a newline (a special) goes before it
            n = len(self.newline)
            row = Row(
                row.ids[:at] + self.newline + row.ids[at:],
                row.type_ids[:at] + [row.type_ids[at - 1]] * n + row.type_ids[at:],
                segments[:at] + [0] * n + segments[at:],
                special[:at] + [True] * n + special[at:],
                offsets[:at] + [(0, 0)] * n + offsets[at:],
            )
        return row

    def _newline_between(self, kind: str) -> list[int]:
        """The ids of a newline to put between a pair's sentences, when this is a decoder whose
        tokenizer puts nothing between them; [] otherwise (`self.newline` still [])."""
        if kind != "decoder":
            return []
        encodings = self._backend.encode_batch(["a", "b"], add_special_tokens=False)
        row = self.assemble([Pieces(e, False) for e in encodings])
        if 1 not in row.segments:
            return []
        first_b = row.segments.index(1)
        if any(row.special[first_b - 1 : first_b]):
            return []  # the template separates A and B itself (a [SEP], a </s>)
        return self.ids("\n")


def model_inputs(row: Row, token_types: bool) -> dict[str, torch.Tensor]:
    """One row as the model's keyword inputs, batch 1: ids, attention mask, token types."""
    input_ids = torch.tensor([row.ids])  # (1, T)
    inputs = {"input_ids": input_ids, "attention_mask": torch.ones_like(input_ids)}
    if token_types:
        inputs["token_type_ids"] = torch.tensor([row.type_ids])  # (1, T)
    return inputs


def batch_inputs(rows: list[Row], pad: int, token_types: bool) -> dict[str, torch.Tensor]:
    """Single sentences' rows padded into one batch (B, T_max); token types stay 0."""
    length = max(len(row.ids) for row in rows)
    input_ids = torch.full((len(rows), length), pad, dtype=torch.long)  # (B, T_max)
    mask = torch.zeros_like(input_ids)  # (B, T_max) 1 = real token
    for b, row in enumerate(rows):
        n = len(row.ids)
        input_ids[b, :n] = torch.tensor(row.ids)
        mask[b, :n] = 1
    inputs = {"input_ids": input_ids, "attention_mask": mask}
    if token_types:  # single sentences: token types stay 0
        inputs["token_type_ids"] = torch.zeros_like(input_ids)
    return inputs


def longest_first(lengths: list[int], budget: int) -> list[int]:
    """How many pieces each sentence keeps when they share `budget`, as the tokenizers library's
    "longest_first" truncation decides it (transformers' own): the shorter sentence stays whole
    while it fits in half the budget, else both get half, the second the odd piece."""
    if sum(lengths) <= budget or len(lengths) == 1:
        return [min(n, budget) for n in lengths]
    first, second = lengths
    short, long = sorted((first, second))
    long = short if short > budget else max(short, budget - short)
    if short + long > budget:
        short, long = budget // 2, budget // 2 + budget % 2
    return [short, long] if first <= second else [long, short]
