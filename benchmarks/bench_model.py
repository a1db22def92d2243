"""Encoder.encode against a bare transformers forward with output_attentions=True, same run.

Prints the model's load time (once: caching the loaded encoder is the Streamlit layer's job),
then for a pair of about 20 word pieces each the median time of `Encoder.encode` (per-sentence
truncation, offsets, hidden states, word-embedding rows) and of the bare tokenizer + forward
call it wraps, and their ratio (target: <= 1.2). Last, `encode_batch` of 16 sentences against
16 `encode` calls (median of 10), the NLI page's case. Run with `python -m benchmarks.bench_model`.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import torch

from attnviz.transformer.encoder import Encoder, load_encoder

REPEATS = 30
TEXT_A = "The old farmer watched the quick brown fox jump over his lazy dog near the wooden barn."
TEXT_B = "A tired dog slept in the warm sun while an animal ran past the farm without a sound."


def paired_medians(
    ours: Callable[[], object], theirs: Callable[[], object], repeats: int
) -> tuple[float, float]:
    """Median seconds of each, timed alternately so that load drift hits both alike."""
    ours(), theirs()  # warm-up
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeats):
        for fn, kept in ((ours, times[0]), (theirs, times[1])):
            start = time.perf_counter()
            fn()
            kept.append(time.perf_counter() - start)
    return statistics.median(times[0]), statistics.median(times[1])


def bare_forward(encoder: Encoder, text_a: str, text_b: str) -> tuple[torch.Tensor, ...]:
    """What one would write by hand: tokenize the pair, one forward asking for attentions."""
    inputs = encoder.tokenizer(text_a, text_b, return_tensors="pt")
    with torch.inference_mode():
        return encoder.model(**inputs, output_attentions=True).attentions  # L x (1, H, T, T)


def main() -> None:
    torch.manual_seed(0)
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}")
    start = time.perf_counter()
    encoder = load_encoder()
    print(f"model load: {time.perf_counter() - start:.2f} s")

    encoded = encoder.encode(TEXT_A, TEXT_B)
    pieces = [encoded.segments.count(s) - 1 for s in (0, 1)]  # minus [CLS] / [SEP]
    print(f"pair: {pieces[0]} + {pieces[1]} word pieces, {len(encoded.tokens)} tokens")
    ours, theirs = paired_medians(
        lambda: encoder.encode(TEXT_A, TEXT_B),
        lambda: bare_forward(encoder, TEXT_A, TEXT_B),
        REPEATS,
    )
    print(f"{'':>28} {'encode ms':>10} {'bare ms':>10} {'ratio':>7}")
    print(
        f"{'pair, median of ' + str(REPEATS):>28} {ours * 1e3:10.2f} {theirs * 1e3:10.2f} "
        f"{ours / theirs:7.2f}"
    )

    sentences = [TEXT_A, TEXT_B, "I do need sleep", "I am tired"] * 4
    batch, alone = paired_medians(
        lambda: encoder.encode_batch(sentences), lambda: [encoder.encode(s) for s in sentences], 10
    )
    print(f"{'':>28} {'batch ms':>10} {'alone ms':>10} {'ratio':>7}")
    print(
        f"{f'{len(sentences)} sentences':>28} {batch * 1e3:10.2f} {alone * 1e3:10.2f} "
        f"{batch / alone:7.2f}"
    )


def page_runs() -> None:
    """The NLI page through AppTest: the first run loads the model, later runs reuse it."""
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    from attnviz.lessons.nli import view as nli_view

    root = Path(__file__).resolve().parent.parent
    at = AppTest.from_file(str(root / "dashboard.py"), default_timeout=120).run()
    timings = []
    for label, action in (
        ("first visit (loads the model)", lambda: at.switch_page("pages/7_NLI_alignment.py")),
        ("rerun, same pair", lambda: at),
        ("rerun, new pair", lambda: at.text_area(key=nli_view.PREMISE.key).input("A cat sleeps")),
        ("model page (model cached)", lambda: at.switch_page("pages/8_Model_attention.py")),
        ("back to NLI (model cached)", lambda: at.switch_page("pages/7_NLI_alignment.py")),
    ):
        action()
        start = time.perf_counter()
        at.run()
        timings.append((label, time.perf_counter() - start))
        assert not at.exception, [e.value for e in at.exception]
    print("NLI page script runs (target < 300 ms once the model is cached):")
    for label, seconds in timings:
        print(f"{label:>34} {seconds * 1e3:9.0f} ms")


if __name__ == "__main__":
    main()
    page_runs()
