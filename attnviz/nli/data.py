"""Labelled NLI pairs from the files people have: SNLI and MultiNLI JSONL, their tab-separated
`.txt`, and CSV with `premise,hypothesis,label`.

Readers stream: a file of any size (SNLI's training file has 550,000 pairs) is read a line at a
time, and every row that is not kept is counted in the summary: rows labelled `-` (SNLI's "the
annotators did not agree") are skipped as unlabelled, and a bad row (a missing field, an
unknown label, an empty or overlong sentence, a line that is not JSON) is reported by its line
number with what is wrong. Nothing is dropped without being counted.

Labels are attnviz.nli.LABELS, in that order: entailment 0, neutral 1, contradiction 2.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from attnviz.errors import InputError

LABELS: tuple[str, ...] = ("entailment", "neutral", "contradiction")
LABEL_INDEX = {label: index for index, label in enumerate(LABELS)}
# The catalogue keys of the labels' names on the pages (attnviz.strings.nli).
LABEL_KEYS = {
    "entailment": "nli.label.entailment",
    "neutral": "nli.label.neutral",
    "contradiction": "nli.label.contradiction",
}
# The phenomena a pair of the hard set is tagged with, and the catalogue keys of why
# decomposable attention fails each (attnviz.strings.nli).
TAG_KEYS = {
    "word_order": "nli.why.word_order",
    "number": "nli.why.number",
    "quantifier": "nli.why.quantifier",
    "comparison": "nli.why.comparison",
    "negation": "nli.why.negation",
    "temporal": "nli.why.temporal",
    "overlap": "nli.why.overlap",
    "paraphrase": "nli.why.paraphrase",
    "addition": "nli.why.addition",
    "antonym": "nli.why.antonym",
    "world_knowledge": "nli.why.world_knowledge",
    "modality": "nli.why.modality",
    "coreference": "nli.why.coreference",
    "synonym": "nli.why.synonym",
    "hypernym": "nli.why.hypernym",
}
UNLABELLED = "-"  # SNLI / MultiNLI: no gold label (the annotators disagreed)
NO_LABEL = -1  # Example.label of a pair read without a label (labels_optional)
MAX_SENTENCE_CHARS = 10_000
SHOWN_ERRORS = 20  # bad rows kept with their message; the rest are counted
Format = Literal["jsonl", "tsv", "csv"]
# The field names of each format: premise, hypothesis, label.
_JSON_FIELDS = (("sentence1", "sentence2", "gold_label"), ("premise", "hypothesis", "label"))
_TABLE_FIELDS = {
    "tsv": ("sentence1", "sentence2", "gold_label"),
    "csv": ("premise", "hypothesis", "label"),
}
_SHOWN_CHARS = 40


@dataclass(frozen=True)
class Example:
    """One labelled pair; `label` indexes LABELS. A JSONL row may also carry `tags` (the
    phenomena it tests, the hard set's) and `alignment` (hypothesis word -> the premise words it
    corresponds to, none for new material: the hand-marked alignment set's)."""

    premise: str
    hypothesis: str
    label: int  # NO_LABEL for a pair read without one
    tags: tuple[str, ...] = ()
    alignment: tuple[tuple[str, tuple[str, ...]], ...] = ()


def label_index(text: object) -> int | None:
    """The index in LABELS of a label as people write it ("Entailment ", "neutral"), else None."""
    return LABEL_INDEX.get(str(text).strip().lower()) if text is not None else None


def _extras(row: dict[str, object]) -> dict[str, object]:
    """The optional fields of a JSONL row, kept when they have the right shape."""
    extras: dict[str, object] = {}
    tags = row.get("tags")
    if isinstance(tags, list) and all(isinstance(tag, str) for tag in tags):
        extras["tags"] = tuple(tags)
    marks = row.get("alignment")
    if isinstance(marks, dict) and all(
        isinstance(words, list) and all(isinstance(w, str) for w in words)
        for words in marks.values()
    ):
        extras["alignment"] = tuple((str(k), tuple(v)) for k, v in marks.items())
    return extras


@dataclass
class ReadSummary:
    """What a reader did with a file: rows kept per label, unlabelled rows, bad rows."""

    name: str
    format: Format
    rows: int = 0  # non-blank data rows seen (the header is not a row)
    kept: int = 0
    unlabelled: int = 0
    bad: int = 0
    by_label: list[int] = field(default_factory=lambda: [0] * len(LABELS))
    errors: list[tuple[int, InputError]] = field(default_factory=list)  # the first SHOWN_ERRORS

    def reject(self, line: int, error: InputError) -> None:
        self.bad += 1
        if len(self.errors) < SHOWN_ERRORS:
            self.errors.append((line, error))

    def keep(self, example: Example) -> Example:
        self.kept += 1
        if example.label != NO_LABEL:
            self.by_label[example.label] += 1
        return example

    def lines(self) -> list[str]:
        """The summary as text, one line a fact (in the current language)."""
        from attnviz.i18n import t

        counts = ", ".join(f"{label} {n}" for label, n in zip(LABELS, self.by_label, strict=True))
        values = {"name": self.name, "fmt": self.format, "rows": self.rows, "kept": self.kept}
        out = [
            t("nli.read.summary", counts=counts, unlabelled=self.unlabelled, bad=self.bad, **values)
        ]
        out += [t("nli.read.bad_row", line=line, detail=str(err)) for line, err in self.errors]
        if self.bad > len(self.errors):
            out.append(t("nli.read.more_bad", count=self.bad - len(self.errors)))
        return out


def detect_format(name: str, first_line: str) -> Format:
    """The format from the file name's ending, else from its first line."""
    suffix = Path(name).suffix.lower()
    if suffix in (".jsonl", ".json"):
        return "jsonl"
    if suffix in (".txt", ".tsv"):
        return "tsv"
    if suffix == ".csv":
        return "csv"
    stripped = first_line.lstrip("\ufeff").lstrip()
    if stripped.startswith("{"):
        return "jsonl"
    return "tsv" if "\t" in first_line else "csv"


def _shown(text: str) -> str:
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 1] + "…"


