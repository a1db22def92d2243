"""Views of a reading: the attention a page shows (specials or the first token hidden, words
merged, a block of a pair, rows renormalised over what is shown), the caveat on text outside
MiniLM's vocabulary, and the reference check that attnviz.attention reproduces a model's own
weights.

Shape letters: L layers, H heads, T tokens, S key tokens, W words, d_head a head's size.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING

import torch

from attnviz.attention import attend
from attnviz.transformer.words import merge_attention, word_groups, word_labels

if TYPE_CHECKING:
    from attnviz.transformer.encoder import Encoded, Encoder

UNK = "[UNK]"  # BERT's unknown piece: the tokenizer writes it for emoji and unseen characters
# Query and key rows kept by each block of a pair: segment of the queries, of the keys.
_BLOCKS: dict[str, tuple[int | None, int | None]] = {
    "all": (None, None),
    "AA": (0, 0),
    "AB": (0, 1),
    "BA": (1, 0),
    "BB": (1, 1),
}


def alignment_caveat(encoded: Encoded) -> bool:
    """True when the text lies outside an English uncased WordPiece vocabulary."""
    return tokens_caveat(
        [
            token
            for token, special in zip(encoded.tokens, encoded.special, strict=True)
            if not special
        ]
    )


def tokens_caveat(tokens: Sequence[str]) -> bool:
    """True for [UNK] pieces, or pieces holding letters of a non-Latin script.

    The vocabulary has such characters (Hangul jamo, Cyrillic, CJK...) one by one, so their
    embeddings and attention patterns carry little meaning. `tokens` holds no [CLS]/[SEP].
    """
    for token in tokens:
        if token == UNK:
            return True
        for ch in token.removeprefix("##"):
            if ch.isalpha() and not unicodedata.name(ch, "").startswith("LATIN"):
                return True
    return False


def recompute_attention(
    encoder: Encoder, encoded: Encoded, layer: int, *, stack: str = "encoder"
) -> torch.Tensor:
    """(H, T, S): a layer's attention recomputed through attnviz.attention's `attend`.

    The proof that attnviz.attention reproduces the model: q, k and v as the layer's attention
    function received them (captured, attnviz.transformer.neurons.layer_call: projected,
    rotated, normed; grouped-query attention's key heads repeated), the scale the family uses,
    its mask, and T5's position bias, through `attend`'s dot-product score, for every family the
    neuron view reads. A bias is folded into the dot product:
    [s q_i, e_i] . [k_j, b_:j] = s q_i.k_j + b_ij.
    """
    from attnviz.transformer.neurons import layer_call

    if not 0 <= layer < encoder.num_layers:
        raise ValueError(f"layer must lie in 0..{encoder.num_layers - 1}, got {layer}")
    call = layer_call(encoder, encoded, layer=layer, stack=stack)
    q = call.query[0].float()  # (H, T, d_head)
    groups = q.shape[0] // call.key.shape[1]
    k = call.key[0].float().repeat_interleave(groups, dim=0)  # (H, S, d_head)
    v = call.value[0].float().repeat_interleave(groups, dim=0)  # (H, S, d_head)
    scale = call.scaling if call.scaling is not None else q.shape[-1] ** -0.5
    q = q * scale
    if call.position_bias is not None and bool(call.position_bias.ne(0).any()):
        bias = call.position_bias[0].float()  # (H, T, S)
        rows = torch.eye(q.shape[1]).expand(q.shape[0], -1, -1)  # (H, T, T)
        q, k = torch.cat([q, rows], dim=-1), torch.cat([k, bias.transpose(1, 2)], dim=-1)
    allowed = None
    if call.mask is not None:
        flat = call.mask[0, 0]
        allowed = flat > torch.finfo(flat.dtype).min / 2 if flat.is_floating_point() else flat
        allowed = allowed.expand(q.shape[1], k.shape[1])
    with torch.inference_mode():
        return attend(q, k, v, score="dot", mask=allowed).weights  # (H, T, S)


def attention_view(
    encoded: Encoded,
    *,
    hide_specials: bool = False,
    merge_words: bool = False,
    block: str = "all",
    hide_first: bool = False,
) -> tuple[torch.Tensor, list[str], list[str]]:
    """(L, H, r, c) attention for display, with its query (row) and key (column) labels.
    `hide_first` drops the first token's (or word's) row and column too: a decoder's
    attention sink.

    Words are merged over all tokens first, so merged rows still sum to 1; hiding [CLS] /
    [SEP] and picking a block of a pair ("AB": queries of A, keys of B) only drop rows and
    columns afterwards, without renormalising.
    """
    attn = encoded.every_attention()  # (L, H, T, T)
    labels = encoded.labels
    if merge_words:
        groups = word_groups(encoded)
        attn = merge_attention(attn, groups)  # (L, H, W, W)
        labels = word_labels(encoded, groups)
    rows, cols = _shown(encoded, hide_specials, merge_words, block, hide_first)
    view = _picked(attn, -2, rows)  # (L, H, r, T or W)
    view = _picked(view, -1, cols)  # (L, H, r, c)
    return view, [labels[i] for i in rows], [labels[i] for i in cols]


def view_positions(
    encoded: Encoded,
    *,
    hide_specials: bool = False,
    merge_words: bool = False,
    block: str = "all",
    hide_first: bool = False,
) -> tuple[list[int], list[int]]:
    """The token positions of the rows and of the columns `attention_view` shows with the same
    settings (a merged word: its last piece), so that a shown row can be named by its token."""
    rows, cols = _shown(encoded, hide_specials, merge_words, block, hide_first)
    if not merge_words:
        return rows, cols
    last = [group[-1] for group in word_groups(encoded)]
    return [last[i] for i in rows], [last[i] for i in cols]


def _shown(
    encoded: Encoded, hide_specials: bool, merge_words: bool, block: str, hide_first: bool
) -> tuple[list[int], list[int]]:
    """The indices (tokens, or words when `merge_words`) of the shown rows and columns."""
    if block not in _BLOCKS:
        raise ValueError(f"unknown block {block!r}: choose one of {', '.join(_BLOCKS)}")
    row_segment, col_segment = _BLOCKS[block]
    if max(row_segment or 0, col_segment or 0) >= len(encoded.texts):
        raise ValueError(f"block {block} needs a pair of sentences")
    segments, special = encoded.segments, encoded.special
    if merge_words:
        groups = word_groups(encoded)
        segments = [encoded.segments[g[0]] for g in groups]
        special = [all(encoded.special[i] for i in g) for g in groups]

    def keep(segment: int | None) -> list[int]:
        return [
            i
            for i, (s, is_special) in enumerate(zip(segments, special, strict=True))
            if (segment is None or s == segment)
            and not (hide_specials and is_special)
            and not (hide_first and i == 0)
        ]

    return keep(row_segment), keep(col_segment)


def renormalise(attn: torch.Tensor) -> torch.Tensor:
    """(..., r, c) -> (..., r, c): each row divided by its sum, so it sums to 1 over the shown
    keys (softmax rows are positive, so no shown row sums to 0)."""
    return attn / attn.sum(dim=-1, keepdim=True)  # (..., r, c)


def _picked(attn: torch.Tensor, dim: int, index: list[int]) -> torch.Tensor:
    """`attn` at positions `index` along `dim`: a view where they run without a gap (all of
    them, or all but the first or last), a copy otherwise. SmolLM2's 512 tokens are 283 MB
    of attention: two copies took 1.4 s of every rerun of the model page."""
    if index and index == list(range(index[0], index[-1] + 1)):
        return attn.narrow(dim, index[0], len(index))
    return attn.index_select(dim, torch.tensor(index, dtype=torch.long))
