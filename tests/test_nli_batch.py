"""Evaluation files for the NLI page: the formats read, the caps, and the report of a scored
file against its gold labels."""

from __future__ import annotations

import csv
import io
import json

import pytest
import torch

from attnviz.errors import InputError
from attnviz.nli import batch
from attnviz.nli.data import LABELS

PAIRS = [
    ("A man sleeps on a bench.", "A man is asleep.", "entailment"),
    ("Two dogs run in a field.", "The dogs are asleep.", "contradiction"),
    ("A girl reads a book.", "The girl is at school.", "neutral"),
]


def jsonl(rows=PAIRS) -> bytes:
    lines = [json.dumps({"sentence1": p, "sentence2": h, "gold_label": g,
                         "sentence1_parse": "(ROOT (S ...))"}) for p, h, g in rows]  # fmt: skip
    return "\n".join(lines).encode()


def table(header: list[str], rows: list[tuple[str, ...]], delimiter: str) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue().encode()


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("snli_1.0_dev.jsonl", jsonl()),
        ("pairs.csv", table(["premise", "hypothesis", "label"], PAIRS, ",")),
        ("snli_test.csv", table(["gold_label", "sentence1", "sentence2"],
                                [(g, p, h) for p, h, g in PAIRS], ",")),
        ("multinli_dev.txt", table(["gold_label", "sentence1", "sentence2", "genre"],
                                   [(g, p, h, "fiction") for p, h, g in PAIRS], "\t")),
        ("pairs.tsv", table(["premise", "hypothesis", "label"], PAIRS, "\t")),
    ],
)  # fmt: skip
def test_each_accepted_format_gives_the_pairs_and_labels(name, data):
    read = batch.read_scoring_file(data, name)
    assert read.pairs == [(p, h) for p, h, _ in PAIRS]
    assert read.labels == [LABELS.index(g) for _, _, g in PAIRS]
    assert read.unlabelled == 0 and len(read.sha256) == 64


def test_labels_are_optional_and_dashes_are_dropped_and_counted():
    unlabelled = batch.read_scoring_file(table(["premise", "hypothesis"], [p[:2] for p in PAIRS],
                                               ","), "x.csv")  # fmt: skip
    assert unlabelled.labels == [None, None, None]
    rows = [*PAIRS, ("A cat.", "A dog.", "-")]
    dashed = batch.read_scoring_file(jsonl(rows), "x.jsonl")
    assert len(dashed.pairs) == 3 and dashed.unlabelled == 1


def test_caps_and_bad_rows_are_messages():
    many = jsonl([PAIRS[0]] * (batch.MAX_SCORE_PAIRS + 1))
    with pytest.raises(InputError, match="10000"):
        batch.read_scoring_file(many, "many.jsonl")
    with pytest.raises(InputError, match="bytes"):
        batch.read_scoring_file(b"x" * (batch.MAX_SCORE_BYTES + 1), "big.jsonl")
    with pytest.raises(InputError, match="Line 4: missing field"):
        batch.read_scoring_file(jsonl() + b'\n{"sentence1": "a"}', "bad.jsonl")
    with pytest.raises(InputError, match="header needs"):
        batch.read_scoring_file(b"a,b\nc,d\n", "odd.csv")
    with pytest.raises(InputError):
        batch.read_scoring_file("\ufeffpremise,hypothesis\n".encode() + b"\xff\n", "x.csv")


def test_the_report_counts_what_a_reader_would():
    pairs = [("p", "one two three")] * 4 + [("p", " ".join(["w"] * 12))] * 2
    labels = [0, 1, 2, None, 2, 0]
    probabilities = torch.tensor(
        [[0.8, 0.1, 0.1], [0.1, 0.8, 0.1], [0.6, 0.2, 0.2], [0.3, 0.3, 0.4],
         [0.1, 0.1, 0.8], [0.2, 0.5, 0.3]]
    )  # fmt: skip
    found = batch.report(probabilities, labels, pairs)
    assert found is not None and (found.labelled, found.correct) == (5, 3)
    assert found.accuracy == pytest.approx(0.6) and found.wrong == [2, 5]
    assert found.confusion == [[1, 1, 0], [0, 1, 0], [1, 0, 1]]
    assert found.per_label == [(0.5, 2), (1.0, 1), (0.5, 2)]
    assert found.per_length[0] == (pytest.approx(2 / 3), 3)  # 1-4 words
    assert found.per_length[4] == (0.5, 2)  # 12-15 words
    assert found.per_length[1][1] == 0
    low, high = found.ci95
    assert low < 0.6 < high
    assert batch.report(probabilities, [None] * 6, pairs) is None


def test_the_csv_holds_every_pair_and_its_probabilities():
    probabilities = torch.tensor([[0.7, 0.2, 0.1], [0.1, 0.1, 0.8]])
    text = batch.probabilities_csv([("a, b", 'c "d"'), ("e", "f")], [0, None], probabilities)
    rows = list(csv.reader(io.StringIO(text.decode())))
    assert rows[0][:5] == ["pair", "premise", "hypothesis", "gold_label", "verdict"]
    assert rows[1][1:5] == ["a, b", 'c "d"', "entailment", "entailment"]
    assert rows[2][3:5] == ["", "contradiction"] and float(rows[2][7]) == pytest.approx(0.8)
