"""Labelled pairs held for training: each distinct sentence once, as word-piece ids, and (for
the contextual source) each piece's vector.

Files are read by attnviz.nli.data (SNLI / MultiNLI JSONL and .txt, CSV), one line at a time.
Each sentence is tokenised once and kept as word-piece ids (4 bytes a piece); the static source
looks its embedding rows up per batch, so a file of any size fits: reading takes at most
MEMORY_BYTES_PER_PAIR bytes a pair (550,000 pairs of distinct sentences: about 260 MB, measured)
and training adds at most MEMORY_TRAINING_BYTES. The contextual source runs the encoder once per
distinct sentence and keeps each piece's vector in float16 (2 bytes times the encoder's width, 768
bytes for MiniLM): in memory up to MEMORY_CACHE_BYTES, beyond that in a file under a cache folder
(refused above a cap, with the size and the time said before it starts: all of SNLI is about 25
GB and over an hour on 2 cores).
"""

from __future__ import annotations

import tempfile
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import torch

from attnviz.errors import InputError
from attnviz.nli.checkpoint import sha256_of
from attnviz.nli.data import LABELS, Example, ReadSummary, read_file
from attnviz.transformer.encoder import MAX_TOKENS

if TYPE_CHECKING:
    from attnviz.transformer.encoder import Encoder

MEMORY_BYTES_PER_PAIR = 600  # reading, static path: a pair of distinct sentences, measured ~470
MEMORY_TRAINING_BYTES = 300_000_000  # training once it starts: torch's buffers, not per pair
MEMORY_CACHE_BYTES = 2_000_000_000  # contextual vectors kept in memory up to this
CHUNK = 512  # sentences tokenised or encoded at once

Progress = Callable[[str, int, int], None]  # (stage, done, total)


def piece_bytes(encoder: Encoder) -> int:
    """The bytes of one piece's contextual vector in float16."""
    return 2 * encoder.hidden_size


