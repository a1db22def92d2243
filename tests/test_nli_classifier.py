"""The classifier's token vectors and its streaming `predict`: parity with the encoder's own
reading, the same probabilities whatever the chunks and the order, and 10,000 pairs within the
memory bound (peak RSS of a subprocess: tracemalloc does not see torch's tensors)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from attnviz.errors import InputError
from attnviz.nli import checkpoint
from attnviz.nli.tuned import TunedLayers
from attnviz.nli.vectors import layer_vectors, sentence_embeddings, tuned_vectors

ROOT = Path(__file__).resolve().parent.parent
SENTENCES = ["A man sleeps on a bench.", "Two girls paint a red fence in the sun.", "Hi."]
WORDS = [
    *("a", "man", "woman", "child", "dog", "cat", "walks", "runs", "sits", "sleeps", "on"),
    *("in", "under", "the", "park", "street", "bench", "red", "blue", "green", "old", "young"),
    *("two", "three", "small", "big", "happy", "near", "far", "car", "bus", "window", "table"),
]
MEMORY_BOUND = 1_000_000_000  # bytes over the loaded model, for 10,000 pairs


def made_pairs(count: int, seed: int = 0) -> list[tuple[str, str]]:
    """Pairs of random words, 6 to 20 a premise and 3 to 10 a hypothesis."""
    rng = random.Random(seed)

    def sentence(low: int, high: int) -> str:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high))) + "."

    premises = [sentence(6, 20) for _ in range(count // 3 + 1)]
    return [(premises[i // 3], sentence(3, 10)) for i in range(count)]


@pytest.fixture(scope="module")
def shipped(encoder):
    return checkpoint.load_classifier(encoder=encoder)


def test_layer_vectors_are_the_encoders_hidden_state(encoder):
    for layer in (0, 3, 6):
        tokens, x, lens = layer_vectors(encoder, SENTENCES, layer)
        want_tokens, want, want_lens = sentence_embeddings(encoder, SENTENCES, layer=layer)
        assert tokens == want_tokens and torch.equal(lens, want_lens)
        torch.testing.assert_close(x, want, rtol=1e-4, atol=1e-5)


def test_untouched_tuned_layers_read_as_minilm(encoder):
    for layers in (1, 6):
        tuned = TunedLayers(encoder, layers)
        (_, x, lens), keys = tuned_vectors(tuned, encoder, SENTENCES, plain=tuned)
        torch.testing.assert_close(keys, x)
        _, want, _ = sentence_embeddings(encoder, SENTENCES, layer=layers)
        torch.testing.assert_close(x, want, rtol=1e-4, atol=1e-5)
        rows = encoder.encode_batch([SENTENCES[1]])[0].input_embeddings
        with torch.no_grad():
            alone = tuned.from_embeddings(rows)[1:-1]
        torch.testing.assert_close(alone, want[1, : int(lens[1])], rtol=1e-4, atol=1e-5)


def test_tuned_layers_own_their_weights(encoder):
    """Built without random weights, they start from copies of MiniLM's: a change to them (a
    load, a training step) never reaches the shared encoder every page reads."""
    shared = {k: v.clone() for k, v in encoder.model.encoder.state_dict().items()}
    tuned = TunedLayers(encoder, 2)
    assert not any(p.is_meta for p in tuned.parameters())
    with torch.no_grad():
        for weight in tuned.trainable():
            weight.add_(1.0)
    for name, weight in encoder.model.encoder.state_dict().items():
        torch.testing.assert_close(weight, shared[name], msg=name)


def test_tuned_layers_round_trip_in_float16(encoder):
    tuned = TunedLayers(encoder, 2)
    again = TunedLayers(encoder, 2).load_bytes(tuned.to_bytes())
    for (name, a), (_, b) in zip(
        tuned.bert.encoder.state_dict().items(), again.bert.encoder.state_dict().items(),
        strict=True,
    ):  # fmt: skip
        torch.testing.assert_close(a.half().float(), b, msg=name)
    with pytest.raises(InputError):
        TunedLayers(encoder, 3).load_bytes(tuned.to_bytes())


def test_predict_does_not_depend_on_chunks_or_order(shipped):
    pairs = made_pairs(600)
    whole = shipped.predict(pairs)
    torch.testing.assert_close(whole.sum(-1), torch.ones(len(pairs)))
    by_chunk = torch.cat([shipped.predict(pairs[i : i + 97]) for i in range(0, 600, 97)])
    torch.testing.assert_close(whole, by_chunk, rtol=0, atol=1e-5)
    order = list(range(len(pairs)))
    random.Random(1).shuffle(order)
    shuffled = shipped.predict([pairs[i] for i in order], chunk=50)
    torch.testing.assert_close(whole[order], shuffled, rtol=0, atol=1e-5)
    seen = []
    shipped.predict(pairs[:300], progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (300, 300) and len(seen) == 3


def test_read_is_capped_and_agrees_with_predict(shipped):
    pairs = made_pairs(10)
    read = shipped.read(pairs)
    torch.testing.assert_close(read.probabilities, shipped.predict(pairs), rtol=0, atol=1e-5)
    with pytest.raises(InputError, match="65"):
        shipped.read(made_pairs(65))


MEASURE = """
import json, resource, sys, torch
torch.set_num_threads(1)
sys.path.insert(0, {root!r})
from tests.test_nli_classifier import made_pairs
from attnviz.nli import checkpoint
classifier = checkpoint.load_classifier()
pairs = made_pairs(10_000)
classifier.predict(pairs[:10])
loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
probabilities = classifier.predict(pairs)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({{"loaded": loaded, "peak": peak, "rows": len(probabilities)}}))
"""


def test_ten_thousand_pairs_stream_in_bounded_memory():
    code = MEASURE.format(root=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=600, cwd=ROOT, check=True)  # fmt: skip
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found["rows"] == 10_000
    assert found["peak"] - found["loaded"] < MEMORY_BOUND, found
