"""Training the NLI classifier on labelled pairs: seeded, deterministic on the CPU, streaming.

    attnviz train-nli --data TRAIN [--dev DEV] [--test TEST] [--source static]
        [--layer 6] [--scale sqrt_d] [--hidden 200] [--epochs 20] [--out PATH.safetensors]

`make train-nli` trains the default checkpoint on the shipped set (data/nli/). Files are read by
attnviz.nli_data (SNLI / MultiNLI JSONL and .txt, CSV), one line at a time. Each sentence is
tokenised once and kept as word-piece ids (4 bytes a piece); the static source looks its
embedding rows up per batch, so a file of any size fits: reading takes at most
MEMORY_BYTES_PER_PAIR bytes a pair (550,000 pairs of distinct sentences: about 260 MB, measured)
and training adds at most MEMORY_TRAINING_BYTES. The contextual source runs MiniLM once per
distinct sentence and keeps each piece's vector in float16 (768 bytes a piece): in memory up to
MEMORY_CACHE_BYTES, beyond that in a file under --cache (refused above --cache-gb, with the size
and the time said before it starts: all of SNLI is about 25 GB and over an hour on 2 cores).

Training is Adam on the cross-entropy, d2l's recipe, with the weights of the best dev epoch kept;
`premise_blind` trains the hypothesis-only baseline (the premise replaced by one zero vector):
a model that never sees the premise, the measure of the data's artefacts.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from array import array
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import torch
import torch.nn.functional as F_nn

from attnviz import nli_checkpoint
from attnviz.encoder import MAX_TOKENS
from attnviz.errors import InputError
from attnviz.nli_data import LABELS, Example, ReadSummary, read_file
from attnviz.nli_model import DecomposableAttentionModel, Scale, encoder_fingerprint

if TYPE_CHECKING:
    from attnviz.encoder import Encoder

MEMORY_BYTES_PER_PAIR = 600  # reading, static path: a pair of distinct sentences, measured ~470
MEMORY_TRAINING_BYTES = 300_000_000  # training once it starts: torch's buffers, not per pair
MEMORY_CACHE_BYTES = 2_000_000_000  # contextual vectors kept in memory up to this
PIECE_BYTES = 2 * 384  # a contextual vector in float16
CHUNK = 512  # sentences tokenised or encoded at once
MISTAKES_KEPT = 40  # test pairs the card lists that the model gets wrong

Progress = Callable[[str, int, int], None]  # (stage, done, total)


@dataclass(frozen=True)
class TrainConfig:
    """Everything a training run depends on, besides the data."""

    source: str = "static"  # "static" or "contextual"
    layer: int | None = None  # the contextual layer (0 = embedding output .. 6)
    scale: Scale = "none"
    hidden: int = 200
    dropout: float = 0.2
    epochs: int = 20
    batch_size: int = 64
    lr: float = 1e-3
    weight_decay: float = 0.0
    seed: int = 0
    premise_blind: bool = False  # the hypothesis-only baseline
    max_steps: int | None = None  # stop after this many batches (tests and smoke runs)


class SentenceStore:
    """Distinct sentences as word-piece ids, and (contextual) their vectors, by index."""

    def __init__(self, encoder: Encoder, source: str, layer: int | None) -> None:
        if source not in ("static", "contextual"):
            raise ValueError(f"train on 'static' or 'contextual' embeddings, not {source!r}")
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
        with self.encoder._tokenizer_lock:
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
        size = max(self.pieces(), 1) * d * 2
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
        "sha256": nli_checkpoint.sha256_of(path),
        "pairs": len(pairs),
        "by_label": dict(zip(LABELS, summary.by_label, strict=True)),
        "unlabelled": summary.unlabelled,
        "bad": summary.bad,
    }
    return pairs


def _sides(
    pairs: PairSet, order: torch.Tensor, store: SentenceStore, premise_blind: bool
) -> tuple[torch.Tensor, ...]:
    b, lens_b = store.batch(pairs.hypotheses[i] for i in order.tolist())
    if premise_blind:
        a = torch.zeros(len(order), 1, b.shape[-1])  # (N, 1, d): nothing of the premise
        lens_a = torch.ones(len(order), dtype=torch.int64)
    else:
        a, lens_a = store.batch(pairs.premises[i] for i in order.tolist())
    return a, b, lens_a, lens_b


def predict(
    model: DecomposableAttentionModel,
    pairs: PairSet,
    store: SentenceStore,
    premise_blind: bool = False,
) -> torch.Tensor:
    """(N, 3) probabilities of every pair, in batches, in inference mode."""
    model.train(False)
    out = []
    with torch.inference_mode():
        for start in range(0, len(pairs), 256):
            order = torch.arange(start, min(start + 256, len(pairs)))
            out.append(torch.softmax(model(*_sides(pairs, order, store, premise_blind)), dim=-1))
    return torch.cat(out) if out else torch.zeros(0, len(LABELS))


def accuracy(probabilities: torch.Tensor, pairs: PairSet) -> float:
    if len(pairs) == 0:
        return float("nan")
    return float((probabilities.argmax(-1) == pairs.label_tensor()).float().mean())


@dataclass
class History:
    """Per epoch: mean training loss, training accuracy, dev accuracy (nan without dev)."""

    loss: list[float] = field(default_factory=list)
    train_accuracy: list[float] = field(default_factory=list)
    dev_accuracy: list[float] = field(default_factory=list)
    best_epoch: int = 0
    seconds: float = 0.0
    pairs_per_second: float = 0.0


def train(
    config: TrainConfig,
    train_set: PairSet,
    store: SentenceStore,
    dev_set: PairSet | None = None,
    progress: Progress | None = None,
    epoch_done: Callable[[int, History, DecomposableAttentionModel], bool] | None = None,
) -> tuple[DecomposableAttentionModel, History]:
    """Train a model; the weights of the best dev epoch (the last without dev) are returned.

    `epoch_done(epoch, history, model)` is called after each epoch; returning False stops.
    """
    if len(train_set) == 0:
        raise InputError("pairs_empty")
    torch.manual_seed(config.seed)
    model = DecomposableAttentionModel(
        store.encoder.hidden_size, config.hidden, config.dropout, config.scale
    )
    optimizer = torch.optim.Adam(model.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    shuffle = torch.Generator().manual_seed(config.seed)
    labels = train_set.label_tensor()
    history, best, best_dev, steps = History(), None, -1.0, 0
    start = time.perf_counter()
    for epoch in range(config.epochs):
        model.train(True)
        order = torch.randperm(len(train_set), generator=shuffle)
        total, correct = 0.0, 0
        for first in range(0, len(order), config.batch_size):
            batch = order[first : first + config.batch_size]
            logits = model(*_sides(train_set, batch, store, config.premise_blind))
            loss = F_nn.cross_entropy(logits, labels[batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += float(loss.detach()) * len(batch)
            correct += int((logits.argmax(-1) == labels[batch]).sum())
            steps += 1
            if progress:
                progress("train", min(first + len(batch), len(order)), len(order))
            if config.max_steps is not None and steps >= config.max_steps:
                break
        seen = min(len(order), steps * config.batch_size) if config.max_steps else len(order)
        history.loss.append(total / max(seen, 1))
        history.train_accuracy.append(correct / max(seen, 1))
        dev = (
            accuracy(predict(model, dev_set, store, config.premise_blind), dev_set)
            if dev_set
            else math.nan
        )
        history.dev_accuracy.append(dev)
        if dev_set is None or dev > best_dev:
            best_dev, history.best_epoch = dev, epoch
            best = {k: v.detach().clone() for k, v in model.state_dict().items()}
        keep_going = epoch_done(epoch, history, model) if epoch_done else True
        if not keep_going or (config.max_steps is not None and steps >= config.max_steps):
            break
    history.seconds = time.perf_counter() - start
    history.pairs_per_second = steps * config.batch_size / max(history.seconds, 1e-9)
    assert best is not None
    model.load_state_dict(best)
    return model.train(False), history


def results(
    model: DecomposableAttentionModel,
    store: SentenceStore,
    test_set: PairSet,
    texts: list[tuple[str, str]],
    premise_blind: bool = False,
) -> dict[str, Any]:
    """Test accuracy with its 95% interval, the confusion matrix and the pairs it gets wrong."""
    probabilities = predict(model, test_set, store, premise_blind)
    labels = test_set.label_tensor()
    predicted = probabilities.argmax(-1)
    correct = int((predicted == labels).sum())
    wrong = (predicted != labels).nonzero().flatten().tolist()[:MISTAKES_KEPT]
    return {
        "accuracy": correct / max(len(test_set), 1),
        "ci95": list(nli_checkpoint.wilson(correct, len(test_set))),
        "pairs": len(test_set),
        "confusion": nli_checkpoint.confusion(labels, predicted),
        "mistakes": [
            {
                "premise": texts[i][0],
                "hypothesis": texts[i][1],
                "label": LABELS[int(labels[i])],
                "predicted": LABELS[int(predicted[i])],
                "probabilities": [round(float(p), 4) for p in probabilities[i]],
            }
            for i in wrong
        ],
    }


def sentence_of(store: SentenceStore) -> list[str]:
    """Index -> sentence."""
    return list(store.index)


def pair_texts(pairs: PairSet, store: SentenceStore) -> list[tuple[str, str]]:
    sentences = sentence_of(store)
    return [
        (sentences[p], sentences[h]) for p, h in zip(pairs.premises, pairs.hypotheses, strict=True)
    ]


def card(
    config: TrainConfig,
    encoder: Encoder,
    history: History,
    data: dict[str, dict[str, Any]],
    test: dict[str, Any] | None,
    baseline: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON card of a trained model."""
    return {
        "format": nli_checkpoint.FORMAT,
        "labels": list(LABELS),
        "encoder": {
            "name": "all-MiniLM-L6-v2",
            "fingerprint": encoder_fingerprint(encoder),
            "hidden_size": encoder.hidden_size,
            "note": "MiniLM was itself fine-tuned (sentence-transformers, contrastive, each "
            "sentence encoded alone) on sentence pairs that include SNLI and MultiNLI, so its "
            "embeddings already carry some of the signal this model learns.",
        },
        "embedding": {
            "source": config.source,
            "layer": config.layer if config.source == "contextual" else None,
        },
        "scale": config.scale,
        "sizes": {"d": encoder.hidden_size, "hidden": config.hidden},
        "dropout": config.dropout,
        "training": {
            **asdict(config),
            "best_epoch": history.best_epoch,
            "seconds": round(history.seconds, 1),
            "loss": [round(v, 4) for v in history.loss],
            "train_accuracy": [round(v, 4) for v in history.train_accuracy],
            "dev_accuracy": [round(v, 4) for v in history.dev_accuracy],
        },
        "data": data,
        "dev_accuracy": history.dev_accuracy[history.best_epoch] if history.dev_accuracy else None,
        "test": test,
        "baseline": baseline,
    }


