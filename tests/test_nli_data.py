"""The NLI readers on good and bad files: SNLI / MultiNLI JSONL and .txt, CSV, uploads."""

from __future__ import annotations

import json

import pytest

from attnviz.errors import InputError
from attnviz.nli.data import LABELS, MAX_SENTENCE_CHARS, read_bytes, read_examples, read_file

SNLI_LINE = {
    "annotator_labels": ["neutral", "entailment"],
    "captionID": "3416050480.jpg#4",
    "gold_label": "neutral",
    "pairID": "3416050480.jpg#4r1n",
    "sentence1": "A person on a horse jumps over a broken down airplane.",
    "sentence1_binary_parse": "( ( ( A person ) ...",
    "sentence2": "A person is training his horse for a competition.",
}
SNLI_TXT = (
    "gold_label\tsentence1_binary_parse\tsentence2_binary_parse\tsentence1_parse\t"
    "sentence2_parse\tsentence1\tsentence2\tcaptionID\tpairID\tlabel1\n"
    "neutral\t( ( A person ) )\t( ( A person ) )\t(ROOT)\t(ROOT)\tA person on a horse jumps.\t"
    "A person is training his horse.\t3416050480.jpg#4\t3416050480.jpg#4r1n\tneutral\n"
    "-\t( x )\t( y )\t(ROOT)\t(ROOT)\tTwo people wait.\tThey are friends.\tc\tp\tneutral\n"
    "contradiction\t( x )\t( y )\t(ROOT)\t(ROOT)\tA dog runs.\tA cat sleeps.\tc\tp\tcontradiction\n"
)


def read(lines: list[str], name: str):
    examples, summary = read_examples(lines, name)
    return list(examples), summary


def test_snli_jsonl_with_its_extra_fields_and_unlabelled_rows():
    lines = [
        json.dumps(SNLI_LINE),
        json.dumps(SNLI_LINE | {"gold_label": "-", "sentence2": "Undecided."}),
        "",
        json.dumps(SNLI_LINE | {"gold_label": "Entailment", "sentence2": "Someone rides."}),
    ]
    examples, summary = read(lines, "snli_1.0_dev.jsonl")
    assert [(e.hypothesis, LABELS[e.label]) for e in examples] == [
        ("A person is training his horse for a competition.", "neutral"),
        ("Someone rides.", "entailment"),
    ]
    assert (summary.rows, summary.kept, summary.unlabelled, summary.bad) == (3, 2, 1, 0)
    assert summary.by_label == [1, 1, 0]


def test_multinli_jsonl_and_the_premise_hypothesis_label_fields():
    multinli = {"genre": "fiction", "gold_label": "contradiction", "sentence1": "He left.",
                "sentence2": "He stayed.", "promptID": 1, "pairID": "1c"}  # fmt: skip
    plain = {"premise": "It rains.", "hypothesis": "It is wet.", "label": "entailment"}
    examples, _ = read([json.dumps(multinli), json.dumps(plain)], "mixed.jsonl")
    assert [(e.premise, e.label) for e in examples] == [("He left.", 2), ("It rains.", 0)]


def test_snli_tab_separated_txt():
    examples, summary = read(SNLI_TXT.splitlines(), "snli_1.0_dev.txt")
    assert [(e.premise, LABELS[e.label]) for e in examples] == [
        ("A person on a horse jumps.", "neutral"),
        ("A dog runs.", "contradiction"),
    ]
    assert (summary.format, summary.unlabelled, summary.bad) == ("tsv", 1, 0)


def test_csv_with_quotes_and_commas():
    text = (
        'premise,hypothesis,label\n"A man, tired, sits.",A man sits.,entailment\nX y.,Z.,neutral\n'
    )
    examples, summary = read(text.splitlines(), "pairs.csv")
    assert [e.premise for e in examples] == ["A man, tired, sits.", "X y."]
    assert summary.format == "csv" and summary.kept == 2


