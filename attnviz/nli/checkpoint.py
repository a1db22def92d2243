"""Checkpoints of the NLI classifier: safetensors weights beside a JSON card.

The card says what the weights are for and where they came from: the encoder (a fingerprint of
its word embeddings) and embedding source they were trained on, the model's sizes and scale, the
data files (with their SHA-256), the training settings and the results (dev and test accuracy,
the test confusion matrix, the hypothesis-only baseline, the test pairs it gets wrong). Only
safetensors and JSON are ever read, never a pickle; a checkpoint made for another encoder or
embedding size is refused with a message that says so.

The default checkpoint, trained on the shipped set by `make train-nli`, is
data/nli/model/default.safetensors; the environment variable ATTNVIZ_NLI_CHECKPOINT names another.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import torch
from safetensors import SafetensorError
from safetensors.torch import load as load_tensors
from safetensors.torch import save as save_tensors

from attnviz import paths
from attnviz.errors import InputError
from attnviz.nli.data import LABELS
from attnviz.nli.model import (
    ALIGNS,
    SCALES,
    SOURCES,
    Classifier,
    DecomposableAttentionModel,
    encoder_fingerprint,
)

if TYPE_CHECKING:
    from attnviz.encoder import Encoder

FORMAT = "attnviz-nli/1"
DATA_DIR = paths.DATA / "nli"
DEFAULT_CHECKPOINT = DATA_DIR / "model" / "default.safetensors"
CHECKPOINT_ENV = "ATTNVIZ_NLI_CHECKPOINT"
MAX_CHECKPOINT_BYTES = 50_000_000  # a model of hidden size 1,000 over 384-wide embeddings: ~14 MB
MAX_CARD_BYTES = 2_000_000


def card_path(weights: Path) -> Path:
    """The card beside a weights file: default.safetensors -> default.json."""
    return weights.with_suffix(".json")


def checkpoint_path() -> Path:
    """The checkpoint the app uses: ATTNVIZ_NLI_CHECKPOINT when set, else the default."""
    named = os.environ.get(CHECKPOINT_ENV)
    return Path(named).expanduser() if named else DEFAULT_CHECKPOINT


def sha256_of(path: Path) -> str:
    """The SHA-256 of a file, read in blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def to_bytes(model: DecomposableAttentionModel, card: dict[str, Any]) -> tuple[bytes, bytes]:
    """The weights as safetensors and the card as UTF-8 JSON, ready to write or download."""
    tensors = {name: value.detach().contiguous() for name, value in model.state_dict().items()}
    weights = save_tensors(tensors, metadata={"format": FORMAT})
    return weights, json.dumps(card, indent=1, ensure_ascii=False).encode("utf-8")


def save(model: DecomposableAttentionModel, card: dict[str, Any], path: Path) -> None:
    """Write the weights to `path` and the card beside it."""
    weights, text = to_bytes(model, card)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(weights)
    card_path(path).write_bytes(text)


def parse_card(data: bytes) -> dict[str, Any]:
    """A card from its JSON, with the fields a model is rebuilt from checked."""
    if len(data) > MAX_CARD_BYTES:
        raise InputError("file_too_big", found=len(data), limit=MAX_CARD_BYTES)
    try:
        card = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise InputError("checkpoint_card", detail=str(err)) from None
    if not isinstance(card, dict) or card.get("format") != FORMAT:
        found = card.get("format") if isinstance(card, dict) else type(card).__name__
        raise InputError("checkpoint_format", found=str(found)[:40], expected=FORMAT)
    try:
        sizes, embedding = card["sizes"], card["embedding"]
        int(sizes["d"]), int(sizes["hidden"]), float(card["dropout"])
        if embedding["source"] not in SOURCES or card["labels"] != list(LABELS):
            raise ValueError("source or labels")
        scale = card["scale"]
        if not (scale in SCALES or isinstance(scale, int | float)):
            raise ValueError("scale")
        if card.get("align", "mlp") not in ALIGNS:
            raise ValueError("align")
        temperature = (card.get("calibration") or {}).get("temperature")
        if temperature is not None and not (
            isinstance(temperature, int | float) and 0 < temperature < 1e3
        ):
            raise ValueError("temperature")
    except (KeyError, TypeError, ValueError) as err:
        raise InputError("checkpoint_card", detail=f"{type(err).__name__}: {err}") from None
    return card


