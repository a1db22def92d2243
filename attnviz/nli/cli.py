"""`attnviz train-nli`: train the NLI classifier from the command line (`make train-nli`).

    attnviz train-nli --data TRAIN [--dev DEV] [--test TEST] [--source static]
        [--layer 6] [--scale sqrt_d] [--hidden 200] [--epochs 20] [--out PATH.safetensors]

Reads the files into a SentenceStore (attnviz.nli.store), trains (attnviz.nli.training), scores
the test file once at the end and writes the checkpoint with its card (attnviz.nli.checkpoint),
with a progress bar for each stage.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import torch

from attnviz.errors import InputError
from attnviz.nli import checkpoint, evaluation
from attnviz.nli.card import ALIGNS, Card
from attnviz.nli.classifier import Classifier
from attnviz.nli.data import Example
from attnviz.nli.finetune import TuneConfig
from attnviz.nli.model import DecomposableAttentionModel
from attnviz.nli.real import MANIFEST
from attnviz.nli.store import PairSet, SentenceStore, pair_texts, read_pairs
from attnviz.nli.train_real import RealRun, train_real
from attnviz.nli.training import (
    History,
    TrainConfig,
    calibration_error,
    card,
    fit_temperature,
    logits_of,
    results,
    train,
)

if TYPE_CHECKING:
    from attnviz.transformer.encoder import Encoder


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
        prog="attnviz train-nli", description="Train the NLI classifier (attnviz.nli.cli)."
    )
    default = checkpoint.DATA_DIR
    parser.add_argument("--data", type=Path, default=default / "train.jsonl", help="training pairs")
    parser.add_argument("--dev", type=Path, default=None, help="dev pairs (pick the best epoch)")
    parser.add_argument(
        "--test", type=Path, default=None, help="test pairs (scored once, at the end)"
    )
    parser.add_argument("--source", choices=("static", "contextual"), default="static")
    parser.add_argument(
        "--layer", type=int, default=None, help="contextual layer: a hidden-state index"
    )
    parser.add_argument(
        "--align", choices=ALIGNS, default="mlp", help="attend step: mlp (the paper's F), "
        "cosine (k cos(a, b), k learned) or residual (k cos(a + F(a), b + F(b)))",
    )  # fmt: skip
    parser.add_argument(
        "--pooled", action="store_true", help="H also reads |u - v| and u * v of mean vectors"
    )
    parser.add_argument(
        "--swap-share", type=float, default=0.0,
        help="add this share of pairs: a hypothesis with another pair's premise, as "
        "contradiction (SNLI's convention: another scene)",
    )  # fmt: skip
    parser.add_argument("--scale", default="none", help="none, sqrt_d or a temperature")
    parser.add_argument("--hidden", type=int, default=200)
    parser.add_argument("--dropout", type=float, default=0.2)
    parser.add_argument("--epochs", type=float, default=None, help="20 (--real: 2)")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--weight-decay", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--baseline", action="store_true", help="also train the hypothesis-only baseline"
    )
    parser.add_argument("--out", type=Path, default=None, help="checkpoint to write (.safetensors)")
    parser.add_argument(
        "--aligned", type=Path, default=None, help="pairs with hand-marked word alignments"
    )
    parser.add_argument("--hard", type=Path, default=None, help="a hard set with tags per pair")
    parser.add_argument(
        "--cache", type=Path, default=None, help="folder for contextual vectors on disk"
    )
    parser.add_argument(
        "--cache-gb", type=float, default=10.0, help="largest contextual cache (GB)"
    )
    _real_arguments(parser)
    args = parser.parse_args(argv)
    if args.scale not in ("none", "sqrt_d"):
        args.scale = float(args.scale)
    if args.source == "contextual" and args.layer is None:
        args.layer = -1  # the encoder's last layer
    return args


def _real_arguments(parser: argparse.ArgumentParser) -> None:
    """The shipped checkpoint's options: real pairs, the layers tuned under the head."""
    parser.add_argument(
        "--real", type=Path, default=None, metavar="DIR",
        help="train the shipped checkpoint on the human-written SNLI / MultiNLI files in DIR "
        "(data/nli/real_sources.json names them and their checksums)",
    )  # fmt: skip
    parser.add_argument("--manifest", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--layers", type=int, default=6, help="--real: MiniLM layers tuned")
    parser.add_argument(
        "--head-epochs", type=float, default=1.0, help="--real: epochs of the head alone first"
    )
    parser.add_argument("--encoder-lr", type=float, default=3e-5, help="--real: their rate")
    parser.add_argument("--no-baseline", action="store_true", help="--real: skip the baseline")
    parser.add_argument(
        "--enhanced", action="store_true", help="G reads [x; x~; x - x~; x * x~] (Chen et al.)"
    )
    parser.add_argument(
        "--attend", choices=("vectors", "minilm"), default="vectors",
        help="--real: e scores the tuned vectors, or MiniLM's own layer under them",
    )  # fmt: skip
    parser.add_argument("--max-steps", type=int, default=None, help=argparse.SUPPRESS)


def _tune_config(args: argparse.Namespace) -> TuneConfig:
    return TuneConfig(
        layers=args.layers, align=args.align, hidden=args.hidden, dropout=args.dropout,
        head_epochs=args.head_epochs, epochs=2.0 if args.epochs is None else args.epochs,
        lr=args.lr, pooled=args.pooled, enhanced=args.enhanced, attend=args.attend,
        encoder_lr=args.encoder_lr, seed=args.seed, max_steps=args.max_steps,
    )  # fmt: skip


def own_out() -> Path:
    """Where a checkpoint trained on attnviz's own pairs goes by default: the cache, never the
    shipped checkpoint."""
    from attnviz.transformer.models import cache_dir

    return cache_dir() / "nli" / "own.safetensors"


def _check_out(args: argparse.Namespace) -> None:
    """Only --real writes the shipped checkpoint; other runs write elsewhere."""
    if args.real is not None:
        args.out = args.out or checkpoint.DEFAULT_CHECKPOINT
        return
    args.out = args.out or own_out()
    if args.out.resolve() == checkpoint.DEFAULT_CHECKPOINT.resolve():
        raise InputError("nli_shipped_out", path=str(args.out))


def _config(args: argparse.Namespace, premise_blind: bool = False) -> TrainConfig:
    return TrainConfig(
        source=args.source, layer=args.layer, scale=args.scale, hidden=args.hidden,
        dropout=args.dropout, epochs=20 if args.epochs is None else int(args.epochs),
        batch_size=args.batch_size, lr=args.lr,
        weight_decay=args.weight_decay, seed=args.seed, premise_blind=premise_blind,
        align=args.align, pooled=args.pooled, swap_share=args.swap_share,
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
    from attnviz.transformer.encoder import load_encoder

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
    data = {name: pairs.source_file for name, pairs in sets.items()}
    made = card(_config(args), encoder, history, data, test, baseline)
    if "dev" in sets:
        made["calibration"] = calibrate(model, store, sets["dev"], sets.get("test"))
    if "test" in sets:
        bars.say("evaluating: per label, premise swap, alignments, the hard set")
        made["evaluation"] = evaluate(made, model, encoder, args, sets["test"], store)
    bars.close()
    if args.out is not None:
        checkpoint.save(model, made, args.out)
        print(f"wrote {args.out} and {checkpoint.card_path(args.out)}", file=sys.stderr)
    return made


def calibrate(
    model: DecomposableAttentionModel, store: SentenceStore, dev: PairSet, test: PairSet | None
) -> dict[str, Any]:
    """The temperature fitted on dev, and the test set's expected calibration error before and
    after it."""
    temperature = fit_temperature(logits_of(model, dev, store), dev.label_tensor())
    found: dict[str, Any] = {"temperature": round(temperature, 4), "fitted_on": "dev"}
    if test is not None and len(test):
        logits, labels = logits_of(model, test, store), test.label_tensor()
        found["ece_test"] = round(calibration_error(torch.softmax(logits, -1), labels), 4)
        calibrated = torch.softmax(logits / temperature, -1)
        found["ece_test_calibrated"] = round(calibration_error(calibrated, labels), 4)
    return found


def evaluate(
    made: dict[str, Any],
    model: DecomposableAttentionModel,
    encoder: Encoder,
    args: argparse.Namespace,
    test: PairSet,
    store: SentenceStore,
) -> dict[str, Any]:
    """What the card reports beyond accuracy (attnviz.nli.evaluation): per-label accuracy,
    the premise swap, the alignment hits beside the untrained identity F's, the hard set's tags."""
    classifier = Classifier(model, Card.from_json(made), encoder)
    labels = test.label_tensor()
    predicted = logits_of(model, test, store).argmax(-1)
    found: dict[str, Any] = {"per_label": evaluation.per_label_accuracy(labels, predicted)}
    examples = [Example(p, h, label) for (p, h), label in
                zip(pair_texts(test, store), labels.tolist(), strict=True)]  # fmt: skip
    found["premise_swap"] = evaluation.premise_swap(examples, classifier.predict)
    if args.aligned is not None:
        found["alignment"] = evaluation.alignment_report(classifier, args.aligned)
    if args.hard is not None:
        found["hard"] = evaluation.hard_report(classifier, args.hard)
    return found


def run_real(args: argparse.Namespace) -> dict[str, Any]:
    """`--real DIR`: the shipped checkpoint (attnviz.nli.train_real)."""
    run = RealRun(
        args.real, args.out, _tune_config(args), args.manifest or MANIFEST,
        baseline=not args.no_baseline, own_test=args.test, aligned=args.aligned, hard=args.hard,
    )  # fmt: skip
    bars = _Bars()
    try:
        return train_real(run, bars)
    finally:
        bars.close()


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    torch.set_num_threads(max(1, torch.get_num_threads()))
    try:
        _check_out(args)
        made = run_real(args) if args.real is not None else run(args)
    except InputError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if args.real is not None:
        found = made["real"]["snli_test"]
        low, high = found["ci95"]
        print(f"SNLI test {found['accuracy']:.3f} (95% CI {low:.3f}-{high:.3f}), "
              f"hypothesis-only {found.get('baseline', float('nan')):.3f}")  # fmt: skip
        return 0
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
