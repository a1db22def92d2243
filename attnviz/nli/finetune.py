"""Fine-tuning MiniLM's layers together with the decomposable attention head (the shipped
checkpoint's training, `attnviz train-nli --real`).

Each sentence runs alone through the shared embeddings and MiniLM's first `layers` layers
(attnviz.nli.tuned); the head attends, compares and aggregates over the last layer's word
pieces as in attnviz.nli.model. The head is first trained alone for
`head_epochs` over the untouched layers (linear probing, then fine-tuning: a random head's
gradients would otherwise distort the pretrained layers first, Kumar et al. 2022); then AdamW
trains both, the layers at `encoder_lr` and the head at `lr`, warmed up over the first `warmup`
share of those steps and decayed linearly to 0, the layers' gradients clipped at norm 1 (the
recipe of BERT's fine-tuning, Devlin et al. 2019). Batches hold pairs of
similar premise length (sorted within windows of 50 batches, then shuffled: seeded), so little
is padding. The selection split is scored `evals` times an epoch and the best state is kept.
`premise_blind` trains the hypothesis-only baseline the same way (the premise one zero vector).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn.functional as F_nn

from attnviz.nli.model import DecomposableAttentionModel
from attnviz.nli.store import PairSet, SentenceStore
from attnviz.nli.tuned import TunedLayers, padded_ids, words_only

WINDOW = 50  # batches sorted by length together before they are shuffled


@dataclass(frozen=True)
class TuneConfig:
    """Everything a fine-tuning run depends on, besides the data."""

    layers: int = 6  # MiniLM's first layers tuned; the head reads the last one's output
    align: str = "cosine"
    pooled: bool = False  # H also reads |u - v| and u * v of the sentences' mean vectors
    enhanced: bool = False  # G reads [x; x~; x - x~; x * x~]
    attend: str = "vectors"  # e scores the tuned vectors, or "minilm": MiniLM's own layer
    hidden: int = 200
    dropout: float = 0.2
    head_epochs: float = 1.0  # the head alone, over the untouched layers
    epochs: float = 2.0  # then both
    batch_size: int = 32
    lr: float = 1e-3  # the head
    encoder_lr: float = 3e-5  # the tuned layers
    weight_decay: float = 0.01  # the tuned layers'
    warmup: float = 0.06
    evals: int = 4  # selection scores an epoch
    seed: int = 0
    premise_blind: bool = False
    max_steps: int | None = None  # stop after this many batches (tests and smoke runs)


@dataclass
class TuneHistory:
    """Per evaluation: the step, the mean training loss since the last, the selection
    accuracy; the best evaluation's index, seconds and pairs a second."""

    steps: list[int] = field(default_factory=list)
    loss: list[float] = field(default_factory=list)
    select_accuracy: list[float] = field(default_factory=list)
    best: int = 0
    seconds: float = 0.0
    pairs_per_second: float = 0.0


class Tuned(torch.nn.Module):
    """The tuned layers and the head, as one module from token ids to logits."""

    def __init__(
        self, tuned: TunedLayers, head: DecomposableAttentionModel, plain: TunedLayers | None
    ) -> None:
        super().__init__()
        self.tuned, self.head = tuned, head
        self.plain = plain  # MiniLM's own layers, never trained: what e scores, when given
        self.frozen = False  # the layers read without gradients, as inference

    def freeze(self, frozen: bool) -> None:
        self.frozen = frozen
        self.tuned.train(self.training and not frozen)

    def vectors(
        self, store: SentenceStore, indices: list[int]
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor | None]:
        """The tuned vectors (N, L, d), lengths (N,), and MiniLM's own (N, L, d) or None."""
        rows = [store.ids[store.starts[i] : store.starts[i + 1]] for i in indices]
        tokenizer = store.encoder.tokenizer
        ids, mask = padded_ids(rows, tokenizer.cls_token_id, tokenizer.sep_token_id)
        with torch.set_grad_enabled(torch.is_grad_enabled() and not self.frozen):
            hidden = self.tuned(ids, mask)  # (N, L + 2, d)
        keys = None
        if self.plain is not None:
            with torch.no_grad():
                keys = words_only(self.plain(ids, mask), mask)[0]
        return (*words_only(hidden, mask), keys)

    def forward(
        self, pairs: PairSet, order: list[int], store: SentenceStore, blind: bool
    ) -> torch.Tensor:
        b, lens_b, keys_b = self.vectors(store, [pairs.hypotheses[i] for i in order])
        if blind:
            a = torch.zeros(len(order), 1, b.shape[-1])  # (N, 1, d): nothing of the premise
            lens_a = torch.ones(len(order), dtype=torch.int64)
            keys_a = None if keys_b is None else a
        else:
            a, lens_a, keys_a = self.vectors(store, [pairs.premises[i] for i in order])
        keys = None if keys_a is None or keys_b is None else (keys_a, keys_b)
        return self.head(a, b, lens_a, lens_b, keys)  # (N, 3)