class _Bars:
    """A tqdm bar per stage (reading, encoding, each epoch), with rate and ETA."""

    def __init__(self) -> None:
        from tqdm import tqdm

        self._tqdm = tqdm
        self.bars: dict[str, Any] = {}

    def __call__(self, stage: str, done: int, total: int) -> None:
        bar = self.bars.get(stage)
        if bar is None or (total and bar.total != total) or done < bar.n:
            if bar is not None:
                bar.close()
            unit = {"read": "rows", "encode": "sentences", "train": "pairs"}.get(stage, "it")
            bar = self._tqdm(
                total=total or None, desc=stage, unit=unit, file=sys.stderr, leave=False
            )
            self.bars[stage] = bar
        bar.update(done - bar.n)

    def close(self) -> None:
        for bar in self.bars.values():
            bar.close()

    def say(self, line: str) -> None:
        """A line of text above the bars (a print would be overwritten by them)."""
        self._tqdm.write(line, file=sys.stderr)


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="attnviz train-nli", description="Train the NLI classifier (attnviz.nli_train)."
    )
    default = nli_checkpoint.DATA_DIR
    parser.add_argument("--data", type=Path, default=default / "train.jsonl", help="training pairs")
    parser.add_argument("--dev", type=Path, default=None, help="dev pairs (pick the best epoch)")
    parser.add_argument(
        "--test", type=Path, default=None, help="test pairs (scored once, at the end)"
    )
    parser.add_argument("--source", choices=("static", "contextual"), default="static")
    parser.add_argument("--layer", type=int, default=None, help="contextual layer (0-6)")
    parser.add_argument("--scale", default="none", help="none, sqrt_d or a temperature")
    parser.add_argument("--hidden", type=int, default=200)
    parser.add_argument("--dropout", type=float, default=0.2)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--weight-decay", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--baseline", action="store_true", help="also train the hypothesis-only baseline"
    )
    parser.add_argument("--out", type=Path, default=None, help="checkpoint to write (.safetensors)")
    parser.add_argument(
        "--cache", type=Path, default=None, help="folder for contextual vectors on disk"
    )
    parser.add_argument(
        "--cache-gb", type=float, default=10.0, help="largest contextual cache (GB)"
    )
    args = parser.parse_args(argv)
    if args.scale not in ("none", "sqrt_d"):
        args.scale = float(args.scale)
    if args.source == "contextual" and args.layer is None:
        args.layer = 6
    return args


