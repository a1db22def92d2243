"""Training the NLI classifier and its checkpoints: tiny fits, seeds, round trips, refusals, the
command line, and SNLI-sized files within the stated memory budget."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

from attnviz import nli
from attnviz.errors import InputError
from attnviz.nli import checkpoint as nli_checkpoint
from attnviz.nli import store as nli_store
from attnviz.nli import training as nli_training
from attnviz.nli.data import read_examples
from attnviz.nli.store import PairSet, SentenceStore, gather
from attnviz.nli.training import TrainConfig, train

ROOT = Path(__file__).resolve().parent.parent
TRAIN = nli_checkpoint.DATA_DIR / "train.jsonl"
TINY = [
    ("A man is sleeping on a bench in the park.", "A man is asleep outside.", "entailment"),
    ("A man is sleeping on a bench in the park.", "A man is running a race.", "contradiction"),
    ("Two girls paint a fence red.", "The girls are sisters.", "neutral"),
    ("Two girls paint a fence red.", "Two children are painting.", "entailment"),
    ("The shop on the corner closed at noon.", "The shop stayed open all night.", "contradiction"),
    ("The shop on the corner closed at noon.", "The owner went to lunch.", "neutral"),
]


def pairs_of(store: SentenceStore, rows=TINY) -> PairSet:
    lines = [json.dumps({"sentence1": p, "sentence2": h, "gold_label": g}) for p, h, g in rows]
    examples, summary = read_examples(lines, "tiny.jsonl")
    return gather(examples, summary, store)


def test_a_tiny_set_is_fitted_to_every_pair(encoder):
    store = SentenceStore(encoder, "static", None)
    tiny = pairs_of(store)
    config = TrainConfig(hidden=32, dropout=0.0, epochs=60, batch_size=6, lr=3e-3, scale="sqrt_d")
    model, history = train(config, tiny, store)
    assert nli_training.accuracy(nli_training.predict(model, tiny, store), tiny) == 1.0
    assert history.loss[-1] < 0.05 < history.loss[0]


def test_contextual_store_holds_the_layer_the_classifier_reads(encoder):
    store = SentenceStore(encoder, "contextual", 2)
    tiny = pairs_of(store)
    store.encode(None, 10**9, None)
    rows, lens = store.batch([tiny.premises[0]])
    enc = encoder.encode_batch([TINY[0][0]])[0]
    # float16 in the store; a batch of six pads differently from one sentence alone
    torch.testing.assert_close(rows[0], enc.hidden_states[2][1:-1], rtol=2e-3, atol=2e-3)
    static = SentenceStore(encoder, "static", None)
    pairs_of(static)
    rows, lens = static.batch([0, 1])
    _, expected, expected_lens = nli.sentence_embeddings(
        encoder, [TINY[0][0], TINY[0][1]], source="static"
    )
    torch.testing.assert_close(rows, expected)
    assert lens.tolist() == expected_lens.tolist()


@pytest.fixture(scope="module")
def shipped(encoder):
    store = SentenceStore(encoder, "static", None)
    return store, nli_store.read_pairs(TRAIN, store)


def test_the_loss_falls_on_the_shipped_set_and_a_seed_repeats(shipped):
    store, pairs = shipped
    config = TrainConfig(hidden=32, epochs=1, max_steps=10, seed=3)
    first, _ = train(config, pairs, store)
    again, _ = train(config, pairs, store)
    for name, value in first.state_dict().items():
        assert torch.equal(value, again.state_dict()[name]), name
    other, _ = train(TrainConfig(hidden=32, epochs=1, max_steps=10, seed=4), pairs, store)
    assert not torch.equal(first.out.weight, other.out.weight)
    config = TrainConfig(hidden=64, dropout=0.0, epochs=2, batch_size=16, lr=3e-3, scale="sqrt_d")
    _, history = train(config, pairs, store)  # measured: loss 1.103, 1.046; accuracy .32, .45
    assert history.loss[1] < history.loss[0] - 0.03, history.loss
    assert history.train_accuracy[1] > history.train_accuracy[0] + 0.05, history
    assert len(pairs) == 7512 and pairs.source_file["by_label"] == {
        "entailment": 2504,
        "neutral": 2504,
        "contradiction": 2504,
    }


def test_an_epoch_cut_by_max_steps_averages_over_the_pairs_it_saw(shipped):
    """10 pairs in batches of 4, 4 steps: the second epoch sees 4 pairs. With lr 0 the model
    never changes, so both epochs' mean losses are means of the same per-pair losses (about
    ln 3 at the start): dividing the second's 4 losses by 10 pairs gave 0.44."""
    store, pairs = shipped
    few = PairSet(pairs.premises[:10], pairs.hypotheses[:10], pairs.labels[:10])
    config = TrainConfig(hidden=32, dropout=0.0, lr=0.0, epochs=2, batch_size=4, max_steps=4)
    _, history = train(config, few, store)
    assert len(history.loss) == 2
    assert history.loss[1] == pytest.approx(history.loss[0], abs=0.15), history.loss
    assert 0 <= history.train_accuracy[1] * 4 == round(history.train_accuracy[1] * 4)


