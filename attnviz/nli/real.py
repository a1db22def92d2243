"""Human-written NLI pairs (SNLI, Bowman et al. 2015; MultiNLI, Williams et al. 2018) that a
person downloads: the manifest, each file's own format, the overlap checks and the splits the
shipped checkpoint is trained on.

The repository holds no sentence of these sets. `data/nli/real_sources.json`, the manifest,
names each file's repository, path, commit, SHA-256, size and licence, how it is read and what
it is used for. `load(folder)` checks every file of the folder against it (a file that is
missing or differs is named, with where to download it) and returns the three splits:

- `test`: SNLI's test set, scored once, for the card; never trained on, never used to choose;
- `select`: a tenth of the premises of SNLI's dev set and of MultiNLI's matched dev set, chosen
  by a hash of the premise, with every pair of each: the epoch, the settings and the
  temperature are chosen on it;
- `train`: every other pair, after dropping those found in `test` or `select` and repeats.

Texts are compared normalised (lower case, letters and digits only): no pair of SNLI's test set
is in anything trained on, no premise is in both the training and the selection split, no pair
is trained on twice. Nothing here imports torch.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from attnviz import paths
from attnviz.errors import InputError
from attnviz.nli.data import LABELS, UNLABELLED, label_index

MANIFEST = paths.DATA / "nli" / "real_sources.json"
FORMAT = "attnviz-nli-sources/1"
USES = ("train", "train_select", "test")  # train_select: a tenth of its premises select
SELECT_SHARE = 10  # one premise in this many of a train_select set goes to the selection split
MAX_FILE_BYTES = 64_000_000
_SOURCE_URL = "https://raw.githubusercontent.com/{repository}/{commit}/{path}"
# e-SNLI's lines are tokenised ("packages ." , "`` Camden ''"): undone before training.
_DETOKENISE = (
    (re.compile(r" ([.,!?;:%)\]}])"), r"\1"),
    (re.compile(r"([(\[{$#]) "), r"\1"),
    (re.compile(r"`` ?"), '"'),
    (re.compile(r" ?''"), '"'),
    (re.compile(r" (n't|'s|'re|'ve|'m|'ll|'d|')(?=\W|$)", re.IGNORECASE), r"\1"),
)


def normalised(text: str) -> str:
    """Lower case, letters and digits only: the text overlaps are checked on."""
    return re.sub(r"[^0-9a-z]", "", text.lower())


def detokenise(text: str) -> str:
    """e-SNLI's tokenised line as SNLI's raw text ("packages ." -> "packages.")."""
    text = text.strip()
    for pattern, replacement in _DETOKENISE:
        text = pattern.sub(replacement, text)
    return text


@dataclass(frozen=True)
class SourceFile:
    """One downloaded file: where it comes from and what it must hash to."""

    file: str  # its name in the folder
    repository: str
    path: str
    commit: str
    sha256: str
    bytes: int

    @property
    def url(self) -> str:
        return _SOURCE_URL.format(repository=self.repository, commit=self.commit, path=self.path)


@dataclass(frozen=True)
class SourceSet:
    """A set of pairs read from one file (or e-SNLI's three parallel files)."""

    name: str
    corpus: str  # "snli" or "mnli"
    use: str  # one of USES
    licence: str
    reader: dict[str, Any]
    files: tuple[SourceFile, ...]
    pairs: int  # labelled pairs the reader keeps from the files
    conversion: str


@dataclass(frozen=True)
class Pair:
    """A labelled pair of a real set; `label` indexes LABELS."""

    premise: str
    hypothesis: str
    label: int
    corpus: str
    source: str  # the set's name


@dataclass
class Splits:
    """The three splits, and per set what was read, kept and dropped (and why)."""

    train: list[Pair] = field(default_factory=list)
    select: list[Pair] = field(default_factory=list)
    test: list[Pair] = field(default_factory=list)
    counts: dict[str, dict[str, int]] = field(default_factory=dict)


def read_manifest(path: Path = MANIFEST) -> list[SourceSet]:
    """The manifest's sets; an InputError for a manifest of another format."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise InputError("nli_real_manifest", path=str(path), detail=str(err)[:200]) from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise InputError("nli_real_manifest", path=str(path), detail=f"format is not {FORMAT}")
    sets = []
    for entry in raw["sets"]:
        if entry["use"] not in USES:
            raise InputError("nli_real_manifest", path=str(path), detail=f"use {entry['use']!r}")
        files = tuple(SourceFile(**item) for item in entry["files"])
        fields = {k: entry[k] for k in ("name", "corpus", "use", "licence", "reader", "pairs")}
        sets.append(SourceSet(**fields, files=files, conversion=entry["conversion"]))
    return sets


def verify(folder: Path, sets: list[SourceSet]) -> None:
    """Every file of the manifest is in `folder` with its SHA-256, else an InputError naming
    the first that is missing or differs (and where to download it)."""
    from attnviz.nli.checkpoint import sha256_of  # (torch; the rest of this module is light)

    if not folder.is_dir():
        raise InputError("nli_real_folder", path=str(folder))
    for source in sets:
        for item in source.files:
            path = folder / item.file
            if not path.is_file():
                raise InputError("nli_real_missing", file=item.file, url=item.url)
            found = sha256_of(path)
            if found != item.sha256:
                raise InputError(
                    "nli_real_checksum", file=item.file, expected=item.sha256[:16],
                    found=found[:16], url=item.url,
                )  # fmt: skip


def _lines(path: Path) -> list[str]:
    if path.stat().st_size > MAX_FILE_BYTES:
        raise InputError("file_too_big", found=path.stat().st_size, limit=MAX_FILE_BYTES)
    return path.read_text(encoding="utf-8-sig").splitlines()


def _parallel(folder: Path, source: SourceSet) -> Iterator[tuple[str, str, str]]:
    """e-SNLI's parallel files: premises, hypotheses, labels, one pair a line."""
    premises, hypotheses, labels = (_lines(folder / item.file) for item in source.files)
    if not len(premises) == len(hypotheses) == len(labels):
        raise InputError("nli_real_parallel", name=source.name)
    tidy = detokenise if source.reader.get("detokenise") else str.strip
    for premise, hypothesis, label in zip(premises, hypotheses, labels, strict=True):
        yield tidy(premise), tidy(hypothesis), label


def _table(folder: Path, source: SourceSet) -> Iterator[tuple[str, str, str] | None]:
    """A CSV or TSV file: the columns by header name or by index, labels mapped, rows kept
    only where the manifest's `keep` column holds one of its values."""
    reader = source.reader
    lines = _lines(folder / source.files[0].file)
    if reader.get("quoting") == "none":
        rows = csv.reader(lines, delimiter=reader["delimiter"], quoting=csv.QUOTE_NONE)
    else:
        rows = csv.reader(lines, delimiter=reader["delimiter"])
    header = [name.strip() for name in next(rows)] if reader.get("header", True) else []

    def column(name: str | int) -> int:
        if isinstance(name, int):
            return name
        if name not in header:
            raise InputError("nli_columns", fields=name, found=", ".join(header[:12]))
        return header.index(name)

    where = {key: column(name) for key, name in reader["columns"].items()}
    filters = [(column(name), set(values)) for name, values in reader.get("keep", {}).items()]
    mapping: dict[str, str] = reader.get("labels", {})
    for row in rows:
        if len(row) <= max(where.values(), default=0):
            yield "", "", ""  # counted as a bad row
        elif any(row[at].strip() not in values for at, values in filters):
            yield None  # left out by the manifest's choice (MultiNLI's other genres)
        else:
            label = row[where["label"]].strip()
            premise, hypothesis = row[where["premise"]].strip(), row[where["hypothesis"]].strip()
            yield premise, hypothesis, mapping.get(label, label)


def read_set(folder: Path, source: SourceSet) -> tuple[list[Pair], dict[str, int]]:
    """A set's labelled pairs and its counts (rows read, left out by the manifest's `keep`,
    unlabelled, unreadable)."""
    rows = _parallel if source.reader["kind"] == "parallel" else _table
    pairs, counts = [], {"rows": 0, "left_out": 0, "unlabelled": 0, "bad": 0}
    for row in rows(folder, source):
        counts["rows"] += 1
        if row is None:
            counts["left_out"] += 1
            continue
        premise, hypothesis, label = row
        index = label_index(label)
        if label.strip() == UNLABELLED:
            counts["unlabelled"] += 1
        elif index is None or not premise or not hypothesis:
            counts["bad"] += 1
        else:
            pairs.append(Pair(premise, hypothesis, index, source.corpus, source.name))
    return pairs, counts


def selected(premise: str) -> bool:
    """Whether a train_select set's premise goes to the selection split (a stable hash)."""
    digest = hashlib.sha256(normalised(premise).encode()).digest()
    return int.from_bytes(digest[:4], "little") % SELECT_SHARE == 0


def _key(pair: Pair) -> tuple[str, str]:
    return normalised(pair.premise), normalised(pair.hypothesis)


def split(read: dict[str, tuple[SourceSet, list[Pair]]]) -> Splits:
    """The test, selection and training splits of the sets read, with the overlaps dropped."""
    splits = Splits()
    for source, pairs in read.values():
        if source.use == "test":
            splits.test += pairs
        elif source.use == "train_select":
            splits.select += [p for p in pairs if selected(p.premise)]
    test_pairs = {_key(p) for p in splits.test}
    test_premises = {normalised(p.premise) for p in splits.test}
    splits.select = [p for p in splits.select if _key(p) not in test_pairs]
    select_premises = {normalised(p.premise) for p in splits.select}
    seen: set[tuple[str, str]] = set()
    for name, (source, pairs) in read.items():
        counts = splits.counts.setdefault(name, {})
        counts.update(kept=0, in_test=0, in_select=0, repeated=0)
        if source.use == "test":
            counts["kept"] = len(pairs)
            continue
        for pair in pairs:
            key = _key(pair)
            if key in test_pairs or key[0] in test_premises:
                counts["in_test"] += 1
            elif key[0] in select_premises:
                counts["in_select"] += 1
            elif key in seen:
                counts["repeated"] += 1
            else:
                seen.add(key)
                splits.train.append(pair)
                counts["kept"] += 1
    return splits


def load(folder: Path, manifest: Path = MANIFEST) -> Splits:
    """The real splits from a folder of downloaded files, checked against the manifest."""
    sets = read_manifest(manifest)
    verify(folder, sets)
    read: dict[str, tuple[SourceSet, list[Pair]]] = {}
    counts: dict[str, dict[str, int]] = {}
    for source in sets:
        pairs, counts[source.name] = read_set(folder, source)
        if len(pairs) != source.pairs:
            raise InputError(
                "nli_real_count", name=source.name, found=len(pairs), expected=source.pairs
            )
        read[source.name] = (source, pairs)
    splits = split(read)
    for name, extra in counts.items():
        splits.counts[name] = {**extra, **splits.counts[name]}
    return splits


def by_label(pairs: list[Pair]) -> dict[str, int]:
    return {label: sum(p.label == i for p in pairs) for i, label in enumerate(LABELS)}
