"""The card of an NLI checkpoint, typed: what the weights are, what they were trained on, and
what was measured on which data.

A card is JSON beside the weights (attnviz.nli.checkpoint). `Card.from_json` reads every format
attnviz has written ("attnviz-nli/1", the cards before the real data, and "attnviz-nli/2") and
checks the fields a model is rebuilt from; the pages read the typed fields, never the JSON. Each
accuracy says which data it was measured on: `real` holds the figures on human-written SNLI and
MultiNLI pairs (a card trained on them), `own_test` attnviz's own written test split, `hard`
attnviz's hard set, by phenomenon. `headline` is the first of these a card has.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from attnviz.errors import InputError
from attnviz.nli.data import LABELS

FORMAT = "attnviz-nli/2"
FORMATS = ("attnviz-nli/1", FORMAT)
MAX_CARD_BYTES = 2_000_000
SOURCES: tuple[str, ...] = ("contextual", "static", "random")  # what any sentence is read with
CARD_SOURCES: tuple[str, ...] = (*SOURCES, "tuned")  # and a checkpoint's own tuned layers
SCALES: tuple[str, ...] = ("none", "sqrt_d")  # or a temperature, a number > 0
ALIGNS: tuple[str, ...] = ("mlp", "cosine", "residual")


def _float(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def _interval(value: Any) -> tuple[float, float] | None:
    if isinstance(value, list | tuple) and len(value) == 2:
        return float(value[0]), float(value[1])
    return None


@dataclass(frozen=True)
class Scores:
    """Accuracy on one labelled set, with its 95% interval and what else was measured there."""

    pairs: int
    accuracy: float
    ci95: tuple[float, float] | None = None
    per_label: dict[str, float] = field(default_factory=dict)
    confusion: list[list[int]] | None = None  # (gold row, predicted column) in LABELS order
    ece: float | None = None  # expected calibration error with the card's temperature
    ece_uncalibrated: float | None = None
    baseline: float | None = None  # the hypothesis-only model's accuracy on the same pairs
    baseline_ci95: tuple[float, float] | None = None

    @staticmethod
    def read(raw: Any) -> Scores | None:
        if not isinstance(raw, dict) or _float(raw.get("accuracy")) is None:
            return None
        labels = raw.get("per_label") or {}
        return Scores(
            pairs=int(raw.get("pairs") or 0),
            accuracy=float(raw["accuracy"]),
            ci95=_interval(raw.get("ci95")),
            per_label={k: float(v) for k, v in labels.items() if _float(v) is not None},
            confusion=raw.get("confusion"),
            ece=_float(raw.get("ece")),
            ece_uncalibrated=_float(raw.get("ece_uncalibrated")),
            baseline=_float(raw.get("baseline")),
            baseline_ci95=_interval(raw.get("baseline_ci95")),
        )

    @property
    def gap(self) -> float | None:
        """Accuracy minus the hypothesis-only baseline's: what reading the premise adds."""
        return None if self.baseline is None else self.accuracy - self.baseline


@dataclass(frozen=True)
class Real:
    """Figures on human-written pairs: SNLI's test set (scored once) and the selection split
    of SNLI's and MultiNLI's dev sets (what the epoch and temperature were chosen on)."""

    snli_test: Scores
    snli_select: Scores | None
    mnli_select: Scores | None
    train_pairs: int
    sources: dict[str, dict[str, int]]  # per set: rows read, kept, dropped and why


@dataclass(frozen=True)
class Hits:
    """The trained attend step's alignment hits on attnviz's hand-aligned pairs."""

    rate: float
    hits: int
    marked: int
    untrained_rate: float | None


@dataclass(frozen=True)
class Hard:
    """Accuracy on attnviz's hard set, overall and per phenomenon (tag, accuracy, pairs)."""

    pairs: int
    accuracy: float
    by_tag: list[tuple[str, float, int]]


@dataclass(frozen=True)
class Card:
    """A checkpoint's card: `from_json` reads it, `raw` is the JSON as written."""

    format: str
    encoder: dict[str, Any]  # name, fingerprint, hidden_size, note
    source: str  # the token vectors: contextual, static, random or tuned
    layer: int | None  # a hidden-state index (0 = embeddings) for contextual and tuned
    tuned: dict[str, Any] | None  # the tuned layers' file: file, layers, sha256, bytes
    attend: str  # what e scores: "vectors" (the compared ones) or "minilm" (MiniLM's own layer)
    scale: str | float
    align: str
    pooled: bool
    enhanced: bool  # G also reads a token's difference from and product with its alignment
    d: int
    hidden: int
    dropout: float
    temperature: float | None
    fitted_on: str | None  # "dev" (attnviz's own dev split) or "select" (the real selection)
    train_file: str
    train_pairs: int | None
    best_epoch: int | None
    selection_accuracy: float | None  # accuracy of the chosen epoch on dev / selection
    real: Real | None
    own_test: Scores | None
    hard: Hard | None
    alignment: Hits | None
    swap: tuple[float, float] | None  # entailment kept with its own premise, with another's
    mistakes: list[dict[str, Any]]  # own test pairs it gets wrong (no real sentence)
    raw: dict[str, Any]

    @staticmethod
    def from_json(data: bytes | str | dict[str, Any]) -> Card:
        """A card from its JSON (bytes, text or parsed), InputError for one that is not an
        attnviz NLI card or lacks what the model is rebuilt from."""
        raw = data if isinstance(data, dict) else _parse(data)
        if not isinstance(raw, dict) or raw.get("format") not in FORMATS:
            found = raw.get("format") if isinstance(raw, dict) else type(raw).__name__
            raise InputError("checkpoint_format", found=str(found)[:40], expected=FORMAT)
        try:
            return _card(raw)
        except (KeyError, TypeError, ValueError) as err:
            raise InputError("checkpoint_card", detail=f"{type(err).__name__}: {err}") from None

    def to_json(self) -> bytes:
        return json.dumps(self.raw, indent=1, ensure_ascii=False).encode("utf-8")

    @property
    def headline(self) -> tuple[str, Scores] | None:
        """("snli_test", ...) for a card trained on real pairs, else ("own_test", ...)."""
        if self.real is not None:
            return "snli_test", self.real.snli_test
        return ("own_test", self.own_test) if self.own_test is not None else None


