"""The training page's data: the shipped splits read back with json, an upload split into
train and dev (every pair once, in file order, a tenth and at least 10 held out), the seeded
sample, and the alignment's row entropy against scipy."""

from __future__ import annotations

import hashlib
import json
import math

import numpy as np
import pytest
from scipy import stats

from attnviz.errors import InputError
from attnviz.lessons.train_nli import compute
from attnviz.nli import checkpoint

LABELS = ("entailment", "neutral", "contradiction")


def jsonl_rows(name: str) -> list[tuple[str, str, int]]:
    """A shipped split read with json alone: SNLI's fields, unlabelled ("-") rows left out."""
    rows = []
    with (checkpoint.DATA_DIR / name).open(encoding="utf-8") as file:
        for line in file:
            if not line.strip():
                continue
            row = json.loads(line)
            if row["gold_label"] != "-":
                label = LABELS.index(row["gold_label"])
                rows.append((row["sentence1"].strip(), row["sentence2"].strip(), label))
    return rows


def csv_upload(count: int, extra: str = "") -> bytes:
    """`count` distinct labelled pairs as CSV, then `extra` lines."""
    lines = ["premise,hypothesis,label"]
    lines += [f"premise {i},hypothesis {i},{LABELS[i % 3]}" for i in range(count)]
    return ("\n".join(lines) + "\n" + extra).encode()


def test_shipped_splits_are_the_files_rows_with_their_hashes():
    prepared = compute.shipped()
    assert prepared.train == jsonl_rows("train.jsonl")
    assert prepared.dev == jsonl_rows("dev.jsonl")
    assert len(prepared.train) > 1000 and len(prepared.dev) > 100
    for name in ("train", "dev"):
        data = (checkpoint.DATA_DIR / f"{name}.jsonl").read_bytes()
        assert prepared.data[name] == {
            "file": f"{name}.jsonl",
            "sha256": hashlib.sha256(data).hexdigest(),
        }
    assert (prepared.unlabelled, prepared.bad, prepared.first_error) == (0, 0, "")


@pytest.mark.parametrize(("count", "held"), [(20, 10), (45, 10), (200, 20), (1234, 123)])
def test_an_upload_is_split_into_train_and_dev_with_every_pair_once(count, held):
    data = csv_upload(count)
    prepared = compute.uploaded(data, "pairs.csv")
    rows = [(f"premise {i}", f"hypothesis {i}", i % 3) for i in range(count)]
    assert len(prepared.dev) == held and len(prepared.train) == count - held
    assert sorted(prepared.train + prepared.dev) == sorted(rows)  # every pair, once
    # Each split keeps the file's order.
    for split in (prepared.train, prepared.dev):
        positions = [rows.index(row) for row in split]
        assert positions == sorted(positions)
    # Held out at random, not the file's last tenth.
    assert prepared.dev != rows[-held:]
    assert compute.uploaded(data, "pairs.csv") == prepared  # seeded: the same split again
    source = {"file": "pairs.csv", "sha256": hashlib.sha256(data).hexdigest(), "split": "90/10"}
    assert prepared.data == {"train": source, "dev": source}


def test_an_upload_counts_what_it_skipped_and_names_the_first_bad_line():
    extra = "premise u,hypothesis u,-\npremise x,hypothesis x,maybe\n,hypothesis y,neutral\n"
    prepared = compute.uploaded(csv_upload(30, extra), "pairs.csv")
    assert len(prepared.train) + len(prepared.dev) == 30
    assert (prepared.unlabelled, prepared.bad) == (1, 2)
    # Line 1 is the header, lines 2-31 the pairs, 32 the unlabelled one, 33 the bad label.
    assert prepared.first_error.startswith("line 33: the label 'maybe' is not one of")


