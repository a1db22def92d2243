"""The real NLI files' manifest and readers, the overlap checks and the splits, and
`train-nli --real` on a tiny folder made here in the manifest's formats (the real files are
never needed: CI has none)."""

from __future__ import annotations

import csv
import hashlib
import json
import re
from pathlib import Path

import pytest
import torch

from attnviz.errors import InputError
from attnviz.nli import checkpoint, cli, real
from attnviz.nli.data import LABELS
from tests.test_nli_train import TINY

# Pairs written here, in four formats: e-SNLI's tokenised parallel lines, SNLI test's CSV, a
# headerless TSV with numeric labels, a TSV with a genre column.
SCENES = [
    *TINY,
    ('A boy says "hi" to the dog\'s owner.', "A boy greets someone.", "entailment"),
    ("Three women don't smile at the camera.", "The women are frowning.", "neutral"),
]
TEST = [("A chef is cutting onions.", "Someone is cooking.", "entailment")]
NUMBERS = {"neutral": "1", "contradiction": "2", "entailment": "3"}


def tokenised(text: str) -> str:
    """e-SNLI's way of writing a sentence: punctuation and clitics split off, `` '' quotes."""
    text = re.sub(r'"(.*?)"', r"`` \1 ''", text)
    text = re.sub(r"(n't|'s)\b", r" \1", text)
    return re.sub(r"([.,!?])", r" \1", text) + " "