def checkpoint(encoder, store, tmp_path, card_changes=None) -> Path:
    tiny = pairs_of(store)
    model, history = train(TrainConfig(hidden=8, epochs=2, batch_size=3), tiny, store)
    made = nli_training.card(TrainConfig(hidden=8), encoder, history, {}, None)
    path = tmp_path / "tiny.safetensors"
    nli_checkpoint.save(model, made | (card_changes or {}), path)
    return path


def test_a_checkpoint_round_trip_gives_identical_probabilities(encoder, tmp_path):
    store = SentenceStore(encoder, "static", None)
    tiny = pairs_of(store)
    model, history = train(TrainConfig(hidden=8, epochs=2, batch_size=3), tiny, store)
    path = tmp_path / "model.safetensors"
    nli_checkpoint.save(
        model, nli_training.card(TrainConfig(hidden=8), encoder, history, {}, None), path
    )
    assert path.read_bytes()[:8] != b"\x80\x04\x95"[:8]  # safetensors, not a pickle
    loaded = nli.load_classifier(path, encoder=encoder)
    texts = [(p, h) for p, h, _ in TINY]
    expected = nli_training.predict(model, tiny, store)
    assert torch.equal(loaded.predict(texts), expected)
    weights, card = nli_checkpoint.to_bytes(model, loaded.card.raw)
    uploaded = nli_checkpoint.classifier_from_bytes(weights, card, encoder)
    assert torch.equal(uploaded.predict(texts), expected)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "something-else/2"}, "not an attnviz NLI checkpoint"),
        ({"encoder": {"fingerprint": "30522x384-0000000000000000"}}, "another encoder"),
        ({"sizes": {"d": 768, "hidden": 8}}, "embeddings of size 768"),
        ({"sizes": {"d": 384, "hidden": 9}}, "weights do not fit its card"),
        ({"labels": ["yes", "no", "maybe"]}, "card cannot be read"),
    ],
)
def test_a_checkpoint_for_something_else_is_refused(encoder, tmp_path, change, message):
    store = SentenceStore(encoder, "static", None)
    path = checkpoint(encoder, store, tmp_path, change)
    with pytest.raises(InputError, match=message):
        nli.load_classifier(path, encoder=encoder)


def test_only_safetensors_and_json_are_read(encoder, tmp_path):
    pickle = tmp_path / "model.pt"
    torch.save({"w": torch.zeros(2)}, pickle)
    with pytest.raises(InputError, match="safetensors"):
        nli.load_classifier(pickle, encoder=encoder)
    with pytest.raises(InputError, match="No checkpoint"):
        nli.load_classifier(tmp_path / "absent.safetensors", encoder=encoder)
    store = SentenceStore(encoder, "static", None)
    path = checkpoint(encoder, store, tmp_path)
    nli_checkpoint.card_path(path).write_bytes(b"\x80\x04\x95 not json")
    with pytest.raises(InputError, match="card cannot be read"):
        nli.load_classifier(path, encoder=encoder)
    path = checkpoint(encoder, store, tmp_path)
    path.write_bytes(b"\x80\x04\x95 a pickle, not safetensors")
    with pytest.raises(InputError, match="weights do not fit"):
        nli.load_classifier(path, encoder=encoder)