def _parse(data: bytes | str) -> Any:
    if len(data) > MAX_CARD_BYTES:
        raise InputError("file_too_big", found=len(data), limit=MAX_CARD_BYTES)
    try:
        return json.loads(data.decode("utf-8-sig") if isinstance(data, bytes) else data)
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise InputError("checkpoint_card", detail=str(err)) from None


def _checked(raw: dict[str, Any]) -> tuple[str, str | float, str, float | None]:
    """The fields a model is rebuilt from, checked: source, scale, align, temperature."""
    source = raw["embedding"]["source"]
    if source not in CARD_SOURCES or raw["labels"] != list(LABELS):
        raise ValueError("source or labels")
    scale = raw["scale"]
    if not (scale in SCALES or (isinstance(scale, int | float) and scale > 0)):
        raise ValueError("scale")
    align = raw.get("align", "mlp")
    if align not in ALIGNS:
        raise ValueError("align")
    temperature = _float((raw.get("calibration") or {}).get("temperature"))
    if temperature is not None and not 0 < temperature < 1e3:
        raise ValueError("temperature")
    if source == "tuned" and not int(raw["embedding"]["tuned"]["layers"]) >= 1:
        raise ValueError("tuned layers")
    if raw["embedding"].get("attend", "vectors") not in ("vectors", "minilm"):
        raise ValueError("attend")
    return source, scale, align, temperature


def _own_test(raw: dict[str, Any]) -> Scores | None:
    """attnviz's own test split: the card's `test`, with the figures version 1 kept apart."""
    test = raw.get("test")
    if not isinstance(test, dict):
        return None
    calibration = raw.get("calibration") or {}
    baseline = raw.get("baseline") or {}
    evaluation = raw.get("evaluation") or {}
    return Scores.read(
        {
            "per_label": evaluation.get("per_label"),
            "ece": calibration.get("ece_test_calibrated"),
            "ece_uncalibrated": calibration.get("ece_test"),
            "baseline": baseline.get("accuracy"),
            "baseline_ci95": baseline.get("ci95"),
            **test,
        }
    )


def _real(raw: Any) -> Real | None:
    if not isinstance(raw, dict):
        return None
    snli_test = Scores.read(raw.get("snli_test"))
    if snli_test is None:
        return None
    return Real(
        snli_test=snli_test,
        snli_select=Scores.read(raw.get("snli_select")),
        mnli_select=Scores.read(raw.get("mnli_select")),
        train_pairs=int(raw.get("train_pairs") or 0),
        sources=raw.get("sources") or {},
    )


def _evaluation(raw: dict[str, Any]) -> tuple[Hard | None, Hits | None, tuple[float, float] | None]:
    evaluation = raw.get("evaluation") or {}
    hard, hits, swap = evaluation.get("hard"), evaluation.get("alignment"), None
    if isinstance(hard, dict) and _float(hard.get("accuracy")) is not None:
        tags = [(tag, float(v["accuracy"]), int(v["pairs"])) for tag, v in hard["by_tag"].items()]
        hard = Hard(int(hard["pairs"]), float(hard["accuracy"]), tags)
    else:
        hard = None
    if isinstance(hits, dict) and _float(hits.get("rate")) is not None:
        untrained = _float(hits.get("untrained_rate"))
        hits = Hits(float(hits["rate"]), int(hits["hits"]), int(hits["marked"]), untrained)
    else:
        hits = None
    found = evaluation.get("premise_swap") or {}
    if _float(found.get("entailment_own")) is not None:
        swap = (float(found["entailment_own"]), float(found["entailment_swapped"]))
    return hard, hits, swap


def _card(raw: dict[str, Any]) -> Card:
    source, scale, align, temperature = _checked(raw)
    layer = raw["embedding"].get("layer")
    training = raw.get("training") or {}
    train = (raw.get("data") or {}).get("train") or {}
    hard, hits, swap = _evaluation(raw)
    best = training.get("best_epoch")
    return Card(
        format=raw["format"],
        encoder=dict(raw.get("encoder") or {}),
        source=source,
        layer=None if layer is None else int(layer),
        tuned=raw["embedding"].get("tuned") if source == "tuned" else None,
        attend=str(raw["embedding"].get("attend", "vectors")),
        scale=scale,
        align=align,
        pooled=bool(raw.get("pooled", False)),
        enhanced=bool(raw.get("enhanced", False)),
        d=int(raw["sizes"]["d"]),
        hidden=int(raw["sizes"]["hidden"]),
        dropout=float(raw["dropout"]),
        temperature=temperature,
        fitted_on=(raw.get("calibration") or {}).get("fitted_on"),
        train_file=str(train.get("file", "?")),
        train_pairs=int(train["pairs"]) if isinstance(train.get("pairs"), int) else None,
        best_epoch=int(best) if isinstance(best, int) else None,
        selection_accuracy=_float(raw.get("dev_accuracy")),
        real=_real(raw.get("real")),
        own_test=_own_test(raw),
        hard=hard,
        alignment=hits,
        swap=swap,
        mistakes=list((raw.get("test") or {}).get("mistakes") or []),
        raw=raw,
    )