def write_folder(folder: Path) -> Path:
    """The tiny folder and a manifest for it; the manifest's path."""
    folder.mkdir(parents=True, exist_ok=True)
    dev = [*SCENES[:4], SCENES[6], SCENES[7]]
    (folder / "s1.dev").write_text("".join(tokenised(p) + "\n" for p, _, _ in dev))
    (folder / "s2.dev").write_text("".join(tokenised(h) + "\n" for _, h, _ in dev))
    (folder / "labels.dev").write_text("".join(g + "\n" for _, _, g in dev))
    with (folder / "test.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["gold_label", "sentence1", "sentence2"])
        writer.writerows([(g, p, h) for p, h, g in TEST])
    # training rows: two new scenes, a repeat of one, SNLI test's pair, an unlabelled row
    rows = [*SCENES[4:6], SCENES[4], (TEST[0][0], TEST[0][1], "entailment")]
    lines = [f"{NUMBERS[g]}\t{NUMBERS[g]}\t{p}\t{h}" for p, h, g in rows] + ["-\t-\tA.\tB."]
    (folder / "train.tsv").write_text("\n".join(lines) + "\n")
    genres = "prem\thyp\tlabel\tgenre\nA cat sits.\tAn animal sits.\tentailment\tfiction\n"
    genres += "A cat sits.\tA dog runs.\tcontradiction\tletters\n"
    (folder / "genres.tsv").write_text(genres)
    return write_manifest(folder)


def _file(folder: Path, name: str) -> dict[str, object]:
    data = (folder / name).read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    return {"file": name, "repository": "someone/somewhere", "path": f"data/{name}",
            "commit": "0" * 40, "sha256": digest, "bytes": len(data)}  # fmt: skip


def write_manifest(folder: Path) -> Path:
    tsv = {"kind": "table", "delimiter": "\t", "quoting": "none"}
    sets = [
        {"name": "snli_test", "corpus": "snli", "use": "test",
         "reader": {"kind": "table", "delimiter": ",", "columns": {
             "premise": "sentence1", "hypothesis": "sentence2", "label": "gold_label"}},
         "files": [_file(folder, "test.csv")], "pairs": 1},
        {"name": "snli_dev", "corpus": "snli", "use": "train_select",
         "reader": {"kind": "parallel", "detokenise": True},
         "files": [_file(folder, n) for n in ("s1.dev", "s2.dev", "labels.dev")], "pairs": 6},
        {"name": "snli_train", "corpus": "snli", "use": "train",
         "reader": {**tsv, "header": False, "columns": {"label": 0, "premise": 2,
                    "hypothesis": 3}, "labels": {"1": "neutral", "2": "contradiction",
                    "3": "entailment"}},
         "files": [_file(folder, "train.tsv")], "pairs": 4},
        {"name": "mnli_train", "corpus": "mnli", "use": "train",
         "reader": {**tsv, "columns": {"premise": "prem", "hypothesis": "hyp", "label": "label"},
                    "keep": {"genre": ["fiction"]}},
         "files": [_file(folder, "genres.tsv")], "pairs": 1},
    ]  # fmt: skip
    for entry in sets:
        entry |= {"licence": "CC0", "conversion": "made by the test"}
    path = folder / "manifest.json"
    path.write_text(json.dumps({"format": real.FORMAT, "sets": sets}))
    return path


def test_the_shipped_manifest_names_every_file_and_holds_no_sentence():
    sets = real.read_manifest()
    uses = {s.name: s.use for s in sets}
    assert uses["snli_test"] == "test" and uses["snli_dev"] == uses["mnli_dev_matched"]
    assert sum(s.pairs for s in sets if s.use != "test") > 40_000
    for source in sets:
        for item in source.files:
            assert re.fullmatch(r"[0-9a-f]{40}", item.commit) and len(item.sha256) == 64
            assert (
                item.url.startswith("https://raw.githubusercontent.com/") and item.bytes < 4 << 20
            )
    taxi = next(s for s in sets if s.name == "mnli_train_taxinli")
    # MultiNLI's mismatched genres are never read
    assert sorted(taxi.reader["keep"]["genre"]) == [
        "fiction", "government", "slate", "telephone", "travel",
    ]  # fmt: skip
    text = real.MANIFEST.read_text()
    assert "A person on a horse" not in text and len(text) < 20_000


def test_detokenise_undoes_esnli_tokens():
    for premise, hypothesis, _ in SCENES:
        assert real.detokenise(tokenised(premise)) == premise
        assert real.detokenise(tokenised(hypothesis)) == hypothesis


def test_each_format_is_read(tmp_path):
    manifest = write_folder(tmp_path)
    sets = {s.name: s for s in real.read_manifest(manifest)}
    dev, counts = real.read_set(tmp_path, sets["snli_dev"])
    assert [(p.premise, p.hypothesis, LABELS[p.label]) for p in dev][:4] == SCENES[:4]
    assert dev[4].premise == SCENES[6][0]  # `` '' quotes and 's restored
    train, counts = real.read_set(tmp_path, sets["snli_train"])
    assert [LABELS[p.label] for p in train] == ["contradiction", "neutral", "contradiction",
                                                "entailment"]  # fmt: skip
    assert counts["unlabelled"] == 1
    genres, counts = real.read_set(tmp_path, sets["mnli_train"])
    assert len(genres) == 1 and counts["left_out"] == 1 and genres[0].corpus == "mnli"
    test, _ = real.read_set(tmp_path, sets["snli_test"])
    assert (test[0].premise, test[0].hypothesis) == TEST[0][:2]


def test_splits_keep_test_and_selection_out_of_training(tmp_path, monkeypatch):
    manifest = write_folder(tmp_path)
    # the first scene's premise selects: its pairs leave training
    monkeypatch.setattr(real, "selected", lambda premise: premise == SCENES[0][0])
    splits = real.load(tmp_path, manifest)
    key = real.normalised
    trained = {(key(p.premise), key(p.hypothesis)) for p in splits.train}
    assert (key(TEST[0][0]), key(TEST[0][1])) not in trained
    assert {key(p.premise) for p in splits.select} == {key(SCENES[0][0])}
    assert not {key(p.premise) for p in splits.train} & {key(p.premise) for p in splits.select}
    assert len(trained) == len(splits.train)  # no pair twice
    assert splits.counts["snli_train"]["in_test"] == 1
    assert splits.counts["snli_train"]["repeated"] == 1
    assert splits.counts["snli_dev"]["in_select"] == 2


def test_a_file_that_differs_or_is_missing_is_named(tmp_path):
    manifest = write_folder(tmp_path)
    with (tmp_path / "s2.dev").open("a") as handle:
        handle.write("one more line\n")
    with pytest.raises(InputError) as found:
        real.load(tmp_path, manifest)
    assert found.value.key == "nli_real_checksum" and found.value.values["file"] == "s2.dev"
    assert "someone/somewhere" in str(found.value)
    (tmp_path / "s2.dev").unlink()
    with pytest.raises(InputError, match=r"s2\.dev is not in the folder"):
        real.load(tmp_path, manifest)
    with pytest.raises(InputError, match="no folder"):
        real.load(tmp_path / "nowhere", manifest)


def test_train_nli_real_on_a_tiny_folder_writes_a_checkpoint_with_tuned_layers(
    tmp_path, encoder, monkeypatch
):
    manifest = write_folder(tmp_path / "data")
    monkeypatch.setattr(real, "selected", lambda premise: premise == SCENES[2][0])
    out = tmp_path / "model" / "tiny.safetensors"
    argv = ["--real", str(tmp_path / "data"), "--manifest", str(manifest), "--out", str(out),
            "--layers", "1", "--max-steps", "2", "--hidden", "8", "--no-baseline", "--attend",
            "minilm", "--enhanced", "--pooled"]  # fmt: skip
    assert cli.main(argv) == 0
    layers = out.with_name("tiny.layers.safetensors")
    assert layers.is_file() and layers.stat().st_size < 4_000_000  # one MiniLM layer, float16
    loaded = checkpoint.load_classifier(out, encoder=encoder)
    assert loaded.card.source == "tuned" and loaded.card.real is not None
    assert loaded.card.real.snli_test.pairs == 1 and loaded.card.fitted_on == "select"
    assert loaded.card.attend == "minilm" and loaded.plain is not None and loaded.card.enhanced
    probabilities = loaded.predict([SCENES[0][:2], SCENES[2][:2]])
    torch.testing.assert_close(probabilities.sum(-1), torch.ones(2))
    card = json.loads(out.with_suffix(".json").read_text())
    assert SCENES[0][0] not in json.dumps(card)  # no sentence of the real sets on the card
    layers.write_bytes(layers.read_bytes()[:-8] + b"\0" * 8)
    with pytest.raises(InputError, match="tuned layers"):
        checkpoint.load_classifier(out, encoder=encoder)


def test_own_pairs_never_overwrite_the_shipped_checkpoint(tmp_path):
    argv = ["--data", str(tmp_path / "x.jsonl"), "--out", str(checkpoint.DEFAULT_CHECKPOINT)]
    assert cli.main(argv) == 2
    assert cli.own_out() != checkpoint.DEFAULT_CHECKPOINT