def test_wilson_interval_and_confusion():
    low, high = nli_checkpoint.wilson(81, 100)
    assert (round(low, 4), round(high, 4)) == (0.7222, 0.8749)  # Wilson (1927), z = 1.96
    table = nli_checkpoint.confusion(torch.tensor([0, 0, 1, 2, 2]), torch.tensor([0, 2, 1, 2, 0]))
    assert table == [[1, 0, 1], [0, 1, 0], [1, 0, 1]]


def test_the_command_line_trains_scores_and_writes_a_card(tmp_path):
    data = tmp_path / "pairs.csv"
    data.write_text(
        "premise,hypothesis,label\n"
        + "\n".join(f'"{p}","{h}",{g}' for p, h, g in TINY)
        + '\n"A row without a label.","It is skipped?",-\n"A bad row.","Bad.",maybe\n'
    )
    out = tmp_path / "cli.safetensors"
    command = [
        sys.executable, "-m", "attnviz.nli.cli", "--data", str(data), "--dev", str(data),
        "--test", str(data), "--hidden", "16", "--epochs", "3", "--batch-size", "3",
        "--baseline", "--out", str(out),
    ]  # fmt: skip
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "6 kept" in run.stderr and "1 without a gold label" in run.stderr
    assert "Line 9: the label 'maybe' is not one of" in run.stderr
    assert (
        "epoch 3: loss" in run.stderr and "dev " in run.stdout and "hypothesis-only" in run.stdout
    )
    card = json.loads(nli_checkpoint.card_path(out).read_text())
    assert card["data"]["train"]["sha256"] == nli_checkpoint.sha256_of(data)
    assert card["data"]["train"]["pairs"] == 6 and card["data"]["train"]["bad"] == 1
    assert card["test"]["pairs"] == 6 and sum(map(sum, card["test"]["confusion"])) == 6
    assert set(card["baseline"]) >= {"accuracy", "dev_accuracy", "confusion"}
    assert card["embedding"] == {"source": "static", "layer": None} and card["scale"] == "none"
    bad = subprocess.run(
        [sys.executable, "-m", "attnviz.nli.cli", "--data", str(tmp_path / "none.jsonl")],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert bad.returncode == 2 and "error:" in bad.stderr and "Traceback" not in bad.stderr


GENERATE = """
import json, random, sys
NAMES = "Ana Bo Chen Dara Eli Femi Gita Hana Ivo Jun Kemal Lena Mira Nils Omar Pia".split()
VERBS = "carries paints buys sells fixes washes counts reads opens moves".split()
NOUNS = "boxes chairs books lamps bikes plates coats maps keys cups".split()
PLACES = "market station school harbour library bakery garden bridge museum clinic".split()
with open(sys.argv[1], "w") as file:
    for i in range(int(sys.argv[2])):
        r = random.Random(i)
        who, does, what, where = (r.choice(words) for words in (NAMES, VERBS, NOUNS, PLACES))
        premise = f"{who} {does} {i % 997 + 2} {what} near the {where} at {i // 997} past noon."
        hypothesis = f"{r.choice(NAMES)} {r.choice(VERBS)} some {r.choice(NOUNS)} {i} times."
        label = "-" if i % 50 == 7 else ("entailment", "neutral", "contradiction")[i % 3]
        row = {"sentence1": premise, "sentence2": hypothesis, "gold_label": label}
        file.write(json.dumps(row) + "\\n")
"""

MEASURE = """
import gc, json, resource, sys
from pathlib import Path
from attnviz.nli.store import SentenceStore, read_pairs
from attnviz.nli.training import TrainConfig, train
from attnviz.transformer.encoder import load_encoder
encoder = load_encoder()
gc.collect()
rss = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
base = rss()
store = SentenceStore(encoder, "static", None)
pairs = read_pairs(Path(sys.argv[1]), store)
read = rss() - base
train(TrainConfig(epochs=1, max_steps=3), pairs, store)
print(json.dumps({"pairs": len(pairs), "unlabelled": pairs.summary.unlabelled,
                  "sentences": len(store), "read": read, "trained": rss() - base}))
"""


def test_an_snli_sized_file_reads_and_trains_within_the_memory_budget(tmp_path):
    """550,000 pairs of distinct sentences (SNLI's premises repeat: it needs less), generated."""
    big = tmp_path / "snli_sized.jsonl"
    subprocess.run([sys.executable, "-c", GENERATE, str(big), "550000"], check=True, timeout=120)
    run = subprocess.run(
        [sys.executable, "-c", MEASURE, str(big)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout.strip().splitlines()[-1])
    assert got["pairs"] + got["unlabelled"] == 550_000 and got["unlabelled"] == 11_000
    assert got["sentences"] == 2 * got["pairs"]  # every sentence distinct
    budget = nli_store.memory_budget(got["pairs"])
    assert got["read"] < budget and got["trained"] < budget + nli_store.MEMORY_TRAINING_BYTES, got


def test_the_fitted_temperature_minimises_the_dev_loss():
    gen = torch.Generator().manual_seed(0)
    base = torch.randn(4000, 3, generator=gen) * 2
    labels = torch.multinomial(torch.softmax(base, -1), 1, generator=gen).squeeze(1)
    fitted = nli_training.fit_temperature(3.0 * base, labels)  # over-confident threefold
    grid = torch.linspace(0.5, 6.0, 1101)
    losses = [float(F.cross_entropy(3.0 * base / t, labels)) for t in grid]
    assert fitted == pytest.approx(float(grid[int(torch.tensor(losses).argmin())]), abs=0.01)
    assert fitted == pytest.approx(3.0, abs=0.25)


def test_expected_calibration_error_over_15_equal_bins_by_hand():
    probabilities = torch.tensor(
        [[0.95, 0.03, 0.02], [0.9, 0.05, 0.05], [0.5, 0.3, 0.2], [0.2, 0.7, 0.1], [0.4, 0.35, 0.25]]
    )
    labels = torch.tensor([0, 1, 0, 1, 2])
    # Each confidence in a bin of its own: .95 in (14/15, 1] right, gap .05; .9 in
    # (13/15, 14/15] wrong, gap .9; .5 in (7/15, 8/15] right, gap .5; .7 in (10/15, 11/15]
    # right, gap .3; .4 in (5/15, 6/15] wrong, gap .4. Two in one bin share its means:
    expected = (0.05 + 0.9 + 0.5 + 0.3 + 0.4) / 5
    assert nli_training.calibration_error(probabilities, labels) == pytest.approx(expected)
    # .9 and .92 (both right) in (13/15, 14/15]: accuracy 1, confidence .91, gap .09 for both.
    shared = torch.tensor([[0.9, 0.1, 0.0], [0.92, 0.08, 0.0]])
    assert nli_training.calibration_error(shared, torch.zeros(2, dtype=torch.long)) == (
        pytest.approx(0.09)
    )
    assert nli_training.calibration_error(probabilities, labels) == pytest.approx(expected)
    perfect = torch.tensor([[1.0, 0.0, 0.0]] * 4)
    assert nli_training.calibration_error(perfect, torch.zeros(4, dtype=torch.long)) == 0.0


def test_a_swapped_premise_is_labelled_contradiction_as_snli_labels_another_scene():
    from array import array

    import numpy as np

    from attnviz.nli.store import PairSet
    from attnviz.nli.training import with_swaps

    pairs = PairSet(
        array("i", [0, 1, 2, 3]), array("i", [10, 11, 12, 13]), array("b", [0, 1, 0, 1])
    )
    swapped = with_swaps(pairs, 1.0, seed=0)
    premises = np.frombuffer(swapped.premises, dtype=np.int32)
    hypotheses = np.frombuffer(swapped.hypotheses, dtype=np.int32)
    assert len(swapped) == 8 and list(swapped.labels[:4]) == [0, 1, 0, 1]
    assert set(swapped.labels[4:]) == {nli.LABELS.index("contradiction")}
    own = dict(zip(hypotheses[:4], premises[:4], strict=True))
    assert all(own[h] != p for h, p in zip(hypotheses[4:], premises[4:], strict=True))