def test_an_upload_in_snli_jsonl_reads_its_fields():
    lines = [
        json.dumps({"sentence1": f"p{i}", "sentence2": f"h{i}", "gold_label": LABELS[i % 3]})
        for i in range(25)
    ]
    prepared = compute.uploaded("\n".join(lines).encode(), "snli.jsonl")
    expected = [(f"p{i}", f"h{i}", i % 3) for i in range(25)]
    assert sorted(prepared.train + prepared.dev) == sorted(expected)
    assert len(prepared.dev) == 10


@pytest.mark.parametrize("count", [0, 19])
def test_too_few_pairs_are_refused_with_the_count(count):
    extra = "" if count else "premise u,hypothesis u,-\n"
    with pytest.raises(InputError) as info:
        compute.uploaded(csv_upload(count, extra), "pairs.csv")
    assert info.value.key == "job_too_few"
    assert str(info.value).startswith(f"The file has {count} labelled pairs: training needs at ")
    assert "at least 20" in str(info.value)


def test_sample_keeps_a_seeded_subset_in_file_order():
    rows = [(f"p{i}", f"h{i}", i % 3) for i in range(1000)]
    assert compute.sample(rows, 1000) == rows and compute.sample(rows[:5], 10) == rows[:5]
    chosen = compute.sample(rows, 50)
    assert len(chosen) == len(set(chosen)) == 50
    positions = [rows.index(row) for row in chosen]
    assert positions == sorted(positions)
    assert chosen != rows[:50]  # a sample from the whole file, not its head
    assert max(positions) > 500
    assert compute.sample(rows, 50) == chosen


def test_row_entropy_is_the_mean_entropy_of_the_rows_in_nats():
    gen = np.random.default_rng(0)
    weights = gen.dirichlet(np.ones(7), size=5)  # (5, 7) rows summing to 1
    weights[2, [1, 4]] = 0.0  # 0 log 0 = 0
    weights[2] /= weights[2].sum()
    expected = float(np.mean([stats.entropy(row) for row in weights]))
    assert compute.row_entropy(weights.tolist()) == pytest.approx(expected, rel=1e-12)
    assert compute.row_entropy([[0.25] * 4] * 3) == pytest.approx(math.log(4))
    assert compute.row_entropy([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]) == 0.0
    assert math.isnan(compute.row_entropy([]))


class Sent:
    """The worker's pipe, kept in a list: jobs.work runs here as the worker process runs it."""

    def __init__(self) -> None:
        self.messages: list[tuple] = []

    def send(self, message: tuple) -> None:
        self.messages.append(message)

    def close(self) -> None:
        pass


def test_the_page_defaults_show_the_watched_alignment_sharpen():
    """Issue 39: the page promises an alignment that changes epoch by epoch, but its defaults
    read 0.29, 0.29, 0.29, 0.30, 0.30 on a hypothesis that copies its premise. Trained as the
    page trains with its defaults (the shipped pairs, the default sample, the settings' job),
    the watched pair's row entropy falls by at least a fifth from the first epoch to the last."""
    from attnviz.lessons.train_nli import view
    from attnviz.nli import jobs

    prepared = compute.shipped()
    config = compute.job_config(
        view.SOURCE.default, None, view.ALIGN.default, view.SCALE.default,
        view.HIDDEN.default, view.EPOCHS.default,
    )  # fmt: skip
    train = compute.sample(list(prepared.train), view.PAIRS.default)
    dev = prepared.dev[: jobs.MAX_DEV_PAIRS]
    spec = jobs.JobSpec(train, dev, config, view.WATCH.default, prepared.data)
    premise, hypothesis, _ = dev[spec.watch]
    assert not set(hypothesis.lower().split()) <= set(premise.lower().split())  # not a copy
    sent = Sent()
    jobs.work(spec, sent)
    epochs = [m for m in sent.messages if m[0] == "epoch"]
    assert len(epochs) == view.EPOCHS.default, sent.messages[-1]
    entropies = [compute.row_entropy(m[5]) for m in epochs]
    assert entropies[-1] <= 0.8 * entropies[0], entropies
