"""Word pieces merged into the words a reader sees, from the pieces' character offsets in the
typed text (every tokenizer family: WordPiece's "##", byte-level "Ġ", SentencePiece's "▁"), as
Clark et al. 2019 ("What Does BERT Look At?") merge them: attention to a word is the sum over
its pieces, attention from a word the mean.

Shape letters: L layers, H heads, T tokens, W words, d hidden size.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import torch

if TYPE_CHECKING:
    from attnviz.transformer.encoder import Encoded

_WORD = re.compile(r"\S+")  # a whitespace-separated word, as the user reads the text


# --- words ---------------------------------------------------------------------------------


def _word_spans(text: str) -> tuple[list[int], list[int]]:
    """Starts and ends of the whitespace-separated words of `text`."""
    spans = [m.span() for m in _WORD.finditer(text)]
    return [s for s, _ in spans], [e for _, e in spans]


def _word_of(starts: list[int], ends: list[int], position: int) -> int | None:
    """Index of the word whose span holds `position`, or None on whitespace."""
    k = bisect.bisect_right(starts, position) - 1
    return k if k >= 0 and position < ends[k] else None


def _word_starts(encoded: Encoded) -> list[int | None]:
    """The word (index in its sentence) each token belongs to; None for a special.

    A piece joins the word whose span holds its first character that is not whitespace:
    byte-level pieces ("Ġcat") start on the space before their word. A piece of whitespace
    alone (SentencePiece's lone "▁", a "Ġ" before a second space) joins the word after it in
    its sentence, or the one before it at the end.
    """
    spans = [_word_spans(text) for text in encoded.texts]
    words: list[int | None] = []
    for segment, is_special, (start, end) in zip(
        encoded.segments, encoded.special, encoded.offsets, strict=True
    ):
        text = encoded.texts[segment]
        while start < end and text[start].isspace():
            start += 1
        words.append(None if is_special or start >= end else _word_of(*spans[segment], start))
    # Whitespace pieces take their neighbour's word, in the same sentence.
    for i, word in enumerate(words):
        if word is not None or encoded.special[i]:
            continue
        same = [j for j in range(len(words)) if encoded.segments[j] == encoded.segments[i]]
        later = [j for j in same if j > i and words[j] is not None and not encoded.special[j]]
        earlier = [j for j in same if j < i and words[j] is not None and not encoded.special[j]]
        if later:
            words[i] = words[later[0]]
        elif earlier:
            words[i] = words[earlier[-1]]
    return words


def word_groups(encoded: Encoded) -> list[list[int]]:
    """Token indices grouped into the whitespace-separated words of the text, in order.

    A piece joins the word whose span holds its offset start (past any leading space): Hangul
    jamo pieces share their syllable's offset and [UNK] spans the emoji, so both land in the
    right word, where re-joining piece strings would not. Each special is a group of its own.
    """
    groups: list[list[int]] = []
    last: tuple[int, int] | None = None
    for i, (segment, word) in enumerate(zip(encoded.segments, _word_starts(encoded), strict=True)):
        if word is None:
            # A special, or a piece of nothing but whitespace: a group of its own.
            groups.append([i])
            last = None
        elif (segment, word) == last:
            groups[-1].append(i)
        else:
            groups.append([i])
            last = (segment, word)
    return groups


def word_labels(encoded: Encoded, groups: Sequence[Sequence[int]]) -> list[str]:
    """The original text of each group's word (original case); specials as written."""
    spans = [_word_spans(text) for text in encoded.texts]
    last_piece: dict[int, int] = {}  # segment -> index of its last non-special token
    for i, (segment, is_special) in enumerate(zip(encoded.segments, encoded.special, strict=True)):
        if not is_special:
            last_piece[segment] = i
    words = _word_starts(encoded)
    labels = []
    for group in groups:
        pieces = [i for i in group if not encoded.special[i]]
        if not pieces:
            labels.append(" ".join(encoded.tokens[i] for i in group))
            continue
        segment = encoded.segments[pieces[0]]
        text = encoded.texts[segment]
        start = min(encoded.offsets[i][0] for i in pieces)
        end = max(encoded.offsets[i][1] for i in pieces)
        word = words[pieces[0]]
        cut_here = encoded.truncated[segment] and last_piece.get(segment) in pieces
        if word is not None and not cut_here:
            # The whole word: pieces may skip characters the tokenizer drops (U+FE0F in ❤️).
            start, end = spans[segment][0][word], spans[segment][1][word]
        labels.append(text[start:end].strip() or text[start:end])
    return labels


def _group_index(groups: Sequence[Sequence[int]], n: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(T,) group of each token and (W,) group sizes; the groups must partition range(n)."""
    index = torch.full((n,), -1, dtype=torch.long)  # (T,)
    for w, group in enumerate(groups):
        if not group:
            raise ValueError(f"group {w} is empty")
        for i in group:
            if not 0 <= i < n:
                raise ValueError(f"token index {i} in group {w} is outside 0..{n - 1}")
            if index[i] >= 0:
                raise ValueError(f"token {i} is in more than one group")
            index[i] = w
    if (index < 0).any():
        missing = (index < 0).nonzero().flatten().tolist()
        raise ValueError(f"tokens {missing} are in no group: groups must cover every token")
    counts = torch.tensor([len(g) for g in groups])  # (W,)
    return index, counts


def merge_attention(attn: torch.Tensor, groups: Sequence[Sequence[int]]) -> torch.Tensor:
    """(..., T, T) -> (..., W, W): sum over a word's pieces as keys, mean over them as queries.

    Summing over keys keeps each row a distribution; averaging queries keeps it one (Clark et
    al. 2019). index_add_ adds into zeros, so one-piece groups come out bit-identical.
    """
    n = attn.shape[-1]
    if attn.ndim < 2 or attn.shape[-2] != n:
        raise ValueError(f"attention must be (..., T, T), got {tuple(attn.shape)}")
    index, counts = _group_index(groups, n)
    if not attn.is_floating_point():
        attn = attn.float()
    w = len(groups)
    to_words = attn.new_zeros(*attn.shape[:-1], w).index_add_(-1, index, attn)  # (..., T, W)
    summed = attn.new_zeros(*attn.shape[:-2], w, w).index_add_(-2, index, to_words)  # (..., W, W)
    return summed / counts.to(attn.dtype)[:, None]  # (..., W, W)


def merge_vectors(x: torch.Tensor, groups: Sequence[Sequence[int]]) -> torch.Tensor:
    """(..., T, d) -> (..., W, d): the mean of each word's piece vectors."""
    if x.ndim < 2:
        raise ValueError(f"vectors must be (..., T, d), got {tuple(x.shape)}")
    index, counts = _group_index(groups, x.shape[-2])
    if not x.is_floating_point():
        x = x.float()
    summed = x.new_zeros(*x.shape[:-2], len(groups), x.shape[-1]).index_add_(-2, index, x)
    return summed / counts.to(x.dtype)[:, None]  # (..., W, d)
