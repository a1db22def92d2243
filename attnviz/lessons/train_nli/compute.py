"""The training page's data: the shipped pairs or an uploaded file, split and capped, as rows a
job trains on, and the job's config (no streamlit, no plotly; torch only inside job_config)."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from attnviz.errors import InputError
from attnviz.nli import checkpoint as nli_checkpoint
from attnviz.nli import data as nli_data
from attnviz.nli.jobs import Row

SEED = 2026  # the dev split of an upload and the sample of training pairs
DEV_SHARE = 0.1
MIN_DEV = 10
MAX_UPLOAD_BYTES = 8_000_000  # as the other uploads (parsing.MAX_FILE_BYTES)


@dataclass(frozen=True)
class Prepared:
    """Training and dev rows, where they came from, and what reading them skipped."""

    train: list[Row]
    dev: list[Row]
    data: dict[str, dict[str, Any]] = field(default_factory=dict)  # the card's data section
    unlabelled: int = 0
    bad: int = 0
    first_error: str = ""


def _rows(examples: list[nli_data.Example]) -> list[Row]:
    return [(e.premise, e.hypothesis, e.label) for e in examples]


def shipped() -> Prepared:
    """The shipped train and dev splits (data/nli/)."""
    sets = {}
    for name in ("train", "dev"):
        path = nli_checkpoint.DATA_DIR / f"{name}.jsonl"
        examples, _ = nli_data.read_file(path)
        sets[name] = _rows(list(examples))
    data = {
        name: {"file": f"{name}.jsonl", "sha256": nli_checkpoint.sha256_of(
            nli_checkpoint.DATA_DIR / f"{name}.jsonl")}
        for name in sets
    }  # fmt: skip
    return Prepared(sets["train"], sets["dev"], data)


def uploaded(data: bytes, name: str) -> Prepared:
    """An uploaded labelled file, a tenth of it (at least MIN_DEV pairs) held out as dev."""
    examples, summary = nli_data.read_bytes(data, name, MAX_UPLOAD_BYTES)
    rows = _rows(examples)
    if len(rows) < 2 * MIN_DEV:
        raise InputError("job_too_few", found=len(rows), limit=2 * MIN_DEV)
    order = list(range(len(rows)))
    random.Random(SEED).shuffle(order)
    held = max(MIN_DEV, round(len(rows) * DEV_SHARE))
    dev = [rows[i] for i in sorted(order[:held])]
    train = [rows[i] for i in sorted(order[held:])]
    first = ""
    if summary.errors:
        line, err = summary.errors[0]
        first = f"line {line}: {err}"
    source = {"file": name, "sha256": nli_checkpoint.sha256_bytes(data), "split": "90/10"}
    return Prepared(train, dev, {"train": source, "dev": source}, summary.unlabelled,
                    summary.bad, first)  # fmt: skip


# What the page fixes beside its settings, so that the watched alignment is learned where one
# can see it: the cosine attend step starts soft (k = 1) with k on a learning rate of its own,
# and a third more pairs are swapped-premise neutrals, which only a model reading the premise
# gets right. With k starting at 20 and no swaps, the row entropy of a dev pair barely moved
# (0.29, 0.29, 0.29, 0.30, 0.30): MiniLM's static rows already matched words on the first epoch.
START_SHARPNESS = 1.0
SHARPNESS_LR = 0.02
SWAP_SHARE = 0.3
BATCH_SIZE = 32


def job_config(
    source: str, layer: int | None, align: str, scale: str, hidden: int, epochs: int
) -> Any:
    """The TrainConfig of the page's settings (attnviz.nli.training, imported here: torch)."""
    from attnviz.nli.training import TrainConfig

    return TrainConfig(
        source=source, layer=layer, scale=scale, hidden=hidden, epochs=epochs,
        batch_size=BATCH_SIZE, align=align, sharpness=START_SHARPNESS,
        sharpness_lr=SHARPNESS_LR, swap_share=SWAP_SHARE,
    )  # fmt: skip


def sample(rows: list[Row], limit: int) -> list[Row]:
    """At most `limit` rows, a seeded sample in file order when there are more."""
    if len(rows) <= limit:
        return rows
    chosen = sorted(random.Random(SEED).sample(range(len(rows)), limit))
    return [rows[i] for i in chosen]


def row_entropy(weights: list[list[float]]) -> float:
    """The mean entropy (nats) of an alignment's rows: log(columns) when every row is uniform,
    0 when each row puts all its weight on one token."""
    rows = [[w for w in row if w > 0] for row in weights]
    if not rows:
        return float("nan")
    return -sum(sum(w * math.log(w) for w in row) for row in rows) / len(rows)