def _example(
    cells: tuple[object, object, object],
    names: tuple[str, str, str],
    line: int,
    summary: ReadSummary,
    extras: dict[str, object] | None = None,
    labels_optional: bool = False,
) -> Example | None:
    """A kept example from (premise, hypothesis, label) in the file's fields `names`, or None
    with the row counted as unlabelled or bad. With `labels_optional`, a missing or empty label
    reads as NO_LABEL."""
    premise, hypothesis, label = cells
    text_label = str(label).strip().lower() if label is not None else ""
    if text_label == UNLABELLED:
        summary.unlabelled += 1
        return None
    index = NO_LABEL if labels_optional and not text_label else label_index(label)
    if index is None:
        error = InputError("nli_label", value=_shown(str(label)), labels=", ".join(LABELS))
        summary.reject(line, error)
        return None
    sides = []
    for value, which in ((premise, names[0]), (hypothesis, names[1])):
        text = "" if value is None else str(value).strip()
        if not text:
            summary.reject(line, InputError("nli_empty", field=which))
            return None
        if len(text) > MAX_SENTENCE_CHARS:
            error = InputError(
                "nli_too_long", field=which, found=len(text), limit=MAX_SENTENCE_CHARS
            )
            summary.reject(line, error)
            return None
        sides.append(text)
    extras = extras or {}
    return summary.keep(Example(sides[0], sides[1], index, **extras))  # type: ignore[arg-type]


def _jsonl(
    lines: Iterable[tuple[int, str]], summary: ReadSummary, labels_optional: bool = False
) -> Iterator[Example]:
    for number, line in lines:
        summary.rows += 1
        try:
            row = json.loads(line)
        except json.JSONDecodeError as err:
            summary.reject(number, InputError("nli_json", detail=err.msg))
            continue
        if not isinstance(row, dict):
            summary.reject(number, InputError("nli_json", detail="not an object"))
            continue
        names = next((f for f in _JSON_FIELDS if f[0] in row or f[1] in row), _JSON_FIELDS[0])
        needed = names[:2] if labels_optional else names
        missing = [name for name in needed if name not in row]
        if missing:
            summary.reject(number, InputError("nli_missing", fields=", ".join(missing)))
            continue
        cells = (row[names[0]], row[names[1]], row.get(names[2]))
        example = _example(cells, names, number, summary, _extras(row), labels_optional)
        if example is not None:
            yield example


def _columns(
    header: list[str], fmt: Format, labels_optional: bool
) -> tuple[tuple[str, str, str], list[int]]:
    """The field names a header uses and their positions: each field by SNLI's name
    (sentence1, sentence2, gold_label) or the plain one (premise, hypothesis, label); the
    label's position is -1 when it has none and labels are optional."""
    names, where = [], []
    for column, (snli, plain) in enumerate(zip(_TABLE_FIELDS["tsv"], _TABLE_FIELDS["csv"],
                                              strict=True)):  # fmt: skip
        found = next((name for name in (snli, plain) if name in header), None)
        if found is None and not (labels_optional and column == 2):
            wanted = _TABLE_FIELDS[fmt]
            shown = ", ".join(_shown(name) for name in header[:12])
            raise InputError("nli_columns", fields=", ".join(wanted), found=shown)
        names.append(found or _TABLE_FIELDS[fmt][column])
        where.append(header.index(found) if found else -1)
    return (names[0], names[1], names[2]), where


