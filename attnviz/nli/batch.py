"""Whole evaluation files scored by the classifier: reading an uploaded file, and what the page
reports of its verdicts (accuracy, confusion, per label, per hypothesis length, the pairs it
gets wrong, a CSV of every pair's probabilities).

A file is SNLI's or MultiNLI's JSONL or tab-separated .txt, or a CSV / TSV with premise and
hypothesis columns (SNLI's sentence1 / sentence2 too) and an optional label column; rows
labelled "-" (no gold label: the annotators disagreed) are dropped and counted. At most
MAX_SCORE_PAIRS pairs and MAX_SCORE_BYTES bytes (SNLI's JSONL, with its parse trees, is about
1 KB a pair).
"""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass

import torch

from attnviz.errors import InputError
from attnviz.nli.checkpoint import confusion, wilson
from attnviz.nli.data import LABELS, NO_LABEL, read_examples, upload_text

MAX_SCORE_PAIRS = 10_000
MAX_SCORE_BYTES = 16 * 1024 * 1024
# Hypothesis lengths in words: the bins accuracy is reported in (the last open-ended).
LENGTH_BINS: tuple[tuple[int, int], ...] = ((1, 4), (5, 6), (7, 8), (9, 11), (12, 15), (16, 0))


@dataclass(frozen=True)
class ScoringFile:
    """An uploaded file's pairs, their gold labels (None where a pair has none), and what was
    dropped."""

    name: str
    sha256: str
    pairs: list[tuple[str, str]]
    labels: list[int | None]
    unlabelled: int  # rows labelled "-", dropped


def read_scoring_file(data: bytes, name: str) -> ScoringFile:
    """The pairs of an uploaded evaluation file; InputError naming what is wrong (the first bad
    row's line, a size or count over the caps)."""
    text = upload_text(data, MAX_SCORE_BYTES)
    examples, summary = read_examples(text, name, labels_optional=True)
    pairs: list[tuple[str, str]] = []
    labels: list[int | None] = []
    for example in examples:
        if len(pairs) == MAX_SCORE_PAIRS:
            raise InputError("too_many_pairs", found=f"{MAX_SCORE_PAIRS:,}+", limit=MAX_SCORE_PAIRS)
        pairs.append((example.premise, example.hypothesis))
        labels.append(None if example.label == NO_LABEL else example.label)
    if summary.errors:
        line, err = summary.errors[0]
        raise InputError("nli_bad_row", line=line, detail=str(err))
    if not pairs:
        raise InputError("pairs_empty")
    digest = hashlib.sha256(data).hexdigest()
    return ScoringFile(name, digest, pairs, labels, summary.unlabelled)


def words(text: str) -> int:
    return len(text.split())


def length_bin(count: int) -> int:
    """The index in LENGTH_BINS of a hypothesis of `count` words."""
    for index, (low, high) in enumerate(LENGTH_BINS):
        if count >= low and (high == 0 or count <= high):
            return index
    return 0


@dataclass(frozen=True)
class Report:
    """How a scored file's verdicts meet its gold labels (over the labelled pairs)."""

    labelled: int
    correct: int
    ci95: tuple[float, float]
    confusion: list[list[int]]  # (gold row, predicted column) counts in LABELS order
    per_label: list[tuple[float, int]]  # (accuracy, pairs) per gold label, LABELS order
    per_length: list[tuple[float, int]]  # (accuracy, pairs) per LENGTH_BINS bin
    wrong: list[int]  # indices of the labelled pairs whose verdict is not their gold label

    @property
    def accuracy(self) -> float:
        return self.correct / self.labelled if self.labelled else float("nan")


def _shares(right: torch.Tensor, groups: torch.Tensor, count: int) -> list[tuple[float, int]]:
    """(accuracy, pairs) of each group 0 .. count - 1 (nan where a group is empty)."""
    out = []
    for group in range(count):
        chosen = groups == group
        pairs = int(chosen.sum())
        out.append((float(right[chosen].float().mean()) if pairs else float("nan"), pairs))
    return out


def report(
    probabilities: torch.Tensor, labels: list[int | None], pairs: list[tuple[str, str]]
) -> Report | None:
    """The report over the pairs that carry a gold label; None when none does."""
    known = [i for i, label in enumerate(labels) if label is not None]
    if not known:
        return None
    gold = torch.tensor([labels[i] for i in known], dtype=torch.int64)  # (K,)
    predicted = probabilities[known].argmax(dim=-1)  # (K,)
    right = predicted == gold
    lengths = torch.tensor([length_bin(words(pairs[i][1])) for i in known])
    correct = int(right.sum())
    return Report(
        labelled=len(known),
        correct=correct,
        ci95=wilson(correct, len(known)),
        confusion=confusion(gold, predicted),
        per_label=_shares(right, gold, len(LABELS)),
        per_length=_shares(right, lengths, len(LENGTH_BINS)),
        wrong=[known[k] for k in (~right).nonzero().flatten().tolist()],
    )


def probabilities_csv(
    pairs: list[tuple[str, str]], labels: list[int | None], probabilities: torch.Tensor
) -> bytes:
    """Every pair with its gold label, verdict and three probabilities, as CSV."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["pair", "premise", "hypothesis", "gold_label", "verdict",
                     *(f"p_{label}" for label in LABELS)])  # fmt: skip
    for index, ((premise, hypothesis), label, row) in enumerate(
        zip(pairs, labels, probabilities.tolist(), strict=True)
    ):
        gold = "" if label is None else LABELS[label]
        verdict = LABELS[max(range(len(LABELS)), key=row.__getitem__)]
        writer.writerow([index, premise, hypothesis, gold, verdict, *(f"{p:.6f}" for p in row)])
    return out.getvalue().encode("utf-8")
