"""A busy server: the heavy views' backend calls with torch's default intra-op threads (one a
core, what the app ran with before it set them) and with one (what `attnviz.app.loading` sets
now), alone and beside two processes that keep both cores busy (a class's other sessions, or
anything else on the machine).

Views: Across layers' saliency of PML's pair (integrated gradients, 32 steps), its attention
flow, the NLI page's batch of 100 pairs (aligned, then the trained model's verdicts), and the
Model attention page reading 512 tokens. Each figure is the median of REPEATS calls after one
uncounted; the ratio is against the same call alone with one thread, measured in this run.

Run: python -m benchmarks.bench_busy
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable

import torch

from attnviz import nli, rollout
from attnviz.lessons.across.compute import token_saliency
from attnviz.transformer.encoder import load_encoder
from benchmarks.timing import median_seconds

REPEATS = 2
A, B = "I do need sleep", "I am tired"
BUSY = "while True: pass"


def views() -> dict[str, Callable[[], object]]:
    """The heavy views' backend calls, each ready to run."""
    encoder = load_encoder()
    classifier = nli.load_classifier(encoder=encoder)
    pairs = [(f"A dog runs in park number {i}.", "An animal moves.") for i in range(100)]
    attentions = encoder.encode(A, B).attentions
    long_text = " ".join(["the cat sat on the mat and looked at the dog"] * 60)

    def batch() -> object:
        nli.align_pairs(encoder, pairs)
        return classifier.read(pairs)

    return {
        "saliency (32 steps)": lambda: token_saliency(encoder, A, B, steps=32),
        "attention flow": lambda: rollout.attention_flow(attentions),
        "NLI batch of 100": batch,
        "model page, 512 tokens": lambda: encoder.encode(long_text, max_length=512),
    }


def busy(count: int) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(count)]


def measure(calls: dict[str, Callable[[], object]], threads: int, load: int) -> dict[str, float]:
    torch.set_num_threads(threads)
    workers = busy(load)
    try:
        return {name: median_seconds(call, REPEATS) for name, call in calls.items()}
    finally:
        for worker in workers:
            worker.kill()
            worker.wait()


def main() -> None:
    default = torch.get_num_threads()
    calls = views()
    runs = {
        (threads, load): measure(calls, threads, load)
        for threads in (default, 1)
        for load in (0, 2)
    }
    reference = runs[(1, 0)]
    print(f"torch threads: default {default}, app 1; busy = 2 processes spinning on the cores")
    print(f"{'view':<24} {'threads':>7} {'alone s':>9} {'busy s':>9} {'busy/ref':>9}")
    for name in calls:
        for threads in (default, 1):
            alone, loaded = runs[(threads, 0)][name], runs[(threads, 2)][name]
            ratio = loaded / reference[name]
            print(f"{name:<24} {threads:>7} {alone:>9.2f} {loaded:>9.2f} {ratio:>8.1f}x")


if __name__ == "__main__":
    main()
