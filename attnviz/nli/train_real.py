"""The shipped checkpoint, trained on human-written pairs: `attnviz train-nli --real DIR`
(`make train-nli NLI_DATA=DIR`).

Reads the real splits (attnviz.nli.real: checked against the manifest), fine-tunes MiniLM's
layers with the head on the training split (attnviz.nli.finetune), keeps the state of the best
selection score, fits the temperature on the selection split, trains the hypothesis-only
baseline the same way, and then, once, scores SNLI's test set. attnviz's own test split, its
hard set and its hand-aligned pairs are scored as second and third numbers, named as such. The
card holds figures only: no sentence of the real sets (its "pairs it gets wrong" are attnviz's
own).
"""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import torch

from attnviz.nli import checkpoint, evaluation, real
from attnviz.nli.card import FORMAT, Card
from attnviz.nli.classifier import Classifier
from attnviz.nli.data import LABELS, Example, ReadSummary, read_file
from attnviz.nli.finetune import TuneConfig, Tuned, TuneHistory, logits_of, tune
from attnviz.nli.store import PairSet, SentenceStore, gather
from attnviz.nli.training import (
    MISTAKES_KEPT,
    calibration_error,
    encoder_entry,
    fit_temperature,
)

if TYPE_CHECKING:
    from attnviz.transformer.encoder import Encoder

Bars = Any  # attnviz.nli.cli's progress bars: called with (stage, done, total), .say(line)


@dataclass(frozen=True)
class RealRun:
    """What `train-nli --real` was asked for."""

    folder: Path
    out: Path
    config: TuneConfig
    manifest: Path = real.MANIFEST
    baseline: bool = True
    own_test: Path | None = None  # attnviz's own test split (data/nli/test.jsonl)
    aligned: Path | None = None  # its hand-aligned pairs (data/nli/aligned.jsonl)
    hard: Path | None = None  # its hard set (data/nli/hard.jsonl)


def pair_set(pairs: list[real.Pair], name: str, store: SentenceStore) -> PairSet:
    """Real pairs into the store (each distinct sentence tokenised once)."""
    summary = ReadSummary(name, "tsv")
    summary.rows = len(pairs)
    examples = (summary.keep(Example(p.premise, p.hypothesis, p.label)) for p in pairs)
    return gather(examples, summary, store)


def scores(
    logits: torch.Tensor,
    labels: torch.Tensor,
    temperature: float,
    baseline: torch.Tensor | None = None,
) -> dict[str, Any]:
    """A set's figures for the card: accuracy and its 95% interval, per label, the confusion
    matrix, the calibration error with and without the temperature, the mean confidence, and
    the hypothesis-only baseline's accuracy on the same pairs."""
    probabilities = torch.softmax(logits / temperature, -1)
    predicted = probabilities.argmax(-1)
    correct = int((predicted == labels).sum())
    found: dict[str, Any] = {
        "pairs": len(labels),
        "accuracy": correct / max(len(labels), 1),
        "ci95": list(checkpoint.wilson(correct, len(labels))),
        "per_label": evaluation.per_label_accuracy(labels, predicted),
        "confusion": checkpoint.confusion(labels, predicted),
        "ece": calibration_error(probabilities, labels),
        "ece_uncalibrated": calibration_error(torch.softmax(logits, -1), labels),
        "mean_confidence": float(probabilities.max(-1).values.mean()),
    }
    if baseline is not None:
        right = int((baseline.argmax(-1) == labels).sum())
        found["baseline"] = right / max(len(labels), 1)
        found["baseline_ci95"] = list(checkpoint.wilson(right, len(labels)))
    return found


def _by_corpus(pairs: list[real.Pair], corpus: str) -> list[int]:
    return [i for i, pair in enumerate(pairs) if pair.corpus == corpus]


def card(
    run: RealRun,
    encoder: Encoder,
    history: TuneHistory,
    temperature: float,
    splits: real.Splits,
    figures: dict[str, Any],
) -> dict[str, Any]:
    """The card of the real-data checkpoint (its own test split and checks added later)."""
    config = run.config
    return {
        "format": FORMAT,
        "labels": list(LABELS),
        "encoder": encoder_entry(encoder),
        "embedding": {"source": "tuned", "layer": config.layers, "attend": config.attend},
        "scale": "none",
        "align": config.align,
        "pooled": config.pooled,
        "enhanced": config.enhanced,
        "sizes": {"d": encoder.hidden_size, "hidden": config.hidden},
        "dropout": config.dropout,
        "training": {**asdict(config), **asdict(history), "threads": torch.get_num_threads()},
        "data": {
            "train": {
                "file": run.manifest.name,
                "sha256": checkpoint.sha256_of(run.manifest),
                "pairs": len(splits.train),
                "by_label": real.by_label(splits.train),
            },
            "select": {"pairs": len(splits.select), "by_label": real.by_label(splits.select)},
        },
        "dev_accuracy": history.select_accuracy[history.best],
        "calibration": {"temperature": round(temperature, 4), "fitted_on": "select"},
        "real": {**figures, "train_pairs": len(splits.train), "sources": splits.counts},
    }


