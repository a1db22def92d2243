"""Checkpoints of the NLI classifier: safetensors weights beside a JSON card.

The card says what the weights are for and where they came from: the encoder (a fingerprint of
its word embeddings) and embedding source they were trained on, the model's sizes and scale, the
data files (with their SHA-256), the training settings and the results (dev and test accuracy,
the test confusion matrix, the hypothesis-only baseline, the test pairs it gets wrong). Only
safetensors and JSON are ever read, never a pickle; a checkpoint made for another encoder or
embedding size is refused with a message that says so.

The default checkpoint, trained on human-written SNLI and MultiNLI pairs by `make train-nli`
(attnviz.nli.real), is data/nli/model/default.safetensors with its card and its tuned MiniLM
layers (default.layers.safetensors, attnviz.nli.tuned); the environment variable
ATTNVIZ_NLI_CHECKPOINT names another.
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
from attnviz.nli.card import FORMAT, Card
from attnviz.nli.classifier import Classifier
from attnviz.nli.data import LABELS
from attnviz.nli.model import DecomposableAttentionModel
from attnviz.nli.tuned import TunedLayers
from attnviz.nli.vectors import encoder_fingerprint

if TYPE_CHECKING:
    from attnviz.transformer.encoder import Encoder

DATA_DIR = paths.DATA / "nli"
DEFAULT_CHECKPOINT = DATA_DIR / "model" / "default.safetensors"
CHECKPOINT_ENV = "ATTNVIZ_NLI_CHECKPOINT"
MAX_CHECKPOINT_BYTES = 50_000_000  # a model of hidden size 1,000 over 384-wide embeddings: ~14 MB


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


def tuned_entry(tuned: TunedLayers, path: Path) -> tuple[dict[str, Any], bytes]:
    """The card's entry for tuned layers saved beside `path`, and their bytes."""
    layers = tuned.to_bytes()
    entry = {
        "file": layers_path(path).name,
        "layers": tuned.layers,
        "dtype": "float16",
        "sha256": sha256_bytes(layers),
        "bytes": len(layers),
    }
    return entry, layers


def save(
    model: DecomposableAttentionModel,
    card: dict[str, Any],
    path: Path,
    tuned: TunedLayers | None = None,
) -> None:
    """Write the weights to `path`, the card beside it, and tuned layers (if any) beside both,
    the card naming their file and SHA-256."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if tuned is not None:
        card["embedding"]["tuned"], layers = tuned_entry(tuned, path)
        layers_path(path).write_bytes(layers)
    weights, text = to_bytes(model, card)
    path.write_bytes(weights)
    card_path(path).write_bytes(text)


def parse_card(data: bytes) -> Card:
    """A card from its JSON, with the fields a model is rebuilt from checked."""
    return Card.from_json(data)


def model_from(weights: bytes, card: Card, encoder: Encoder) -> DecomposableAttentionModel:
    """The model of `weights` (safetensors bytes) and `card`, for this encoder."""
    if len(weights) > MAX_CHECKPOINT_BYTES:
        raise InputError("file_too_big", found=len(weights), limit=MAX_CHECKPOINT_BYTES)
    if card.d != encoder.hidden_size:
        raise InputError("checkpoint_size", found=card.d, expected=encoder.hidden_size)
    made_for = card.encoder.get("fingerprint")
    if made_for != encoder_fingerprint(encoder):
        raise InputError(
            "checkpoint_encoder", found=str(made_for)[:60], expected=encoder_fingerprint(encoder)
        )
    if card.layer is not None and not -(encoder.num_layers + 1) <= card.layer <= encoder.num_layers:
        raise InputError(
            "checkpoint_card", detail=f"layer {card.layer} is not one of the encoder's"
        )
    try:
        tensors = load_tensors(weights)
    except (SafetensorError, ValueError) as err:
        raise InputError("checkpoint_tensors", detail=str(err)[:200]) from None
    model = DecomposableAttentionModel(
        card.d, card.hidden, card.dropout, card.scale, align=card.align, pooled=card.pooled,
        enhanced=card.enhanced,
    )  # fmt: skip
    try:
        model.load_state_dict(tensors, strict=True)
    except RuntimeError as err:
        raise InputError("checkpoint_tensors", detail=str(err).splitlines()[0][:200]) from None
    return model.train(False)


def layers_path(weights: Path) -> Path:
    """The tuned layers beside a weights file: default.safetensors -> default.layers.safetensors."""
    return weights.with_name(f"{weights.stem}.layers.safetensors")


def tuned_from(data: bytes, card: Card, encoder: Encoder) -> TunedLayers:
    """The tuned layers a card names, from their file's bytes (checked against the card)."""
    assert card.tuned is not None
    if sha256_bytes(data) != card.tuned.get("sha256"):
        raise InputError("checkpoint_layers", file=str(card.tuned.get("file")))
    return TunedLayers(encoder, int(card.tuned["layers"])).load_bytes(data)


def load_classifier(
    path: str | Path | None = None, *, encoder: Encoder | None = None
) -> Classifier:
    """The classifier of the checkpoint at `path` (default: `checkpoint_path()`), on `encoder`
    (loaded when not given; pass the one a page has, so MiniLM is not loaded twice). A card
    with tuned layers reads them from their file beside the weights."""
    weights_path = Path(path) if path is not None else checkpoint_path()
    if weights_path.suffix != ".safetensors":
        raise InputError("checkpoint_suffix", name=weights_path.name)
    if not weights_path.exists() or not card_path(weights_path).exists():
        raise InputError("checkpoint_missing", path=str(weights_path))
    card = parse_card(card_path(weights_path).read_bytes())
    if encoder is None:
        from attnviz.transformer.encoder import load_encoder

        encoder = load_encoder()
    model = model_from(weights_path.read_bytes(), card, encoder)
    tuned = None
    if card.tuned is not None:
        layers = weights_path.with_name(str(card.tuned.get("file")))
        if not layers.is_file():
            raise InputError("checkpoint_missing", path=str(layers))
        tuned = tuned_from(layers.read_bytes(), card, encoder)
    plain = TunedLayers(encoder, tuned.layers) if tuned and card.attend == "minilm" else None
    return Classifier(model, card, encoder, tuned, plain)


def classifier_from_bytes(weights: bytes, card: bytes, encoder: Encoder) -> Classifier:
    """A classifier from an uploaded weights file and card (the app reads nothing else; a card
    with tuned layers is refused: they are a file of their own)."""
    parsed = parse_card(card)
    if parsed.tuned is not None:
        raise InputError("checkpoint_layers", file=str(parsed.tuned.get("file")))
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
