"""The token vectors decomposable attention reads: each sentence encoded alone by MiniLM, [CLS]
and [SEP] left out, padded with zeros.

Sources: "contextual", one layer's output of the shared MiniLM; "static", its word-embedding rows
(looked up, no forward); "random", N(0, 1) vectors seeded by the text (a baseline that carries no
meaning); "tuned", the last of MiniLM's layers fine-tuned under the head (attnviz.nli.tuned).
`sentence_embeddings` is the untrained view's (one forward through `Encoder.encode_batch`, every
layer's attention kept for the page); `layer_vectors` and `tuned_vectors` are the classifier's,
which keep only the hidden state they read, so a batch of any size streams in bounded memory.
Shape letters: N sentences, L tokens of the longest, d embedding size.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

import torch

from attnviz.nli.card import SOURCES
from attnviz.nli.tuned import padded_ids, words_only

if TYPE_CHECKING:
    from attnviz.nli.tuned import TunedLayers
    from attnviz.transformer.encoder import Encoder

Vectors = tuple[list[list[str]], torch.Tensor, torch.Tensor]  # tokens, (N, L, d), lengths (N,)


def _text_seed(seed: int, text: str) -> int:
    """A generator seed from `seed` and the text (stable across runs, unlike hash())."""
    # One stream per sentence: a stream per call would give position k of premise 0 and of
    # hypothesis 0 the same vector, a diagonal alignment the baseline never had, and would
    # make a sentence's vectors depend on the batch around it.
    digest = hashlib.sha256(f"{seed}\0{text}".encode()).digest()
    return int.from_bytes(digest[:7], "little")


def _check_source(encoder: Encoder, sentences: Sequence[str], source: str, layer: int) -> None:
    if source not in SOURCES:
        raise ValueError(f"unknown source {source!r}: choose one of {', '.join(SOURCES)}")
    if not sentences:
        raise ValueError("no sentences to embed")
    layers = encoder.num_layers
    if not -(layers + 1) <= layer <= layers:
        raise ValueError(f"layer must lie in [{-(layers + 1)}, {layers}], got {layer}")


def sentence_embeddings(
    encoder: Encoder,
    sentences: list[str],
    *,
    source: str = "contextual",
    layer: int = -1,
    seed: int = 0,
    names: Sequence[str] | None = None,
) -> Vectors:
    """Word-piece tokens, padded embeddings (N, L, d) (zeros at padding) and lengths (N,).

    Each sentence is encoded alone, so its embeddings have not seen any other sentence, and
    [CLS] / [SEP] are left out. `source`: "contextual" is MiniLM's hidden state at `layer`
    (0 = embedding output, -1 = last layer), "static" its word-embedding rows (looked up
    without running the model), and "random" a baseline of N(0, 1) vectors, one per token
    position, drawn from `seed` and the sentence's text: they carry no meaning, so any pattern
    they show comes from the mechanics alone. `names` name the sentences in the InputError of
    one the tokenizer cannot read.
    """
    _check_source(encoder, sentences, source, layer)
    if source == "static":
        return static_embeddings(encoder, sentences, names)
    encoded = encoder.encode_batch(list(sentences), names)
    tokens: list[list[str]] = []
    rows: list[torch.Tensor] = []
    for index, (text, enc) in enumerate(zip(sentences, encoded, strict=True), start=1):
        keep = [not special for special in enc.special]
        words = [tok for tok, kept in zip(enc.tokens, keep, strict=True) if kept]
        if not words:
            raise ValueError(f"sentence {index} has no word pieces besides [CLS] and [SEP]")
        if source == "contextual":
            rows.append(enc.hidden_states[layer][torch.tensor(keep)])  # (T - 2, d)
        else:
            size = (len(words), enc.input_embeddings.shape[-1])
            gen = torch.Generator().manual_seed(_text_seed(seed, text))
            rows.append(torch.randn(size, generator=gen, dtype=enc.input_embeddings.dtype))
        tokens.append(words)
    lens = torch.tensor([len(words) for words in tokens], dtype=torch.int64)  # (N,)
    # pad_sequence fills with zeros, the padding the docstring promises.
    return tokens, torch.nn.utils.rnn.pad_sequence(rows, batch_first=True), lens  # (N, L, d)


def token_ids(
    encoder: Encoder, sentences: Sequence[str], names: Sequence[str] | None = None
) -> list[list[int]]:
    """Each sentence's word-piece ids, as the encoder cuts them (MAX_TOKENS, no specials)."""
    if names is None:
        names = [f"sentence {i + 1} of the batch" for i in range(len(sentences))]
    return [piece.ids for piece in encoder.pieces(list(sentences), list(names))]


