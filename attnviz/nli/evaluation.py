"""What a trained NLI classifier is judged by, beyond accuracy.

- `alignment_hits`: does the attend step align words as a reader would? For each hypothesis word
  with hand-marked premise words (attnviz's aligned set, data/nli/aligned.jsonl), the premise
  word with the largest weight in that word's row of `weights_alpha` (pieces merged into words:
  a word's row is the mean of its pieces' rows, a premise word's weight the sum of its pieces')
  is a hit when it is one of the marked words; words marked with none are left out.
- `premise_swap`: the entailment pairs with each premise replaced by another scene's: a model
  that reads the premise stops calling them entailment (a hypothesis-only model would not).
- `by_tag`: accuracy per phenomenon on the hard set (data/nli/hard.jsonl), where decomposable
  attention's bag of soft alignments cannot follow word order or arithmetic.

Words are the whitespace-separated parts of a sentence, lower-cased, with their leading and
trailing punctuation stripped, as the aligned set's writers marked them.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import torch

from attnviz.nli.data import LABELS, Example, read_file

if TYPE_CHECKING:
    from attnviz.nli.classifier import Classifier
    from attnviz.transformer.encoder import Encoder

_EDGE_PUNCTUATION = ".,!?;:\"'()[]{}“”‘’"
# (premise word ids, hypothesis word ids) -> weights_alpha (lb, la) of one pair
AlignFunction = Callable[[Sequence[tuple[str, str]]], list[torch.Tensor]]


def word_of(text: str) -> str:
    return text.lower().strip(_EDGE_PUNCTUATION)


def piece_words(encoder: Encoder, sentence: str) -> list[str]:
    """The word (see the module docstring) each of the sentence's pieces belongs to, in the
    order the classifier reads them (no specials, cut as the encoder cuts)."""
    piece = encoder.pieces([sentence], ["sentence"])[0]
    spans = [(m.start(), m.end(), word_of(m.group())) for m in re.finditer(r"\S+", sentence)]
    words = []
    for start, _ in piece.encoding.offsets:
        words.append(next((w for s, e, w in spans if s <= start < e), ""))
    return words


def word_weights(
    weights: torch.Tensor, premise_words: list[str], hypothesis_words: list[str]
) -> dict[str, dict[str, float]]:
    """weights_alpha (lb, la) of one pair as hypothesis word -> premise word -> weight."""
    merged: dict[str, dict[str, float]] = {}
    rows: dict[str, list[int]] = defaultdict(list)
    for j, word in enumerate(hypothesis_words):
        if word:
            rows[word].append(j)
    for word, js in rows.items():
        row = weights[js].mean(dim=0)  # (la,)
        columns: dict[str, float] = defaultdict(float)
        for i, premise_word in enumerate(premise_words):
            if premise_word:
                columns[premise_word] += float(row[i])
        merged[word] = dict(columns)
    return merged


@dataclass(frozen=True)
class Hits:
    """Alignment hits over the marked words of a set of pairs."""

    hits: int
    marked: int  # hypothesis words with at least one marked premise word, found in the pair
    by_label: dict[str, tuple[int, int]]  # label -> (hits, marked)

    @property
    def rate(self) -> float:
        return self.hits / self.marked if self.marked else float("nan")


def alignment_hits(encoder: Encoder, examples: Sequence[Example], align: AlignFunction) -> Hits:
    """How often each marked hypothesis word's strongest premise word is a marked one."""
    weights = align([(ex.premise, ex.hypothesis) for ex in examples])
    hits = marked = 0
    by_label: dict[str, list[int]] = {label: [0, 0] for label in LABELS}
    for ex, pair_weights in zip(examples, weights, strict=True):
        merged = word_weights(
            pair_weights, piece_words(encoder, ex.premise), piece_words(encoder, ex.hypothesis)
        )
        for word, targets in ex.alignment:
            row = merged.get(word_of(word))
            if not targets or not row:
                continue
            best = max(row, key=row.__getitem__)
            hit = best in {word_of(t) for t in targets}
            hits += hit
            marked += 1
            by_label[LABELS[ex.label]][0] += hit
            by_label[LABELS[ex.label]][1] += 1
    return Hits(hits, marked, {k: (v[0], v[1]) for k, v in by_label.items()})


