"""The NLI classifier: training speed against a bare torch loop, one pair's latency, and the
default checkpoint's accuracy on the shipped test split against the hypothesis-only baseline.

- Training: attnviz.nli_training.train (sentences gathered from the store per batch, progress,
  accuracy bookkeeping) against a bare loop of the same model, optimiser, seed and batches over
  embeddings padded before the clock starts; pairs a second each, ratio of times (target
  <= 1.1). The static source, so both read the same rows.
- One pair: `Classifier.predict([(premise, hypothesis)])` (tokenise, encode both sentences,
  classify) in milliseconds, beside one `Encoder.encode` of the premise for reference.
- Accuracy: the default checkpoint on attnviz's own test split (data/nli/test.jsonl),
  recomputed here and compared with its card, beside the card's SNLI test figures (SNLI's test
  set is scored once, by the trainer: never here).
- An evaluation file: 10,000 of attnviz's own pairs scored by `Classifier.predict`, against
  MiniLM's own forward over the same sentences (target: within 60 s).
- The Train NLI page's defaults, run as its job worker runs them: dev accuracy after 60 s
  (target >= 0.60) and the watched pair's row entropy after each epoch.

Run with `python -m benchmarks.bench_nli`.
"""

from __future__ import annotations

import json
import statistics
import time

import torch
import torch.nn.functional as F

from attnviz import nli
from attnviz.nli import checkpoint as nli_checkpoint
from attnviz.nli import jobs as nli_jobs
from attnviz.nli import store as nli_store
from attnviz.nli import training as nli_training
from attnviz.nli.data import read_file
from attnviz.transformer.encoder import load_encoder
from benchmarks.timing import median_seconds

STEPS = 60  # batches per timed run
ROUNDS = 3