def padded_rows(
    table: torch.Tensor, ids: Sequence[Sequence[int]]
) -> tuple[torch.Tensor, torch.Tensor]:
    """Rows of `table` (V, d) for each id list, zero-padded: (N, L, d) and lengths (N,)."""
    lens = torch.tensor([len(row) for row in ids], dtype=torch.int64)  # (N,)
    index = torch.zeros(len(ids), int(lens.max()), dtype=torch.long)  # (N, L)
    for n, row in enumerate(ids):
        index[n, : len(row)] = torch.tensor(row, dtype=torch.long)
    rows = table[index]  # (N, L, d)
    keep = torch.arange(index.shape[1])[None, :] < lens[:, None]  # (N, L)
    return rows * keep[..., None].to(rows.dtype), lens


def _tokens(encoder: Encoder, ids: list[list[int]]) -> list[list[str]]:
    return [list(encoder.tokenizer.convert_ids_to_tokens(row)) for row in ids]


def static_embeddings(
    encoder: Encoder, sentences: Sequence[str], names: Sequence[str] | None = None
) -> Vectors:
    """`sentence_embeddings(source="static")`: word-embedding rows, no forward pass."""
    ids = token_ids(encoder, sentences, names)
    table = encoder.model.get_input_embeddings().weight.detach()  # (V, d), frozen
    rows, lens = padded_rows(table, ids)
    return _tokens(encoder, ids), rows, lens


def _special_ids(encoder: Encoder) -> tuple[int, int, int]:
    tokenizer = encoder.tokenizer
    return tokenizer.cls_token_id, tokenizer.sep_token_id, int(tokenizer.pad_token_id or 0)


def layer_vectors(
    encoder: Encoder, sentences: Sequence[str], layer: int, names: Sequence[str] | None = None
) -> Vectors:
    """`sentence_embeddings(source="contextual")` of a BERT-style encoder without keeping any
    attention: one padded forward, the hidden state at `layer` alone returned."""
    _check_source(encoder, sentences, "contextual", layer)
    ids = token_ids(encoder, sentences, names)
    input_ids, mask = padded_ids(ids, *_special_ids(encoder))  # (N, L + 2) each
    with torch.inference_mode():
        out = encoder.model(
            input_ids=input_ids,
            attention_mask=mask,
            token_type_ids=torch.zeros_like(input_ids),
            output_hidden_states=True,
            output_attentions=False,
        )
        words, lens = words_only(out.hidden_states[layer], mask)  # (N, L, d)
    return _tokens(encoder, ids), words, lens


def tuned_vectors(
    tuned: TunedLayers,
    encoder: Encoder,
    sentences: Sequence[str],
    names: Sequence[str] | None = None,
    plain: TunedLayers | None = None,
) -> tuple[Vectors, torch.Tensor | None]:
    """The tuned layers' last output of each sentence, [CLS] and [SEP] left out; and with
    `plain` (the same layers untouched) its output of the same tokens, or None."""
    if not sentences:
        raise ValueError("no sentences to embed")
    ids = token_ids(encoder, sentences, names)
    input_ids, mask = padded_ids(ids, *_special_ids(encoder))  # (N, L + 2) each
    with torch.inference_mode():
        words, lens = words_only(tuned(input_ids, mask), mask)  # (N, L, d)
        keys = None if plain is None else words_only(plain(input_ids, mask), mask)[0]
    return (_tokens(encoder, ids), words, lens), keys


def encoder_fingerprint(encoder: Encoder) -> str:
    """Which encoder a checkpoint was made for: its sizes and a hash of its first word rows."""
    table = encoder.model.get_input_embeddings().weight  # (V, d)
    digest = hashlib.sha256(table[:256].detach().to(torch.float32).numpy().tobytes()).hexdigest()
    return f"{table.shape[0]}x{table.shape[1]}-{digest[:16]}"