def swapped_premises(examples: Sequence[Example], seed: int = 0) -> list[tuple[str, str]]:
    """Each entailment pair's hypothesis with another scene's premise, drawn at random (seeded)
    from the set's other premises."""
    premises = list(dict.fromkeys(ex.premise for ex in examples))
    if len(premises) < 2:
        raise ValueError("a premise swap needs at least two distinct premises")
    rng = random.Random(seed)
    swapped = []
    for ex in examples:
        if ex.label == 0:
            other = rng.randrange(len(premises) - 1)
            other += other >= premises.index(ex.premise)  # skip its own premise
            swapped.append((premises[other], ex.hypothesis))
    return swapped


def premise_swap(
    examples: Sequence[Example], predict: Callable[[list[tuple[str, str]]], torch.Tensor]
) -> dict[str, float]:
    """The share of entailment pairs called entailment with their own premise and with
    another scene's."""
    own = [(ex.premise, ex.hypothesis) for ex in examples if ex.label == 0]
    swapped = swapped_premises(examples)
    return {
        "pairs": len(own),
        "entailment_own": float((predict(own).argmax(-1) == 0).float().mean()),
        "entailment_swapped": float((predict(swapped).argmax(-1) == 0).float().mean()),
    }


def by_tag(examples: Sequence[Example], predicted: torch.Tensor) -> dict[str, dict[str, float]]:
    """Accuracy and pair count per tag (a pair counts under each of its tags), most pairs
    first."""
    right: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for ex, guess in zip(examples, predicted.tolist(), strict=True):
        for tag in ex.tags:
            right[tag][0] += int(guess == ex.label)
            right[tag][1] += 1
    ordered = sorted(right.items(), key=lambda item: (-item[1][1], item[0]))
    return {tag: {"accuracy": hit / total, "pairs": total} for tag, (hit, total) in ordered}


def per_label_accuracy(labels: torch.Tensor, predicted: torch.Tensor) -> dict[str, float]:
    return {
        label: float((predicted[labels == k] == k).float().mean())
        for k, label in enumerate(LABELS)
        if (labels == k).any()
    }


READ_CHUNK = 64  # pairs read with every step at once (Classifier.read's cap)


def alignment_report(classifier: Classifier, path: Path) -> dict[str, Any]:
    """Alignment hits of the trained attend step and of the untrained identity F on the same
    token vectors (e = a^T b, the textbook's first step), on a file of hand-aligned pairs."""
    from attnviz.nli.alignment import decomposable_attention

    examples = list(read_file(path)[0])

    def trained(pairs: Sequence[tuple[str, str]]) -> list[torch.Tensor]:
        out = []
        for start in range(0, len(pairs), READ_CHUNK):
            chunk = pairs[start : start + READ_CHUNK]
            read = classifier.read(chunk).alignment
            out += [read.weights_alpha[i, : read.lens_b[i], : read.lens_a[i]]
                    for i in range(len(chunk))]  # fmt: skip
        return out

    def untrained(pairs: Sequence[tuple[str, str]]) -> list[torch.Tensor]:
        _, a, lens_a = classifier.embed([p for p, _ in pairs])
        _, b, lens_b = classifier.embed([h for _, h in pairs])
        read = decomposable_attention(a, b, lens_a, lens_b, f="identity")
        return [read.weights_alpha[i, : lens_b[i], : lens_a[i]] for i in range(len(pairs))]

    model_hits = alignment_hits(classifier.encoder, examples, trained)
    baseline = alignment_hits(classifier.encoder, examples, untrained)
    return {
        "file": path.name,
        "pairs": len(examples),
        "marked": model_hits.marked,
        "hits": model_hits.hits,
        "rate": model_hits.rate,
        "by_label": model_hits.by_label,
        "untrained_rate": baseline.rate,
    }


def hard_report(classifier: Classifier, path: Path) -> dict[str, Any]:
    """Accuracy on a hard set, overall, per label and per tag."""
    from attnviz.nli.checkpoint import sha256_of

    kept = list(read_file(path)[0])
    guesses = classifier.predict([(ex.premise, ex.hypothesis) for ex in kept]).argmax(-1)
    gold = torch.tensor([ex.label for ex in kept])
    return {
        "file": path.name,
        "sha256": sha256_of(path),
        "pairs": len(kept),
        "accuracy": float((guesses == gold).float().mean()),
        "per_label": per_label_accuracy(gold, guesses),
        "by_tag": by_tag(kept, guesses),
    }