def batches(
    pairs: PairSet, store: SentenceStore, size: int, rng: np.random.Generator
) -> list[list[int]]:
    """One epoch's batches: pairs of similar premise length together, in a seeded order."""
    starts = np.frombuffer(store.starts, dtype=np.int64)
    premises = np.frombuffer(pairs.premises, dtype=np.int32)
    lengths = starts[premises + 1] - starts[premises]  # (N,)
    order, out = rng.permutation(len(pairs)), []
    for first in range(0, len(order), size * WINDOW):
        window = order[first : first + size * WINDOW]
        window = window[np.argsort(lengths[window], kind="stable")]
        out += [window[i : i + size].tolist() for i in range(0, len(window), size)]
    rng.shuffle(out)
    return out


def logits_of(model: Tuned, pairs: PairSet, store: SentenceStore, blind: bool) -> torch.Tensor:
    """(N, 3) logits of every pair, 128 at a time, in inference mode."""
    was = model.training
    model.train(False)
    with torch.inference_mode():
        out = [
            model(pairs, list(range(s, min(s + 128, len(pairs)))), store, blind)
            for s in range(0, len(pairs), 128)
        ]
    model.train(was)
    return torch.cat(out) if out else torch.zeros(0, 3)


def _rates(step: int, probe: int, total: int, warmup: int) -> tuple[float, float]:
    """The layers' and the head's learning-rate factors at `step`: the head alone for the first
    `probe` steps; then both, warmed up linearly over `warmup` steps and decayed to 0."""
    if step < probe:
        return 0.0, 1.0
    step, total = step - probe, total - probe
    factor = (
        (step + 1) / warmup if step < warmup else max(0.0, (total - step) / max(total - warmup, 1))
    )
    return factor, factor


def _optimizer(model: Tuned, config: TuneConfig) -> torch.optim.Optimizer:
    return torch.optim.AdamW(
        [
            {"params": model.tuned.trainable(), "lr": config.encoder_lr,
             "weight_decay": config.weight_decay},
            {"params": list(model.head.parameters()), "lr": config.lr, "weight_decay": 0.0},
        ]
    )  # fmt: skip


def tune(
    config: TuneConfig,
    train_set: PairSet,
    store: SentenceStore,
    select: PairSet,
    progress: Callable[[str, int, int], None] | None = None,
) -> tuple[Tuned, TuneHistory]:
    """Fine-tune; the state of the best selection score is returned."""
    torch.manual_seed(config.seed)
    rng = np.random.default_rng(config.seed)
    head = DecomposableAttentionModel(
        store.encoder.hidden_size, config.hidden, config.dropout, align=config.align,
        pooled=config.pooled, enhanced=config.enhanced,
    )  # fmt: skip
    plain = TunedLayers(store.encoder, config.layers) if config.attend == "minilm" else None
    model = Tuned(TunedLayers(store.encoder, config.layers), head, plain).train(True)
    optimizer = _optimizer(model, config)
    rates = [group["lr"] for group in optimizer.param_groups]
    per_epoch = math.ceil(len(train_set) / config.batch_size)
    probe = int(per_epoch * config.head_epochs)
    total = min(probe + int(per_epoch * config.epochs), config.max_steps or 1 << 60)
    every, warmup = max(1, per_epoch // config.evals), max(1, int(config.warmup * (total - probe)))
    labels, history, best = train_set.label_tensor(), TuneHistory(), None
    step, seen, loss_sum, start = 0, 0, 0.0, time.perf_counter()
    while step < total:
        for batch in batches(train_set, store, config.batch_size, rng):
            if step >= total:
                break
            model.freeze(step < probe)
            factors = _rates(step, probe, total, warmup)
            for group, rate, factor in zip(optimizer.param_groups, rates, factors, strict=True):
                group["lr"] = rate * factor
            loss = F_nn.cross_entropy(
                model(train_set, batch, store, config.premise_blind), labels[batch]
            )
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.tuned.trainable(), 1.0)
            optimizer.step()
            step, seen, loss_sum = step + 1, seen + len(batch), loss_sum + loss.item() * len(batch)
            if progress:
                progress("train", step * config.batch_size, total * config.batch_size)
            if step % every == 0 or step == total:
                score = _accuracy(model, select, store, config.premise_blind)
                history.steps.append(step)
                history.loss.append(loss_sum / max(seen, 1))
                history.select_accuracy.append(score)
                seen, loss_sum = 0, 0.0
                if best is None or score > max(history.select_accuracy[:-1]):
                    history.best = len(history.steps) - 1
                    best = {k: v.detach().clone() for k, v in model.state_dict().items()}
    history.seconds = time.perf_counter() - start
    history.pairs_per_second = step * config.batch_size / max(history.seconds, 1e-9)
    assert best is not None
    model.load_state_dict(best)
    model.freeze(False)
    return model.train(False), history


def _accuracy(model: Tuned, pairs: PairSet, store: SentenceStore, blind: bool) -> float:
    if len(pairs) == 0:
        return math.nan
    predicted = logits_of(model, pairs, store, blind).argmax(-1)
    return float((predicted == pairs.label_tensor()).float().mean())
