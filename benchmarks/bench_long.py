"""Long inputs on SmolLM2 (attnviz.transformer.lazy) against bare transformers.

- The lazy reading (`Encoder.encode(text, lazy=True)`: tokens, one forward keeping q, k, v, the
  top next tokens, the residual norms) against a bare sdpa forward of the same ids through
  `AutoModelForCausalLM` (logits of every position), at 512, 2,048 and 4,096 tokens: median
  seconds and the peak memory each adds to a process that has loaded its model, each in its own
  child process, the two taking turns. Target: the lazy reading at most 1.3x the forward's time.
  The thumbnails (every head from 4 query rows a band) are timed apart.
- One head's (4,096, 4,096) weights from a lazy reading.
- Loading the converted folder: attnviz's Encoder against transformers' own `from_pretrained`.
- In Chromium: a head change on the model page at 4,096 tokens against one at 512 (eager).
Run with `python -m benchmarks.bench_long [--rounds N] [--no-browser]`.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time

LENGTHS = (512, 2048, 4096)


def _text(tokens: int) -> str:
    from tests.test_lazy import long_text

    return long_text(tokens)


def child(kind: str, length: int) -> dict[str, float]:
    """One measurement in this process: load, then one timed run; seconds and peak MB added."""
    import torch

    torch.set_num_threads(1)
    from attnviz.transformer import models

    folder = models.resolve(models.SMOLLM2)
    started = time.perf_counter()
    if kind == "ours":
        from attnviz.transformer.encoder import Encoder

        encoder = Encoder(folder)
        encoder.lazy_supported()  # the once-per-model probe, not part of a reading
        load = time.perf_counter() - started
        text = _text(length)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        started = time.perf_counter()
        reading = encoder.encode(text, max_length=length, lazy=True)
        seconds = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
        assert reading.lazy is not None and len(reading.tokens) == length
        from attnviz.figures.grid import thumbnail_side
        from attnviz.transformer import lazy

        started = time.perf_counter()
        lazy.thumbnails(reading.lazy, thumbnail_side(30, 9))
        thumbs = time.perf_counter() - started
        started = time.perf_counter()
        reading.head_attention(12, 4)
        head = time.perf_counter() - started
        return {"seconds": seconds, "peak_mb": peak / 1e3, "load": load, "thumbs": thumbs,
                "head": head}  # fmt: skip
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(folder, attn_implementation="sdpa")
    model.train(False)  # inference behaviour (dropout off)
    tokenizer = AutoTokenizer.from_pretrained(folder)
    load = time.perf_counter() - started
    ids = tokenizer(_text(length), return_tensors="pt").input_ids[:, :length]
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    with torch.inference_mode():
        model(input_ids=ids)
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    return {"seconds": seconds, "peak_mb": peak / 1e3, "load": load}


def measure(kind: str, length: int) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_long", "--child", kind, str(length)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def backend(rounds: int) -> None:
    print(f"SmolLM2 lazy reading against a bare sdpa forward, one thread, {rounds} rounds")
    loads: dict[str, list[float]] = {"ours": [], "bare": []}
    for length in LENGTHS:
        runs: dict[str, list[dict[str, float]]] = {"ours": [], "bare": []}
        for _ in range(rounds):
            for kind in ("ours", "bare"):  # taking turns: a slow spell hits both
                runs[kind].append(measure(kind, length))
        ours = statistics.median(r["seconds"] for r in runs["ours"])
        bare = statistics.median(r["seconds"] for r in runs["bare"])
        peak_ours = statistics.median(r["peak_mb"] for r in runs["ours"])
        peak_bare = statistics.median(r["peak_mb"] for r in runs["bare"])
        thumbs = statistics.median(r["thumbs"] for r in runs["ours"])
        head = statistics.median(r["head"] for r in runs["ours"])
        print(
            f"  {length:>5} tokens: lazy {ours:6.2f} s, bare {bare:6.2f} s, ratio "
            f"{ours / bare:4.2f} (target <= 1.3); peak +{peak_ours:,.0f} MB against "
            f"+{peak_bare:,.0f} MB; thumbnails {thumbs:.2f} s apart; one head {head:.3f} s"
        )
        for kind in loads:
            loads[kind] += [r["load"] for r in runs[kind]]
    ours_load, bare_load = statistics.median(loads["ours"]), statistics.median(loads["bare"])
    print(
        f"  load of the converted folder: Encoder {ours_load:.2f} s (with its probe), "
        f"from_pretrained {bare_load:.2f} s, ratio {ours_load / bare_load:.2f}"
    )


def browser(rounds: int) -> None:
    """Head changes on the model page: 4,096 tokens (lazy) against 512 (eager)."""
    from playwright.sync_api import sync_playwright

    from attnviz.app.page import APP_ROOT
    from benchmarks.bench_repaint import server
    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS

    titles = "() => [...document.querySelectorAll('.js-plotly-plot')].map(d => d.layout.title.text)"
    idle = '[data-testid="stApp"][data-test-script-state="notRunning"]'
    with sync_playwright() as playwright, server(APP_ROOT / "dashboard.py", APP_ROOT) as url:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = chromium.new_context(viewport={"width": 1400, "height": 1600}).new_page()
        results = {}
        for name, query, heads_box in (("4,096 (lazy)", "&long=1", 2), ("512 (eager)", "", 2)):
            page.goto(f"{url}/Model_attention?model=smollm2{query}")
            if query:
                page.get_by_text("Fill with a sample", exact=False).click()
            else:
                box = page.get_by_label("Sentence A")
                box.fill(_text(520))
                box.press("Control+Enter")
            page.wait_for_function(
                f"() => ({titles})().includes('Layer 0, head 0')", timeout=300_000
            )
            page.wait_for_selector(idle, timeout=300_000)
            times = []
            for step in range(rounds):
                head = 1 + step % 8
                sidebar = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]')
                sidebar.nth(heads_box).click()
                started = time.perf_counter()
                page.get_by_role("option", name=str(head), exact=True).click()
                page.wait_for_function(
                    f"() => ({titles})().includes('Layer 0, head {head}')", timeout=120_000
                )
                page.wait_for_timeout(100)
                page.wait_for_selector(idle, timeout=120_000)
                times.append(time.perf_counter() - started)
            results[name] = statistics.median(times)
        chromium.close()
    long_s, short_s = results["4,096 (lazy)"], results["512 (eager)"]
    print(
        f"  head change in Chromium: {long_s:.2f} s at 4,096 tokens, {short_s:.2f} s at 512, "
        f"ratio {long_s / short_s:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--child", nargs=2, metavar=("KIND", "LENGTH"))
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child[0], int(args.child[1]))))
        return
    backend(args.rounds)
    if not args.no_browser:
        browser(max(3, args.rounds))


if __name__ == "__main__":
    main()