class SentenceStore:
    """Distinct sentences as word-piece ids, and (contextual) their vectors, by index; "tuned"
    keeps the ids only (attnviz.nli.finetune runs the layers it tunes on them)."""

    def __init__(self, encoder: Encoder, source: str, layer: int | None) -> None:
        if source not in ("static", "contextual", "tuned"):
            raise ValueError(
                f"train on 'static', 'contextual' or 'tuned' embeddings, not {source!r}"
            )
        self.encoder, self.source = encoder, source
        self.layer = -1 if layer is None else layer
        self.index: dict[str, int] = {}
        self.ids = array("i")  # every sentence's pieces, one after another
        self.starts = array("q", [0])  # sentence i is ids[starts[i]:starts[i + 1]]
        self.vectors: np.ndarray | None = None  # (pieces, d) float16, contextual only
        self._pending: list[str] = []

    def __len__(self) -> int:
        return len(self.starts) - 1

    def add(self, sentence: str) -> int:
        """The sentence's index (tokenised in chunks; see `flush`), reusing a repeat's."""
        found = self.index.get(sentence)
        if found is not None:
            return found
        index = len(self.index)
        self.index[sentence] = index
        self._pending.append(sentence)
        if len(self._pending) >= CHUNK:
            self.flush()
        return index

    def flush(self) -> None:
        """Tokenise the pending sentences (an unreadable one gets no pieces: see `usable`)."""
        if not self._pending:
            return
        tokenizer = self.encoder.tokenizer
        with self.encoder.tokenizer_lock:
            batch = tokenizer(
                self._pending,
                add_special_tokens=False,
                truncation=True,
                max_length=MAX_TOKENS,
                return_attention_mask=False,
                return_token_type_ids=False,
            )
        for ids in batch["input_ids"]:
            self.ids.extend(ids)
            self.starts.append(len(self.ids))
        self._pending = []

    def usable(self, index: int) -> bool:
        return self.starts[index + 1] > self.starts[index]

    def pieces(self) -> int:
        return len(self.ids)

    def encode(self, cache: Path | None, cap_bytes: int, progress: Progress | None) -> None:
        """Run MiniLM once per sentence (contextual only), keeping each piece's vector."""
        self.flush()
        if self.source != "contextual" or self.vectors is not None:
            return
        d = self.encoder.hidden_size
        size = max(self.pieces(), 1) * piece_bytes(self.encoder)
        if size > cap_bytes:
            raise InputError(
                "nli_cache_cap", size=f"{size / 1e9:.1f}", cap=f"{cap_bytes / 1e9:.1f}"
            )
        if size <= MEMORY_CACHE_BYTES or cache is None:
            vectors = np.zeros((max(self.pieces(), 1), d), dtype=np.float16)
        else:
            cache.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=cache, suffix=".f16", delete=False) as handle:
                name = handle.name
            vectors = np.memmap(name, dtype=np.float16, mode="w+", shape=(self.pieces(), d))
        sentences = list(self.index)
        for start in range(0, len(sentences), CHUNK // 8):
            chunk = [
                s
                for i, s in enumerate(sentences[start : start + CHUNK // 8], start)
                if self.usable(i)
            ]
            if chunk:
                self._encode_chunk(chunk, vectors)
            if progress:
                progress("encode", min(start + CHUNK // 8, len(sentences)), len(sentences))
        self.vectors = vectors

    def _encode_chunk(self, chunk: list[str], vectors: np.ndarray) -> None:
        for sentence, enc in zip(chunk, self.encoder.encode_batch(chunk), strict=True):
            i = self.index[sentence]
            keep = torch.tensor([not s for s in enc.special])  # (T,) no [CLS] / [SEP]
            rows = enc.hidden_states[self.layer][keep]  # (T - 2, d)
            vectors[self.starts[i] : self.starts[i + 1]] = rows.numpy().astype(np.float16)

    def batch(self, indices: Iterable[int]) -> tuple[torch.Tensor, torch.Tensor]:
        """Padded embeddings (N, L, d) and lengths (N,) of these sentences, gathered at once."""
        starts = np.frombuffer(self.starts, dtype=np.int64)
        chosen = np.fromiter(indices, dtype=np.int64)
        first = starts[chosen]  # (N,)
        lens = starts[chosen + 1] - first  # (N,)
        width = max(int(lens.max()), 1)
        valid = np.arange(width)[None, :] < lens[:, None]  # (N, L)
        where = np.where(valid, first[:, None] + np.arange(width)[None, :], 0)  # (N, L)
        if self.source == "static":
            ids = torch.from_numpy(np.frombuffer(self.ids, dtype=np.int32)[where].astype(np.int64))
            table = self.encoder.model.get_input_embeddings().weight  # (V, d)
            rows = table.detach()[ids]  # (N, L, d)
        else:
            assert self.vectors is not None, "encode() the contextual store first"
            rows = torch.from_numpy(np.asarray(self.vectors[where], dtype=np.float32))
        return rows * torch.from_numpy(valid)[..., None].to(rows.dtype), torch.from_numpy(lens)


@dataclass
class PairSet:
    """Pairs as indices into a SentenceStore, with their labels; and how the file was read."""

    premises: array = field(default_factory=lambda: array("i"))
    hypotheses: array = field(default_factory=lambda: array("i"))
    labels: array = field(default_factory=lambda: array("b"))
    summary: ReadSummary | None = None
    source_file: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.labels)

    def label_tensor(self) -> torch.Tensor:
        return torch.from_numpy(np.frombuffer(self.labels, dtype=np.int8).astype(np.int64))


def gather(
    examples: Iterable[Example],
    summary: ReadSummary,
    store: SentenceStore,
    progress: Progress | None = None,
) -> PairSet:
    """Every example into the store and a PairSet, a few bytes a pair (pairs whose text has no
    word piece are counted as bad in the summary)."""
    pairs = PairSet(summary=summary)
    for example in examples:
        pairs.premises.append(store.add(example.premise))
        pairs.hypotheses.append(store.add(example.hypothesis))
        pairs.labels.append(example.label)
        if progress and summary.rows % 10_000 == 0:
            progress("read", summary.rows, 0)
    store.flush()
    starts = np.frombuffer(store.starts, dtype=np.int64)
    usable = starts[1:] > starts[:-1]  # (sentences,) has at least one word piece
    premises = np.frombuffer(pairs.premises, dtype=np.int32)
    hypotheses = np.frombuffer(pairs.hypotheses, dtype=np.int32)
    keep = usable[premises] & usable[hypotheses]  # (pairs,)
    del starts, premises, hypotheses  # release the arrays' buffers before they are resized
    if keep.all():
        return pairs
    labels = np.frombuffer(pairs.labels, dtype=np.int8)
    for label in labels[~keep].tolist():
        summary.kept -= 1
        summary.by_label[label] -= 1
        summary.reject(0, InputError("sentence_unreadable", which="premise or hypothesis"))
    chosen = np.flatnonzero(keep)
    kept = PairSet(summary=summary)
    kept.premises.frombytes(np.frombuffer(pairs.premises, dtype=np.int32)[chosen].tobytes())
    kept.hypotheses.frombytes(np.frombuffer(pairs.hypotheses, dtype=np.int32)[chosen].tobytes())
    kept.labels.frombytes(labels[chosen].tobytes())
    return kept


def memory_budget(pairs: int) -> int:
    """The memory reading `pairs` pairs for the static path may take, beyond the encoder."""
    return pairs * MEMORY_BYTES_PER_PAIR


def read_pairs(path: Path, store: SentenceStore, progress: Progress | None = None) -> PairSet:
    """A file's pairs into the store, with the file's name, SHA-256 and counts."""
    if not path.is_file():
        raise InputError("nli_no_file", path=str(path))
    examples, summary = read_file(path)
    pairs = gather(examples, summary, store, progress)
    pairs.source_file = {
        "file": path.name,
        "sha256": sha256_of(path),
        "pairs": len(pairs),
        "by_label": dict(zip(LABELS, summary.by_label, strict=True)),
        "unlabelled": summary.unlabelled,
        "bad": summary.bad,
    }
    return pairs


def sentence_of(store: SentenceStore) -> list[str]:
    """Index -> sentence."""
    return list(store.index)


def pair_texts(pairs: PairSet, store: SentenceStore) -> list[tuple[str, str]]:
    sentences = sentence_of(store)
    return [
        (sentences[p], sentences[h]) for p, h in zip(pairs.premises, pairs.hypotheses, strict=True)
    ]