def _config(args: argparse.Namespace, premise_blind: bool = False) -> TrainConfig:
    return TrainConfig(
        source=args.source, layer=args.layer, scale=args.scale, hidden=args.hidden,
        dropout=args.dropout, epochs=args.epochs, batch_size=args.batch_size, lr=args.lr,
        weight_decay=args.weight_decay, seed=args.seed, premise_blind=premise_blind,
    )  # fmt: skip


def _say_cost(store: SentenceStore) -> None:
    """The contextual cache's size and MiniLM's time, before they are spent."""
    if store.source != "contextual":
        return
    size = store.pieces() * store.encoder.hidden_size * 2
    start = time.perf_counter()
    sample = list(store.index)[:64]
    store.encoder.encode_batch(sample)
    per_sentence = (time.perf_counter() - start) / max(len(sample), 1)
    minutes = per_sentence * len(store) / 60
    print(
        f"contextual layer {store.layer}: {len(store):,} sentences, {store.pieces():,} pieces: "
        f"{size / 1e9:.2f} GB of float16 vectors, about {minutes:.0f} min of MiniLM",
        file=sys.stderr,
    )


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Read, train, score and (with --out) write the checkpoint; the card."""
    from attnviz.encoder import load_encoder

    encoder = load_encoder()
    store = SentenceStore(encoder, args.source, args.layer)
    bars = _Bars()
    sets = {"train": read_pairs(args.data, store, bars)}
    for name in ("dev", "test"):
        if getattr(args, name) is not None:
            sets[name] = read_pairs(getattr(args, name), store, bars)
    for pairs in sets.values():
        assert pairs.summary is not None
        print("\n".join(pairs.summary.lines()), file=sys.stderr)
    _say_cost(store)
    store.encode(args.cache, int(args.cache_gb * 1e9), bars)

    def report(epoch: int, history: History, model: DecomposableAttentionModel) -> bool:
        dev = history.dev_accuracy[-1]
        train_accuracy = history.train_accuracy[-1]
        bars.say(
            f"epoch {epoch + 1}: loss {history.loss[-1]:.4f}, train {train_accuracy:.3f}, "
            f"dev {dev:.3f}"
        )
        return True

    model, history = train(_config(args), sets["train"], store, sets.get("dev"), bars, report)
    test = None
    if "test" in sets:
        test = results(model, store, sets["test"], pair_texts(sets["test"], store))
    baseline = None
    if args.baseline:
        blind, blind_history = train(
            _config(args, True), sets["train"], store, sets.get("dev"), bars
        )
        baseline = {"dev_accuracy": blind_history.dev_accuracy[blind_history.best_epoch]}
        if "test" in sets:
            scored = results(
                blind, store, sets["test"], pair_texts(sets["test"], store), premise_blind=True
            )
            baseline |= {k: scored[k] for k in ("accuracy", "ci95", "confusion")}
    bars.close()
    data = {name: pairs.source_file for name, pairs in sets.items()}
    made = card(_config(args), encoder, history, data, test, baseline)
    if args.out is not None:
        nli_checkpoint.save(model, made, args.out)
        print(f"wrote {args.out} and {nli_checkpoint.card_path(args.out)}", file=sys.stderr)
    return made


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    torch.set_num_threads(max(1, torch.get_num_threads()))
    try:
        made = run(args)
    except InputError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    test = made["test"]
    line = f"dev {made['dev_accuracy']:.3f}"
    if test:
        line += (
            f", test {test['accuracy']:.3f} (95% CI {test['ci95'][0]:.3f}-{test['ci95'][1]:.3f})"
        )
    if made["baseline"]:
        line += f"; hypothesis-only dev {made['baseline']['dev_accuracy']:.3f}"
        if "accuracy" in made["baseline"]:
            line += f", test {made['baseline']['accuracy']:.3f}"
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
