"""The labelled pairs attnviz ships (data/nli/): sizes, balance, premises, near-duplicates, and
the default checkpoint's card against the files it was trained on."""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict

import pytest

from attnviz.nli import checkpoint as nli_checkpoint
from attnviz.nli.data import LABELS, read_file

SPLITS = {"train": 4704, "dev": 1008, "test": 1008}


def rows(split: str) -> list[dict]:
    return [json.loads(line) for line in (nli_checkpoint.DATA_DIR / f"{split}.jsonl").open()]


def words(text: str) -> tuple[str, ...]:
    return tuple(re.findall(r"[\w']+", text.lower()))


def one_word_away(sentences: list[str]) -> set[int]:
    """Indices of the sentences at most one word (substituted, inserted or deleted) from another."""
    tuples = [words(s) for s in sentences]
    exact: dict[tuple[str, ...], list[int]] = defaultdict(list)
    blanks: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for i, w in enumerate(tuples):
        exact[w].append(i)
        for k in range(len(w)):
            blanks[(*w[:k], "\0", *w[k + 1 :])].append(i)  # one word substituted
    close = {i for group in exact.values() if len(group) > 1 for i in group}
    close |= {i for group in blanks.values() if len({tuples[j] for j in group}) > 1 for i in group}
    for i, w in enumerate(tuples):  # one word deleted from w gives another sentence
        for k in range(len(w)):
            shorter = exact.get(w[:k] + w[k + 1 :], [])
            if shorter:
                close |= {i, *shorter}
    return close


def test_one_word_away_finds_each_kind_of_edit():
    found = one_word_away(
        ["A dog runs.", "A cat runs.", "The man sings", "The man sings loudly", "Rain fell", "x y"]
    )
    assert found == {0, 1, 2, 3}


def test_sizes_and_balance_of_every_split():
    for split, size in SPLITS.items():
        examples, summary = read_file(nli_checkpoint.DATA_DIR / f"{split}.jsonl")
        assert len(list(examples)) == size and summary.bad == 0 and summary.unlabelled == 0
        assert summary.by_label == [size // 3] * 3, split


def test_no_premise_appears_twice_and_few_hypotheses_are_one_word_apart():
    every = [row for split in SPLITS for row in rows(split)]
    premises = Counter(row["sentence1"] for row in every)
    assert [p for p, n in premises.items() if n > 1] == []
    close = one_word_away([row["sentence2"] for row in every])
    assert len(close) <= 0.10 * len(every), len(close)
    assert len(close) < 10  # measured: 2 of 6,720
    ids = [row["pairID"] for row in every]
    assert len(set(ids)) == len(ids) and all(row["gold_label"] in LABELS for row in every)


def test_pairs_vary_in_length_and_topic():
    every = [row for split in SPLITS for row in rows(split)]
    for label in LABELS:
        lengths = [len(words(r["sentence2"])) for r in every if r["gold_label"] == label]
        assert min(lengths) <= 4 and max(lengths) >= 16, label
    assert len({row["genre"] for row in every}) >= 40


def test_the_default_card_names_the_shipped_files_by_their_sha256():
    card_file = nli_checkpoint.card_path(nli_checkpoint.DEFAULT_CHECKPOINT)
    if not card_file.exists():
        pytest.fail("no default checkpoint: run make train-nli and commit data/nli/model/")
    card = json.loads(card_file.read_text())
    for split in SPLITS:
        path = nli_checkpoint.DATA_DIR / f"{split}.jsonl"
        assert card["data"][split]["file"] == path.name
        assert card["data"][split]["sha256"] == nli_checkpoint.sha256_of(path), split
        assert card["data"][split]["pairs"] == SPLITS[split]
