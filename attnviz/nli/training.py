"""Training the NLI classifier: seeded, deterministic on the CPU, on a SentenceStore's pairs.

Training is Adam on the cross-entropy, d2l's recipe, with the weights of the best dev epoch kept;
`premise_blind` trains the hypothesis-only baseline (the premise replaced by one zero vector):
a model that never sees the premise, the measure of the data's artefacts. A temperature fitted
on dev (`fit_temperature`, Guo et al. 2017) calibrates the probabilities; `calibration_error` is
the expected calibration error it is judged by.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import torch
import torch.nn.functional as F_nn

from attnviz.errors import InputError
from attnviz.nli import checkpoint
from attnviz.nli.card import FORMAT
from attnviz.nli.data import LABELS
from attnviz.nli.model import SHARPNESS_START, DecomposableAttentionModel, Scale
from attnviz.nli.store import PairSet, Progress, SentenceStore
from attnviz.nli.vectors import encoder_fingerprint

if TYPE_CHECKING:
    from attnviz.transformer.encoder import Encoder

MISTAKES_KEPT = 40  # test pairs the card lists that the model gets wrong
SHIPPED_ENCODER_NOTE = (
    "MiniLM was itself fine-tuned (sentence-transformers, contrastive, each sentence encoded "
    "alone) on sentence pairs that include SNLI and MultiNLI, so its embeddings already carry "
    "some of the signal this model learns."
)


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
    align: str = "mlp"  # the attend step: "mlp" (the paper's F) or "cosine" (k cos(a, b))
    pooled: bool = False  # H also reads the sentences' mean vectors
    # Extra pairs, this share of the training set: a hypothesis with another pair's premise,
    # labelled neutral (a scene it says nothing about), so the premise has to be read.
    swap_share: float = 0.0
    sharpness: float = SHARPNESS_START  # k of the cosine attend step before training
    # The learning rate of log k (None: lr). k is one number scaling every score: at lr it moves
    # by at most lr a step, too little for an alignment started soft to sharpen in a few epochs.
    sharpness_lr: float | None = None


def sides(
    pairs: PairSet, order: torch.Tensor, store: SentenceStore, premise_blind: bool
) -> tuple[torch.Tensor, ...]:
    b, lens_b = store.batch(pairs.hypotheses[i] for i in order.tolist())
    if premise_blind:
        a = torch.zeros(len(order), 1, b.shape[-1])  # (N, 1, d): nothing of the premise
        lens_a = torch.ones(len(order), dtype=torch.int64)
    else:
        a, lens_a = store.batch(pairs.premises[i] for i in order.tolist())
    return a, b, lens_a, lens_b


def logits_of(
    model: DecomposableAttentionModel,
    pairs: PairSet,
    store: SentenceStore,
    premise_blind: bool = False,
) -> torch.Tensor:
    """(N, 3) logits of every pair, in batches, in inference mode."""
    model.train(False)
    out = []
    with torch.inference_mode():
        for start in range(0, len(pairs), 256):
            order = torch.arange(start, min(start + 256, len(pairs)))
            out.append(model(*sides(pairs, order, store, premise_blind)))
    return torch.cat(out) if out else torch.zeros(0, len(LABELS))


def predict(
    model: DecomposableAttentionModel,
    pairs: PairSet,
    store: SentenceStore,
    premise_blind: bool = False,
    temperature: float = 1.0,
) -> torch.Tensor:
    """(N, 3) probabilities of every pair: softmax(logits / temperature)."""
    return torch.softmax(logits_of(model, pairs, store, premise_blind) / temperature, dim=-1)


def fit_temperature(logits: torch.Tensor, labels: torch.Tensor) -> float:
    """The T > 0 that minimises the cross-entropy of softmax(logits / T) (Guo et al. 2017)."""
    log_t = torch.zeros((), requires_grad=True)
    optimizer = torch.optim.LBFGS([log_t], lr=0.1, max_iter=200, line_search_fn="strong_wolfe")
    logits, labels = logits.detach().float(), labels.long()

    def loss() -> torch.Tensor:
        optimizer.zero_grad()
        value = F_nn.cross_entropy(logits / log_t.exp(), labels)
        value.backward()
        return value

    optimizer.step(loss)
    # A tiny or separable split can drive T to 0 or infinity: kept within what a card allows.
    return float(log_t.detach().clamp(math.log(1e-2), math.log(1e2)).exp())


def calibration_error(probabilities: torch.Tensor, labels: torch.Tensor, bins: int = 15) -> float:
    """Expected calibration error: |accuracy - confidence| over equal-width confidence bins,
    weighted by each bin's share of the pairs (Naeini et al. 2015; Guo et al. 2017)."""
    confidence, predicted = probabilities.max(dim=-1)  # (N,) each
    correct = (predicted == labels).to(torch.float64)
    which = torch.clamp((confidence * bins).ceil().long() - 1, 0, bins - 1)  # (N,) bin (lo, hi]
    error = 0.0
    for b in range(bins):
        chosen = which == b
        if chosen.any():
            gap = correct[chosen].mean() - confidence[chosen].to(torch.float64).mean()
            error += float(chosen.to(torch.float64).mean() * gap.abs())
    return error


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


