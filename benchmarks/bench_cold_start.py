"""Cold start of the landing page against a bare Streamlit page with one Plotly chart.

Each side is timed from `streamlit run` to its title (h1) and intro text visible in Chromium:
a new server process each time, the two sides alternating within a round, after one warm-up
round that is not counted (it fills the OS file cache for both). The bare page shows the same
title and intro, then one Plotly chart. Target: ratio at most 1.1.
Run with `python -m benchmarks.bench_cold_start [--rounds N]`.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

from attnviz.app.page import APP_ROOT
from attnviz.i18n import set_language, t
from tests.e2e.conftest import (
    CHROMIUM,
    CHROMIUM_ARGS,
    free_port,
    streamlit_command,
    wait_healthy,
)

TIMEOUT_S = 120
BARE_PAGE = """
import plotly.graph_objects as go
import streamlit as st

st.title({title!r})
st.markdown({intro!r})
st.plotly_chart(go.Figure(go.Heatmap(z=[[1, 2, 3], [4, 5, 6]])), theme=None)
"""
# True once an h1 holding the title and a paragraph holding the intro are laid out on screen.
VISIBLE = """([title, intro]) => {
  const shown = (el) => el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== "hidden";
  const has = (selector, text) => [...document.querySelectorAll(selector)]
    .some((el) => el.innerText.replace(/\\s+/g, " ").includes(text) && shown(el));
  return has("h1", title) && has('[data-testid="stMarkdownContainer"] p', intro);
}"""


def cold_start(browser: Browser, script: Path, cwd: Path, texts: tuple[str, str]) -> float:
    """Seconds from starting `streamlit run script` to the title and intro visible."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = streamlit_command(str(script), port)
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    log = Path(tempfile.gettempdir()) / f"attnviz-cold-start-{port}.log"
    with log.open("w") as out:
        start = time.perf_counter()
        server = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            wait_healthy(url, server, log, TIMEOUT_S)
            page.goto(url, wait_until="commit")
            page.wait_for_function(VISIBLE, arg=list(texts), polling="raf", timeout=TIMEOUT_S * 1e3)
            return time.perf_counter() - start
        finally:
            context.close()
            server.terminate()
            server.wait(timeout=20)
            log.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    set_language("en")
    title, intro = t("home.title"), t("home.intro")
    # The intro's first sentence as the browser shows it (markdown emphasis gone).
    intro_shown = re.sub(r"[*_`]", "", intro).split(". ")[0]
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        bare_dir = Path(tmp)
        (bare_dir / ".streamlit").mkdir()
        shutil.copy(APP_ROOT / ".streamlit" / "config.toml", bare_dir / ".streamlit")
        bare = bare_dir / "bare.py"
        bare.write_text(BARE_PAGE.format(title=title, intro=intro))
        sides = {
            "landing page": (APP_ROOT / "dashboard.py", APP_ROOT),
            "bare page": (bare, bare_dir),
        }
        times: dict[str, list[float]] = {side: [] for side in sides}
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for round_ in range(rounds + 1):
                # Alternate which side goes first, so neither always follows the other.
                order = list(sides) if round_ % 2 == 0 else list(sides)[::-1]
                for side in order:
                    seconds = cold_start(browser, *sides[side], (title, intro_shown))
                    if round_ > 0:  # round 0 warms the file cache and Chromium
                        times[side].append(seconds)
        finally:
            browser.close()
    print(f"cold start to title and intro visible, {rounds} rounds (median, all in s)")
    for side, values in times.items():
        shown = " ".join(f"{v:.2f}" for v in values)
        print(f"{side:>14} {statistics.median(values):8.2f}   {shown}")
    ratio = statistics.median(times["landing page"]) / statistics.median(times["bare page"])
    print(f"{'ratio':>14} {ratio:8.2f}   (target <= 1.1)")


if __name__ == "__main__":
    main()