def _table(
    lines: Iterable[tuple[int, str]],
    summary: ReadSummary,
    fmt: Format,
    labels_optional: bool = False,
) -> Iterator[Example]:
    """Tab-separated (SNLI / MultiNLI .txt, no quoting) or comma-separated with a header."""
    numbered = iter(lines)
    header_line = next(numbered, None)
    if header_line is None:
        return

    def split(text: str) -> list[str]:
        return text.split("\t") if fmt == "tsv" else next(csv.reader([text]))

    try:
        header = [name.strip().lower() for name in split(header_line[1])]
    except csv.Error as err:
        raise InputError("nli_row", detail=f"header: {err}") from None
    wanted, where = _columns(header, fmt, labels_optional)
    for number, line in numbered:
        summary.rows += 1
        try:
            cells = split(line)
        except csv.Error as err:
            summary.reject(number, InputError("nli_row", detail=str(err)))
            continue
        if len(cells) <= max(where):
            summary.reject(number, InputError("nli_cells", found=len(cells), expected=len(header)))
            continue
        label = cells[where[2]] if where[2] >= 0 else None
        example = _example(
            (cells[where[0]], cells[where[1]], label), wanted, number, summary, None,
            labels_optional,
        )  # fmt: skip
        if example is not None:
            yield example


def _lines(stream: io.TextIOBase | Iterable[str]) -> Iterator[tuple[int, str]]:
    """(line number, text) of the non-blank lines, newlines removed; 1-based numbers."""
    for number, line in enumerate(stream, start=1):
        if "\x00" in line:
            raise InputError("csv_not_text", byte="0x00", position=f"line {number}")
        text = line.rstrip("\r\n")
        if text.strip():
            yield number, text.lstrip("\ufeff") if number == 1 else text


def read_examples(
    stream: io.TextIOBase | Iterable[str],
    name: str,
    fmt: Format | None = None,
    *,
    labels_optional: bool = False,
) -> tuple[Iterator[Example], ReadSummary]:
    """The examples of a text stream (lazily) and the summary they fill as they are read.

    CSV rows must each be one line (quoted fields with line breaks are not read as such). With
    `labels_optional`, a file without a label column, or a row without a label, gives pairs
    labelled NO_LABEL. InputError for a file that is not text or whose header lacks the
    format's columns.
    """
    lines = _lines(stream)
    first = next(lines, None)
    if first is None:
        raise InputError("pairs_empty")
    chosen = fmt or detect_format(name, first[1])
    summary = ReadSummary(name, chosen)

    def chained() -> Iterator[tuple[int, str]]:
        yield first
        yield from lines

    if chosen == "jsonl":
        return _jsonl(chained(), summary, labels_optional), summary
    return _table(chained(), summary, chosen, labels_optional), summary


def read_file(path: str | Path, fmt: Format | None = None) -> tuple[Iterator[Example], ReadSummary]:
    """Stream a file from disk (UTF-8, a BOM allowed): `read_examples` on its lines."""
    path = Path(path)
    stream = path.open(encoding="utf-8-sig", errors="strict", newline="")
    examples, summary = read_examples(_decoded(stream, path.name), path.name, fmt)
    return examples, summary


def _decoded(stream: io.TextIOBase, name: str) -> Iterator[str]:
    """The stream's lines; an InputError (not a traceback) where it is not UTF-8."""
    with stream:
        try:
            yield from stream
        except UnicodeDecodeError as err:
            byte = f"0x{err.object[err.start]:02x}"
            raise InputError("csv_not_text", byte=byte, position=err.start) from None


def upload_text(data: bytes, max_bytes: int) -> io.StringIO:
    """An uploaded file's text (at most `max_bytes`, UTF-8, a BOM allowed), as a stream."""
    if len(data) > max_bytes:
        raise InputError("file_too_big", found=len(data), limit=max_bytes)
    try:
        return io.StringIO(data.decode("utf-8-sig"), newline="")
    except UnicodeDecodeError as err:
        byte = f"0x{data[err.start]:02x}"
        raise InputError("csv_not_text", byte=byte, position=err.start) from None


def read_bytes(
    data: bytes, name: str, max_bytes: int, fmt: Format | None = None
) -> tuple[list[Example], ReadSummary]:
    """All examples of an uploaded file (at most `max_bytes`), read at once."""
    examples, summary = read_examples(upload_text(data, max_bytes), name, fmt)
    return list(examples), summary