def with_swaps(pairs: PairSet, share: float, seed: int) -> PairSet:
    """`pairs` and round(share * len) more: hypotheses drawn at random (seeded), each with the
    premise of another pair drawn at random (never its own), labelled contradiction: SNLI's
    annotators took both sentences to describe one scene, so a hypothesis about another scene
    contradicts it (labelling these neutral taught the shipped model the wrong convention)."""
    count = round(share * len(pairs))
    premises = np.frombuffer(pairs.premises, dtype=np.int32)
    distinct = np.unique(premises)
    if count == 0 or len(distinct) < 2:
        return pairs
    rng = np.random.default_rng(seed)
    chosen = rng.integers(0, len(pairs), size=count)  # the hypotheses' pairs
    others = distinct[rng.integers(0, len(distinct), size=count)]  # (count,)
    same = others == premises[chosen]
    others[same] = distinct[(np.searchsorted(distinct, others[same]) + 1) % len(distinct)]
    swapped = PairSet(summary=pairs.summary, source_file=pairs.source_file)
    swapped.premises.frombytes(pairs.premises.tobytes() + others.astype(np.int32).tobytes())
    hypotheses = np.frombuffer(pairs.hypotheses, dtype=np.int32)[chosen]
    swapped.hypotheses.frombytes(pairs.hypotheses.tobytes() + hypotheses.tobytes())
    other_scene = np.full(count, LABELS.index("contradiction"), dtype=np.int8)
    swapped.labels.frombytes(pairs.labels.tobytes() + other_scene.tobytes())
    return swapped


def model_for(config: TrainConfig, d: int) -> DecomposableAttentionModel:
    """A fresh model of the config's shape over embeddings of size d."""
    return DecomposableAttentionModel(
        d, config.hidden, config.dropout, config.scale, align=config.align, pooled=config.pooled,
        sharpness=config.sharpness,
    )  # fmt: skip


def parameter_groups(model: DecomposableAttentionModel, config: TrainConfig) -> list[dict]:
    """The optimizer's groups: the sharpness k on its own learning rate when the config gives
    one (`sharpness_lr`), every other weight on lr."""
    sharp = getattr(model, "log_sharpness", None)
    if config.sharpness_lr is None or sharp is None:
        return [{"params": list(model.parameters())}]
    rest = [p for p in model.parameters() if p is not sharp]
    return [{"params": rest}, {"params": [sharp], "lr": config.sharpness_lr}]


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
    if config.swap_share > 0 and not config.premise_blind:
        train_set = with_swaps(train_set, config.swap_share, config.seed)
    model = model_for(config, store.encoder.hidden_size)
    optimizer = torch.optim.Adam(
        parameter_groups(model, config), lr=config.lr, weight_decay=config.weight_decay
    )
    shuffle = torch.Generator().manual_seed(config.seed)
    labels = train_set.label_tensor()
    history, best, best_dev, steps = History(), None, -1.0, 0
    start = time.perf_counter()
    for epoch in range(config.epochs):
        model.train(True)
        order = torch.randperm(len(train_set), generator=shuffle)
        total, correct, seen, steps = _epoch(
            model, optimizer, train_set, labels, order, store, config, progress, steps
        )
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


def _epoch(
    model: DecomposableAttentionModel,
    optimizer: torch.optim.Optimizer,
    train_set: PairSet,
    labels: torch.Tensor,
    order: torch.Tensor,
    store: SentenceStore,
    config: TrainConfig,
    progress: Progress | None,
    steps: int,
) -> tuple[float, int, int, int]:
    """One pass over `order` in batches (or until `config.max_steps`): the summed loss, the
    pairs predicted right, the pairs this pass saw, and the optimizer's steps so far."""
    total, correct, seen = 0.0, 0, 0
    for first in range(0, len(order), config.batch_size):
        batch = order[first : first + config.batch_size]
        logits = model(*sides(train_set, batch, store, config.premise_blind))
        loss = F_nn.cross_entropy(logits, labels[batch])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += float(loss.detach()) * len(batch)
        correct += int((logits.argmax(-1) == labels[batch]).sum())
        seen += len(batch)
        steps += 1
        if progress:
            progress("train", min(first + len(batch), len(order)), len(order))
        if config.max_steps is not None and steps >= config.max_steps:
            break
    return total, correct, seen, steps


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
        "ci95": list(checkpoint.wilson(correct, len(test_set))),
        "pairs": len(test_set),
        "confusion": checkpoint.confusion(labels, predicted),
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


def encoder_entry(encoder: Encoder) -> dict[str, Any]:
    """The card's encoder: its name, fingerprint and width (and MiniLM's note)."""
    return {
        "name": encoder.name,
        "fingerprint": encoder_fingerprint(encoder),
        "hidden_size": encoder.hidden_size,
        **({"note": SHIPPED_ENCODER_NOTE} if encoder.shipped else {}),
    }


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
        "format": FORMAT,
        "labels": list(LABELS),
        "encoder": encoder_entry(encoder),
        "embedding": {
            "source": config.source,
            "layer": config.layer if config.source == "contextual" else None,
        },
        "scale": config.scale,
        "align": config.align,
        "pooled": config.pooled,
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
