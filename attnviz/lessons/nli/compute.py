"""The NLI lesson's computation: the decomposable attention of a batch of pairs over MiniLM's
embeddings, untrained (attnviz.nli) and trained (the classifier's verdict and its steps)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import torch

from attnviz.nli import alignment as nli
from attnviz.nli.card import Card
from attnviz.nli.checkpoint import confusion
from attnviz.nli.model import Scale
from attnviz.transformer.views import tokens_caveat

if TYPE_CHECKING:
    from attnviz.nli.classifier import Classifier, Verdicts
    from attnviz.transformer.encoder import Encoder


@dataclass(frozen=True)
class NLIChoice:
    """The sidebar's options for the untrained view."""

    source: str
    layer: int  # an index into hidden_states: 0 the embeddings, k layer k - 1's output
    f: str
    seed: int
    hypothesis_rows: bool
    scale: Scale = "none"


@dataclass(frozen=True)
class NLIResult:
    """A batch of aligned pairs and, per pair, whether its text is outside MiniLM's vocabulary."""

    batch: nli.AlignedPairs
    caveats: list[bool]


def align(encoder: Encoder, pairs: tuple[tuple[str, str], ...], choice: NLIChoice) -> NLIResult:
    """The untrained decomposable attention of every pair."""
    layer = choice.layer if choice.source == "contextual" else -1
    batch = nli.align_pairs(
        encoder,
        list(pairs),
        source=choice.source,
        layer=layer,
        f=choice.f,
        seed=choice.seed,
        scale=choice.scale,
    )
    caveats = [tokens_caveat(a + b) for a, b in zip(batch.premises, batch.hypotheses, strict=True)]
    return NLIResult(batch, caveats)


def classify(classifier: Classifier, pairs: tuple[tuple[str, str], ...]) -> Verdicts:
    """The trained classifier's reading of every pair: its steps and probabilities."""
    return classifier.read(list(pairs))


@dataclass(frozen=True)
class PairView:
    """One pair of a batch, oriented as the page shows it (rows: hypothesis or premise)."""

    rows: list[str]  # row tokens
    cols: list[str]  # column tokens
    e: torch.Tensor  # (r, c) scores
    weights: torch.Tensor  # (r, c) softmax along each row
    other: torch.Tensor  # (r, c) the other direction: each column sums to 1
    hard: torch.Tensor  # (r, c) one-hot argmax of each row


def pair_view(
    al: nli.Alignment,
    premises: list[list[str]],
    hypotheses: list[list[str]],
    index: int,
    hypothesis_rows: bool,
) -> PairView:
    """Pair `index` without padding, hypothesis tokens as rows (the textbook's) or premise."""
    la, lb = int(al.lens_a[index]), int(al.lens_b[index])
    premise, hypothesis = premises[index], hypotheses[index]
    weights, e = nli.orient(al, hypothesis_rows=hypothesis_rows)
    if hypothesis_rows:
        rows, cols, n_rows, n_cols = hypothesis, premise, lb, la
        other = al.weights_beta[index, :la, :lb].T  # (lb, la): each column sums to 1
    else:
        rows, cols, n_rows, n_cols = premise, hypothesis, la, lb
        other = al.weights_alpha[index, :lb, :la].T  # (la, lb)
    main = weights[index, :n_rows, :n_cols]  # (rows, cols)
    best = nli.hard_alignment(main[None], torch.tensor([n_rows]), torch.tensor([n_cols]))[0]
    hard = torch.zeros_like(main)
    hard[torch.arange(n_rows), best] = 1.0
    return PairView(rows, cols, e[index, :n_rows, :n_cols], main, other, hard)


@dataclass(frozen=True)
class Scored:
    """How a batch's verdicts compare with the gold labels it carries."""

    labelled: int  # pairs with a gold label
    correct: int
    confusion: list[list[int]]  # (gold row, predicted column) in LABELS order

    @property
    def accuracy(self) -> float:
        return self.correct / self.labelled if self.labelled else float("nan")


def score(probabilities: torch.Tensor, labels: list[int | None]) -> Scored | None:
    """Accuracy and confusion over the pairs that have a gold label; None when none has."""
    known = [i for i, label in enumerate(labels) if label is not None]
    if not known:
        return None
    gold = torch.tensor([labels[i] for i in known], dtype=torch.int64)
    predicted = probabilities[known].argmax(dim=-1)
    correct = int((gold == predicted).sum())
    return Scored(len(known), correct, confusion(gold, predicted))


def _share(value: object) -> str:
    return f"{value:.1%}" if isinstance(value, int | float) else "–"


def _fraction(value: object) -> str:
    return f"{value:.3f}" if isinstance(value, int | float) else "–"


# The rows of the side-by-side card table and their catalogue keys.
CARD_ROWS: dict[str, str] = {
    "data": "nli.cards.data",
    "pairs": "nli.cards.pairs",
    "source": "nli.cards.source",
    "align": "nli.cards.align",
    "dev": "nli.cards.dev",
    "measured": "nli.cards.measured",
    "test": "nli.cards.test",
    "baseline": "nli.cards.baseline",
    "temperature": "nli.cards.temperature",
    "ece": "nli.cards.ece",
    "hits": "nli.cards.hits",
    "swap": "nli.cards.swap",
}
# The attend steps' names (DecomposableAttentionModel's `align`).
ALIGN_KEYS = {
    "mlp": "nli.align.mlp",
    "cosine": "nli.align.cosine",
    "residual": "nli.align.residual",
}


def card_values(card: Card) -> dict[str, str]:
    """One card's values for the side-by-side table (CARD_ROWS), as text; "–" where the card
    has no such figure (an older card: no calibration, no evaluation). "measured" names the
    headline's data (the view words it), "align" the attend step (likewise)."""
    name, scores = card.headline or ("", None)
    pairs = card.real.train_pairs if card.real is not None else card.train_pairs
    hits = card.alignment
    return {
        "data": card.train_file,
        "pairs": f"{pairs:,}" if pairs is not None else "–",
        "source": card.source + ("" if card.layer is None else f" {card.layer}"),
        "align": card.align,
        "dev": _fraction(card.selection_accuracy),
        "measured": name,
        "test": _fraction(scores.accuracy if scores else None),
        "baseline": _fraction(scores.baseline if scores else None),
        "temperature": _fraction(card.temperature),
        "ece": (
            f"{_fraction(scores.ece_uncalibrated if scores else None)} → "
            f"{_fraction(scores.ece if scores else None)}"
        ),
        "hits": (
            f"{_share(hits.rate)} ({_share(hits.untrained_rate)})" if hits is not None else "–"
        ),
        "swap": _share(card.swap[1] if card.swap else None),
    }