def model_from(
    weights: bytes, card: dict[str, Any], encoder: Encoder
) -> DecomposableAttentionModel:
    """The model of `weights` (safetensors bytes) and `card`, for this encoder."""
    if len(weights) > MAX_CHECKPOINT_BYTES:
        raise InputError("file_too_big", found=len(weights), limit=MAX_CHECKPOINT_BYTES)
    d = int(card["sizes"]["d"])
    if d != encoder.hidden_size:
        raise InputError("checkpoint_size", found=d, expected=encoder.hidden_size)
    made_for = card.get("encoder", {}).get("fingerprint")
    if made_for != encoder_fingerprint(encoder):
        raise InputError(
            "checkpoint_encoder", found=str(made_for)[:60], expected=encoder_fingerprint(encoder)
        )
    layer = card["embedding"].get("layer")
    if layer is not None and not -(encoder.num_layers + 1) <= int(layer) <= encoder.num_layers:
        raise InputError("checkpoint_card", detail=f"layer {layer} is not one of the encoder's")
    try:
        tensors = load_tensors(weights)
    except (SafetensorError, ValueError) as err:
        raise InputError("checkpoint_tensors", detail=str(err)[:200]) from None
    model = DecomposableAttentionModel(
        d,
        int(card["sizes"]["hidden"]),
        float(card["dropout"]),
        card["scale"],
        align=card.get("align", "mlp"),
        pooled=bool(card.get("pooled", False)),
    )
    try:
        model.load_state_dict(tensors, strict=True)
    except RuntimeError as err:
        raise InputError("checkpoint_tensors", detail=str(err).splitlines()[0][:200]) from None
    return model.train(False)


def load_classifier(
    path: str | Path | None = None, *, encoder: Encoder | None = None
) -> Classifier:
    """The classifier of the checkpoint at `path` (default: `checkpoint_path()`), on `encoder`
    (loaded when not given; pass the one a page has, so MiniLM is not loaded twice)."""
    weights_path = Path(path) if path is not None else checkpoint_path()
    if weights_path.suffix != ".safetensors":
        raise InputError("checkpoint_suffix", name=weights_path.name)
    if not weights_path.exists() or not card_path(weights_path).exists():
        raise InputError("checkpoint_missing", path=str(weights_path))
    card = parse_card(card_path(weights_path).read_bytes())
    if encoder is None:
        from attnviz.encoder import load_encoder

        encoder = load_encoder()
    model = model_from(weights_path.read_bytes(), card, encoder)
    return Classifier(model, card, encoder)


def classifier_from_bytes(weights: bytes, card: bytes, encoder: Encoder) -> Classifier:
    """A classifier from an uploaded weights file and card (the app reads nothing else)."""
    parsed = parse_card(card)
    return Classifier(model_from(weights, parsed, encoder), parsed, encoder)


def wilson(correct: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of an accuracy of `correct` out of `total`."""
    if total == 0:
        return 0.0, 1.0
    p = correct / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * ((p * (1 - p) / total + z * z / (4 * total * total)) ** 0.5) / (1 + z * z / total)
    return max(0.0, centre - half), min(1.0, centre + half)


def confusion(labels: torch.Tensor, predicted: torch.Tensor) -> list[list[int]]:
    """Counts of (gold row, predicted column) in LABELS order."""
    table = torch.zeros(len(LABELS), len(LABELS), dtype=torch.int64)
    table.index_put_(
        (labels.long(), predicted.long()),
        torch.ones_like(labels, dtype=torch.int64),
        accumulate=True,
    )
    return table.tolist()