def own_checks(made: dict[str, Any], classifier: Classifier, run: RealRun) -> None:
    """attnviz's own test split (accuracy, pairs it gets wrong, premise swap), its hand-aligned
    pairs and its hard set, into the card."""
    made["evaluation"] = {}
    if run.own_test is not None:
        examples = list(read_file(run.own_test)[0])
        pairs = [(ex.premise, ex.hypothesis) for ex in examples]
        labels = torch.tensor([ex.label for ex in examples])
        logits = classifier.logits(pairs)
        temperature = classifier.temperature or 1.0
        found = scores(logits, labels, temperature)
        probabilities = torch.softmax(logits / temperature, -1)
        predicted = probabilities.argmax(-1)
        wrong = (predicted != labels).nonzero().flatten().tolist()[:MISTAKES_KEPT]
        found |= {"file": run.own_test.name, "sha256": checkpoint.sha256_of(run.own_test)}
        found["mistakes"] = [
            {"premise": pairs[i][0], "hypothesis": pairs[i][1], "label": LABELS[int(labels[i])],
             "predicted": LABELS[int(predicted[i])],
             "probabilities": [round(float(p), 4) for p in probabilities[i]]}
            for i in wrong
        ]  # fmt: skip
        made["test"] = found
        made["calibration"] |= {"ece_test": found["ece_uncalibrated"], "ece_test_calibrated":
                                found["ece"]}  # fmt: skip
        made["evaluation"]["per_label"] = found["per_label"]
        made["evaluation"]["premise_swap"] = evaluation.premise_swap(examples, classifier.predict)
    if run.aligned is not None:
        made["evaluation"]["alignment"] = evaluation.alignment_report(classifier, run.aligned)
    if run.hard is not None:
        made["evaluation"]["hard"] = evaluation.hard_report(classifier, run.hard)


def own_baseline(blind: Tuned, store: SentenceStore, path: Path) -> dict[str, Any]:
    """The hypothesis-only model's accuracy on attnviz's own test split."""
    examples = list(read_file(path)[0])
    pairs = [real.Pair(e.premise, e.hypothesis, e.label, "own", path.name) for e in examples]
    own = pair_set(pairs, "own_test", store)
    right = int((logits_of(blind, own, store, True).argmax(-1) == own.label_tensor()).sum())
    return {"baseline": right / len(own), "baseline_ci95": list(checkpoint.wilson(right, len(own)))}


def train_real(run: RealRun, bars: Bars) -> dict[str, Any]:
    """Read, fine-tune, select, calibrate, train the baseline, score once; write the checkpoint
    (with its tuned layers) and return the card."""
    from attnviz.transformer.encoder import load_encoder

    splits = real.load(run.folder, run.manifest)
    bars.say(
        f"real pairs: train {len(splits.train):,}, select {len(splits.select):,}, "
        f"SNLI test {len(splits.test):,} (scored once, at the end)"
    )
    encoder = load_encoder()
    store = SentenceStore(encoder, "tuned", None)
    sets = {name: pair_set(getattr(splits, name), name, store) for name in ("train", "select")}
    model, history = tune(run.config, sets["train"], store, sets["select"], bars)
    bars.say(f"selection accuracy {history.select_accuracy[history.best]:.4f}")
    select_logits = logits_of(model, sets["select"], store, False)
    temperature = fit_temperature(select_logits, sets["select"].label_tensor())
    blind = None
    if run.baseline:
        blind, _ = tune(replace(run.config, premise_blind=True), sets["train"], store,
                        sets["select"], bars)  # fmt: skip
    figures = score_real(model, blind, store, splits, sets["select"], temperature)
    made = card(run, encoder, history, temperature, splits, figures)
    made["embedding"]["tuned"] = checkpoint.tuned_entry(model.tuned, run.out)[0]
    classifier = Classifier(model.head, Card.from_json(made), encoder, model.tuned, model.plain)
    own_checks(made, classifier, run)
    if blind is not None and run.own_test is not None:
        made["test"] |= own_baseline(blind, store, run.own_test)
    checkpoint.save(model.head, made, run.out, model.tuned)
    print(f"wrote {run.out}, its card and its tuned layers", file=sys.stderr)
    return made


def score_real(
    model: Tuned,
    blind: Tuned | None,
    store: SentenceStore,
    splits: real.Splits,
    select: PairSet,
    temperature: float,
) -> dict[str, Any]:
    """The selection split per corpus, and SNLI's test set: scored once, here."""
    figures: dict[str, Any] = {}
    select_logits = logits_of(model, select, store, False)
    select_blind = logits_of(blind, select, store, True) if blind is not None else None
    labels = select.label_tensor()
    for corpus in ("snli", "mnli"):
        rows = _by_corpus(splits.select, corpus)
        if rows:
            baseline = None if select_blind is None else select_blind[rows]
            figures[f"{corpus}_select"] = scores(
                select_logits[rows], labels[rows], temperature, baseline
            )
    test = pair_set(splits.test, "snli_test", store)
    test_blind = logits_of(blind, test, store, True) if blind is not None else None
    figures["snli_test"] = scores(
        logits_of(model, test, store, False), test.label_tensor(), temperature, test_blind
    )
    return figures