def test_every_bad_row_is_named_by_its_line_and_counted():
    long = "word " * (MAX_SENTENCE_CHARS // 5 + 1)
    lines = [
        json.dumps({"sentence1": "A.", "sentence2": "B.", "gold_label": "entailment"}),  # 1 ok
        "{not json",  # 2
        json.dumps(["a", "list"]),  # 3
        json.dumps({"sentence1": "A.", "gold_label": "neutral"}),  # 4 no sentence2
        json.dumps({"sentence1": "A.", "sentence2": "B.", "gold_label": "maybe"}),  # 5
        json.dumps({"sentence1": "  ", "sentence2": "B.", "gold_label": "neutral"}),  # 6
        json.dumps({"sentence1": long, "sentence2": "B.", "gold_label": "neutral"}),  # 7
        json.dumps({"sentence1": "A.", "sentence2": "B.", "gold_label": "-"}),  # 8
    ]
    examples, summary = read(lines, "bad.jsonl")
    assert len(examples) == 1
    assert (summary.rows, summary.kept, summary.unlabelled, summary.bad) == (8, 1, 1, 6)
    said = "\n".join(summary.lines())
    for line, words in [
        (2, "not a JSON object"),
        (3, "not a JSON object"),
        (4, "missing field(s) sentence2"),
        (5, "the label 'maybe' is not one of entailment, neutral, contradiction"),
        (6, "the sentence1 is empty"),
        (7, f"the sentence1 has 10004 characters, more than {MAX_SENTENCE_CHARS}"),
    ]:
        assert f"Line {line}: {words}" in said, (line, said)
    assert "8 rows, 1 kept" in said and "1 without a gold label (-) skipped; 6 bad" in said


def test_missing_columns_and_short_rows_in_tables():
    with pytest.raises(InputError, match="needs the columns premise, hypothesis, label"):
        read(["premise,hypothesis", "A.,B."], "two_columns.csv")
    with pytest.raises(InputError, match="sentence1, sentence2, gold_label"):
        read(["gold_label\tsentence1\ttext", "neutral\tA.\tB."], "wrong.txt")
    # each field by SNLI's name or the plain one (the MultiNLI dev file HANS ships mixes them)
    mixed, _ = read(["index\tpremise\thypothesis\tgold_label", "0\tA.\tB.\tneutral"], "m.txt")
    assert [(e.premise, e.hypothesis, e.label) for e in mixed] == [("A.", "B.", 1)]
    examples, summary = read(["premise,hypothesis,label", "A.,B."], "short.csv")
    assert not examples and summary.bad == 1
    assert "Line 2: 2 cells where the header has 3" in "\n".join(summary.lines())


def test_empty_binary_and_oversize_uploads():
    with pytest.raises(InputError, match="no pairs"):
        read_bytes(b"\n \n", "empty.jsonl", 1000)
    with pytest.raises(InputError, match="not UTF-8 text"):
        read_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe", "picture.jsonl", 1000)
    with pytest.raises(InputError, match="not UTF-8 text"):
        read_bytes(b'{"sentence1": "A\x00"}\n', "nul.jsonl", 1000)
    with pytest.raises(InputError, match="The file has 1001 bytes: at most 1000"):
        read_bytes(b"x" * 1001, "big.jsonl", 1000)
    examples, summary = read_bytes(
        "\ufeffpremise,hypothesis,label\nÉlodie chante.,Quelqu'un chante.,entailment\n".encode(),
        "bom.csv",
        1000,
    )
    assert examples[0].premise == "Élodie chante." and summary.kept == 1


def test_a_file_on_disk_streams_and_undecodable_bytes_are_a_message(tmp_path):
    path = tmp_path / "pairs.jsonl"
    path.write_text(
        "\n".join(json.dumps(SNLI_LINE | {"sentence2": f"Hypothesis {i}."}) for i in range(5))
    )
    examples, summary = read_file(path)
    assert summary.kept == 0  # nothing is read before the examples are asked for
    assert len(list(examples)) == 5 and summary.kept == 5
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("gold_label\tsentence1\tsentence2\nneutral\tCaf\xe9.\tX.\n".encode("latin-1"))
    with pytest.raises(InputError, match=r"not UTF-8 text \(byte 0xe9"):
        examples, _ = read_file(bad)
        list(examples)