def bare_loop(batches: list[tuple[torch.Tensor, ...]], d: int, config: nli_training.TrainConfig):
    """The same model and optimiser over pre-padded batches: the lower bound of training."""
    torch.manual_seed(config.seed)
    model = nli_training.model_for(config, d)
    optimizer = torch.optim.Adam(model.parameters(), lr=config.lr)
    model.train(True)
    for a, b, lens_a, lens_b, labels in batches:
        loss = F.cross_entropy(model(a, b, lens_a, lens_b), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return model


def training(encoder) -> None:
    store = nli_store.SentenceStore(encoder, "static", None)
    pairs = nli_store.read_pairs(nli_checkpoint.DATA_DIR / "train.jsonl", store)
    config = nli_training.TrainConfig(epochs=1, max_steps=STEPS, batch_size=32, align="cosine")
    order = torch.randperm(len(pairs), generator=torch.Generator().manual_seed(config.seed))
    labels = pairs.label_tensor()
    batches = []
    for first in range(0, STEPS * config.batch_size, config.batch_size):
        batch = order[first : first + config.batch_size]
        batches.append((*nli_training.sides(pairs, batch, store, False), labels[batch]))

    def run_ours() -> object:
        return nli_training.train(config, pairs, store)

    def run_bare() -> object:
        return bare_loop(batches, encoder.hidden_size, config)

    run_ours(), run_bare()  # warm up both
    ours, bare = [], []
    for _ in range(ROUNDS):  # interleaved, so a burst of load hits both sides alike
        ours.append(median_seconds(run_ours, 1, warm_up=False))
        bare.append(median_seconds(run_bare, 1, warm_up=False))
    ours_s, bare_s = statistics.median(ours), statistics.median(bare)
    pairs_done = STEPS * config.batch_size
    print(f"training, {STEPS} batches of {config.batch_size} (static embeddings):")
    print(f"  attnviz.nli_training.train   {pairs_done / ours_s:8.0f} pairs/s")
    print(f"  bare torch loop           {pairs_done / bare_s:8.0f} pairs/s")
    print(f"  ratio of times: {ours_s / bare_s:.2f} (target <= 1.1)")


def one_pair(classifier, encoder) -> None:
    pair = [("A man is sleeping on a bench in the park.", "A man is awake.")]
    classifier.predict(pair)
    predict = median_seconds(lambda: classifier.predict(pair), 20)
    encode = median_seconds(lambda: encoder.encode(pair[0][0]), 20)
    print(f"one pair, encode and classify: {predict * 1e3:.1f} ms")
    ratio = predict / encode
    print(f"  (one Encoder.encode of the premise: {encode * 1e3:.1f} ms; ratio {ratio:.2f})")


def accuracy(classifier) -> None:
    """The checkpoint on attnviz's own test split, recomputed and compared with its card (the
    real-data figures are on the card: SNLI's test set is scored once, by the trainer)."""
    examples, _ = read_file(nli_checkpoint.DATA_DIR / "test.jsonl")
    test = list(examples)
    start = time.perf_counter()
    predicted = classifier.predict([(e.premise, e.hypothesis) for e in test]).argmax(-1)
    seconds = time.perf_counter() - start
    gold = torch.tensor([e.label for e in test])
    correct = int((predicted == gold).sum())
    low, high = nli_checkpoint.wilson(correct, len(test))
    card = classifier.card
    recorded = card.own_test.accuracy if card.own_test is not None else None
    print(f"default checkpoint ({card.source}, layer {card.layer}) on attnviz's own test split "
          f"({len(test)} pairs):")  # fmt: skip
    print(f"  accuracy {correct / len(test):.3f} (95% CI {low:.3f}-{high:.3f}); card says "
          f"{recorded}; classified in {seconds:.1f} s")  # fmt: skip
    if card.real is not None:
        found = card.real.snli_test
        print(f"  the card's SNLI test ({found.pairs} pairs, scored once by the trainer): "
              f"{found.accuracy:.3f}, hypothesis only {found.baseline or float('nan'):.3f}, "
              f"ECE {found.ece or float('nan'):.3f}")  # fmt: skip
    print("  confusion (gold rows, predicted columns, in LABELS order):")
    print("  " + json.dumps(nli_checkpoint.confusion(gold, predicted)))


def scoring_file(classifier, encoder) -> None:
    """An evaluation file of 10,000 pairs scored by `Classifier.predict` (the NLI page's file
    view), against the floor: MiniLM's own forward over the same distinct sentences, batched by
    length, keeping nothing (target: the file within 60 s)."""
    pairs = []
    for name in ("train.jsonl", "hard.jsonl"):
        pairs += [(e.premise, e.hypothesis) for e in read_file(nli_checkpoint.DATA_DIR / name)[0]]
    pairs = pairs[:10_000]
    sentences = sorted({s for pair in pairs for s in pair}, key=len)

    def floor() -> None:
        with torch.inference_mode():
            for start in range(0, len(sentences), 256):
                chunk = sentences[start : start + 256]
                batch = encoder.tokenizer(chunk, padding=True, truncation=True, max_length=130,
                                          return_tensors="pt")  # fmt: skip
                encoder.model(**batch)

    start = time.perf_counter()
    classifier.predict(pairs)
    ours = time.perf_counter() - start
    start = time.perf_counter()
    floor()
    bare = time.perf_counter() - start
    print(f"an evaluation file of {len(pairs):,} pairs ({len(sentences):,} distinct sentences):")
    print(f"  Classifier.predict            {ours:6.1f} s ({len(pairs) / ours:.0f} pairs/s)")
    print(f"  MiniLM's forward, same sentences {bare:6.1f} s (the floor)")
    print(f"  ratio {ours / bare:.2f}; target <= 60 s: {'met' if ours <= 60 else 'NOT met'}")


class Recorder:
    """What a training job's worker sends, with the seconds since it started."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.messages: list[tuple[float, tuple]] = []

    def send(self, message: tuple) -> None:
        self.messages.append((time.perf_counter() - self.start, message))

    def close(self) -> None:
        pass


def page_defaults() -> None:
    """The Train NLI page's default job, run as its worker runs it (one torch thread, the
    encoder loaded first): dev accuracy after each epoch, and the last one within 60 s."""
    from attnviz.lessons.train_nli import view
    from attnviz.lessons.train_nli.compute import row_entropy, sample, shipped

    prepared = shipped()
    config = nli_training.TrainConfig(
        source=view.SOURCE.default, layer=None, hidden=view.HIDDEN.default,
        epochs=view.EPOCHS.default, batch_size=32, align=view.ALIGN.default,
    )  # fmt: skip
    train = sample(list(prepared.train), view.PAIRS.default)
    spec = nli_jobs.JobSpec(train, prepared.dev[: nli_jobs.MAX_DEV_PAIRS], config, 0, prepared.data)
    threads = torch.get_num_threads()
    recorder = Recorder()
    nli_jobs.work(spec, recorder)
    torch.set_num_threads(threads)
    epochs = [(t, m) for t, m in recorder.messages if m[0] == "epoch"]
    print(f"Train NLI defaults ({len(train)} pairs, {config.source}, {config.align}, hidden "
          f"{config.hidden}, {config.epochs} epochs), on the worker's one thread:")  # fmt: skip
    within = None
    for seconds, (_, epoch, _, _, dev, weights) in epochs:
        print(f"  epoch {epoch + 1}: {seconds:5.1f} s, dev {dev:.3f}, "
              f"watched pair's row entropy {row_entropy(weights):.2f}")  # fmt: skip
        if seconds <= 60:
            within = dev
    shown = "none" if within is None else f"{within:.3f}"
    print(f"  dev accuracy after 60 s: {shown} (target >= 0.60)")


def main() -> None:
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}")
    encoder = load_encoder()
    training(encoder)
    classifier = nli.load_classifier(encoder=encoder)
    one_pair(classifier, encoder)
    accuracy(classifier)
    scoring_file(classifier, encoder)
    page_defaults()


if __name__ == "__main__":
    main()
