"""Repaint after a control change on the Playground at 1024^2 and 2048^2, against a bare page.

Both pages run in their own `streamlit run` and are driven by Chromium. A round moves the
temperature slider one step with the keyboard and times from the key press to the redrawn
pictures of every chart the change touches (raw, masked scores, weights, outputs) with the
script run finished. The bare page is the floor: the same seeded inputs and the same five
heatmaps (three n x m, two n x d_v) drawn with `px.imshow(binary_string=True)`, and nothing
else. The two pages take turns round by round; medians over the rounds; target ratio at
most 1.5.
Run with `python -m benchmarks.bench_repaint [--rounds N] [--sizes 1024 2048]`.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from attnviz.app.page import APP_ROOT
from tests.e2e.conftest import (
    CHROMIUM,
    CHROMIUM_ARGS,
    free_port,
    streamlit_command,
    wait_healthy,
)

SIZES = (1024, 2048)
D, D_V = 64, 64
TIMEOUT_MS = 120_000
BARE_PAGE = f"""
import math

import plotly.express as px
import streamlit as st
import torch

n = int(st.query_params.get("n", 1024))
with st.sidebar:
    temperature = st.slider("Temperature", 0.05, 5.0, 1.0, 0.05)
gen = torch.Generator().manual_seed(0)
q, k, v = (torch.randn(n, {D}, generator=gen), torch.randn(n, {D}, generator=gen),
           torch.randn(n, {D_V}, generator=gen))
scores = q @ k.T / math.sqrt({D}) / temperature
weights = torch.softmax(scores, dim=-1)
output = weights @ v
# Fixed colour ranges, as the Playground's: a rescaled picture is a new picture.
for i, (column, matrix, low, high) in enumerate(
    zip(st.columns(3), (scores, scores, weights), (-8, -8, 0), (8, 8, 1))
):
    fig = px.imshow(matrix.numpy(), binary_string=True, zmin=low, zmax=high)
    fig.update_layout(height=520)
    column.plotly_chart(fig, theme=None, key=f"nm{{i}}")
for i, (column, matrix) in enumerate(zip(st.columns(2), (v, output))):
    fig = px.imshow(matrix.numpy(), binary_string=True, aspect="auto", zmin=-4, zmax=4)
    fig.update_layout(height=520)
    column.plotly_chart(fig, theme=None, key=f"nd{{i}}")
"""
# Charts a temperature change redraws: the three n x m maps and the outputs (not the values).
CHANGED = (0, 1, 2, 4)
STAMP = (
    "() => { window.__old = [...document.querySelectorAll('.js-plotly-plot')]"
    ".map(d => d._fullData); }"
)
REDRAWN = """(changed) => {
  const plots = [...document.querySelectorAll('.js-plotly-plot')];
  const idle = document.querySelector('[data-testid="stApp"]')
    ?.getAttribute('data-test-script-state') === 'notRunning';
  return idle && changed.every(i => plots[i] && plots[i]._fullData !== window.__old[i]);
}"""
CHARTS_DRAWN = """(count) => document.querySelectorAll('.js-plotly-plot').length >= count
  && document.querySelector('[data-testid="stApp"]')
    ?.getAttribute('data-test-script-state') === 'notRunning'"""


@contextmanager
def server(script: Path, cwd: Path) -> Iterator[str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = Path(tempfile.gettempdir()) / f"attnviz-repaint-{port}.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            streamlit_command(str(script), port), cwd=cwd, stdout=out, stderr=subprocess.STDOUT
        )
        try:
            wait_healthy(url, process, log, timeout=120)
            yield url
        finally:
            process.terminate()
            process.wait(timeout=20)
            log.unlink()


def open_page(page: Page, url: str, charts: int) -> None:
    page.goto(url)
    page.wait_for_function(CHARTS_DRAWN, arg=charts, timeout=TIMEOUT_MS)


def repaint_seconds(page: Page, charts: int) -> float:
    """Seconds from a slider key press to the changed charts redrawn."""
    page.wait_for_function(CHARTS_DRAWN, arg=charts, timeout=TIMEOUT_MS)
    page.wait_for_timeout(500)  # let the last pictures settle
    page.evaluate(STAMP)
    slider = page.locator('[data-testid="stSidebar"] [data-testid="stSlider"] input').first
    slider.focus()
    start = time.perf_counter()
    page.keyboard.press("ArrowLeft")  # a new temperature each round: 0.95, 0.90, ...
    page.wait_for_function(REDRAWN, arg=list(CHANGED), polling="raf", timeout=TIMEOUT_MS)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        bare_dir = Path(tmp)
        (bare_dir / "bare.py").write_text(BARE_PAGE)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        with (
            server(APP_ROOT / "dashboard.py", APP_ROOT) as ours,
            server(bare_dir / "bare.py", bare_dir) as bare,
        ):
            print(f"repaint after a temperature step, {args.rounds} rounds (median s)")
            for n in args.sizes:
                query = f"src=random&n={n}&m={n}&dq={D}&dk={D}&dv={D_V}&seed=0"
                pages = {}
                for name, url, charts in (
                    ("playground", f"{ours}/Playground?{query}", 6),
                    ("bare", f"{bare}/?n={n}", 5),
                ):
                    page = browser.new_context(viewport={"width": 1400, "height": 1500}).new_page()
                    open_page(page, url, charts)
                    repaint_seconds(page, charts)  # the first round warms the caches
                    pages[name] = (page, charts)
                # The two pages take turns, so that the machine's slow spells hit both alike.
                times: dict[str, list[float]] = {name: [] for name in pages}
                for _ in range(args.rounds):
                    for name, (page, charts) in pages.items():
                        times[name].append(repaint_seconds(page, charts))
                for page, _ in pages.values():
                    page.context.close()
                ours_s = statistics.median(times["playground"])
                bare_s = statistics.median(times["bare"])
                print(
                    f"  {n:>4}^2  playground {ours_s:6.2f}  bare imshow {bare_s:6.2f}  "
                    f"ratio {ours_s / bare_s:5.2f}  (target <= 1.5)"
                )
        browser.close()


if __name__ == "__main__":
    main()
