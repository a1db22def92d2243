"""The labelled pairs attnviz ships (data/nli/): the SNLI-style splits (three hypotheses a
premise, premise-disjoint), the hard set, the hand-aligned set, their artefacts, and the default
checkpoint's card against the files it was trained on."""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict

import pytest

from attnviz.nli import checkpoint as nli_checkpoint
from attnviz.nli.data import LABELS, TAG_KEYS, read_file
from attnviz.nli.evaluation import word_of

SPLITS = ("train", "dev", "test")
DATA = nli_checkpoint.DATA_DIR
NEGATION = re.compile(r"\b(not|no|nobody|never|nothing|none|n't)\b|n't\b", re.IGNORECASE)
# The textbook's pair (Murphy, PML1 ch. 15) and its close paraphrases stay out of every split.
PML = re.compile(r"\b(need|needs|needed|want|wants|could use)\b.{0,12}\b(sleep|rest)\b", re.I)
TIRED = re.compile(r"\b(tired|sleepy|exhausted)\b", re.IGNORECASE)


def rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / f"{name}.jsonl").open(encoding="utf-8")]


def words(text: str) -> tuple[str, ...]:
    return tuple(re.findall(r"[\w']+", text.lower()))


@pytest.fixture(scope="module")
def splits() -> dict[str, list[dict]]:
    return {name: rows(name) for name in SPLITS}


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


def test_every_premise_has_one_hypothesis_of_each_label_and_stays_in_one_split(splits):
    premises: dict[str, set[str]] = {}
    total = 0
    for name, found in splits.items():
        examples, summary = read_file(DATA / f"{name}.jsonl")
        assert len(list(examples)) == len(found) and summary.bad == summary.unlabelled == 0
        by_premise: dict[str, list[str]] = defaultdict(list)
        for row in found:
            by_premise[row["promptID"]].append(row["gold_label"])
            assert row["pairID"].startswith(row["promptID"])
        assert all(sorted(labels) == sorted(LABELS) for labels in by_premise.values()), name
        texts = {row["sentence1"] for row in found}
        assert len(texts) == len(by_premise), name  # one text a promptID
        premises[name] = texts
        total += len(found)
    assert total >= 9000 and sum(len(p) for p in premises.values()) >= 3000
    assert not premises["train"] & premises["dev"] and not premises["train"] & premises["test"]
    assert not premises["dev"] & premises["test"]  # premise-disjoint


def test_the_textbook_pair_is_in_no_split(splits):
    for name, found in splits.items():
        for row in found:
            both = row["sentence1"] + " " + row["sentence2"]
            assert not (PML.search(both) and TIRED.search(both)), (name, row["pairID"])


def test_artefacts_stay_small_lengths_negation_and_near_duplicates(splits):
    every = [row for found in splits.values() for row in found]
    by_label = {label: [r for r in every if r["gold_label"] == label] for label in LABELS}
    lengths = {k: sum(len(words(r["sentence2"])) for r in v) / len(v) for k, v in by_label.items()}
    assert max(lengths.values()) - min(lengths.values()) < 1.0, lengths
    negation = {k: sum(bool(NEGATION.search(r["sentence2"])) for r in v) / len(v)
                for k, v in by_label.items()}  # fmt: skip
    assert max(negation.values()) < 0.08 and min(negation.values()) > 0.01, negation
    premises = Counter(row["sentence1"] for row in every)
    assert max(premises.values()) == 3
    # Short hypotheses of different scenes meet ("A man is looking at a map." / "A family is
    # looking at a map."): measured 199 of 9,030.
    close = one_word_away([row["sentence2"] for row in every])
    assert len(close) <= 0.03 * len(every), len(close)
    ids = [row["pairID"] for row in every]
    assert len(set(ids)) == len(ids)
    assert len({row["genre"] for row in every}) == 8  # captions and seven kinds of prose


def test_the_hard_set_keeps_the_earlier_pairs_with_their_tags(splits):
    hard = rows("hard")
    assert len(hard) == 6720 and Counter(r["gold_label"] for r in hard) == dict.fromkeys(
        LABELS, 2240
    )
    assert {tag for row in hard for tag in row["tags"]} == set(TAG_KEYS)
    trained = {row["sentence1"] for row in splits["train"]}
    assert not trained & {row["sentence1"] for row in hard}


def test_the_aligned_set_marks_words_of_its_own_sentences(splits):
    aligned = list(read_file(DATA / "aligned.jsonl")[0])
    assert len(aligned) >= 150
    marked = 0
    for ex in aligned:
        premise = {word_of(w) for w in ex.premise.split()}
        hypothesis = {word_of(w) for w in ex.hypothesis.split()}
        for word, targets in ex.alignment:
            assert word_of(word) in hypothesis and {word_of(t) for t in targets} <= premise
            marked += bool(targets)
    assert marked >= 500
    seen = {row["sentence1"] for found in splits.values() for row in found}
    assert not seen & {ex.premise for ex in aligned}  # kept out of training


def test_the_default_card_names_the_files_it_was_measured_on_by_their_sha256(splits):
    """The shipped card was trained on the real files its manifest names (by its SHA-256);
    attnviz's own test split and hard set, scored second and third, by theirs."""
    card_file = nli_checkpoint.card_path(nli_checkpoint.DEFAULT_CHECKPOINT)
    if not card_file.exists():
        pytest.fail("no default checkpoint: run make train-nli and commit data/nli/model/")
    card = json.loads(card_file.read_text())
    manifest = DATA / "real_sources.json"
    assert card["data"]["train"]["file"] == manifest.name
    assert card["data"]["train"]["sha256"] == nli_checkpoint.sha256_of(manifest)
    test = DATA / "test.jsonl"
    assert card["test"]["file"] == test.name and card["test"]["pairs"] == len(splits["test"])
    assert card["test"]["sha256"] == nli_checkpoint.sha256_of(test)
    assert card["evaluation"]["hard"]["sha256"] == nli_checkpoint.sha256_of(DATA / "hard.jsonl")
