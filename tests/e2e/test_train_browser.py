"""The training page in Chromium: a small job trains, its curve moves, the NLI page's verdict then
comes from the new model; and another session's Playground stays responsive while a job runs."""

from __future__ import annotations

import asyncio
import json
import random
import statistics
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from attnviz.nli import checkpoint as nli_checkpoint
from attnviz.transformer.encoder import load_encoder
from benchmarks import load
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_model_pages_browser import VERDICT_BARS, no_exception
from tests.e2e.test_playground_browser import wait_for_charts, wait_idle, wait_until

CURVE_POINTS = (
    "() => { const plot = Array.from(document.querySelectorAll('.js-plotly-plot'))"
    ".find(d => (d.data || []).length === 3 && d.data[0].type === 'scatter');"
    " return plot ? plot.data[0].x.length : 0; }"
)


def set_number(page, label: str, value: int) -> None:
    box = page.get_by_role("spinbutton", name=label)
    box.fill(str(value))
    box.press("Enter")
    wait_idle(page)


def test_a_small_job_trains_and_the_nli_page_uses_it(app_url, page, tmp_path):
    page.goto(f"{app_url}/Train_NLI")
    page.get_by_role("button", name="Train", exact=True).wait_for(timeout=60_000)
    # The page's defaults (2,000 pairs, hidden size 100): the screenshot shows what a student
    # gets by pressing Train, the watched alignment sharpening epoch by epoch.
    page.get_by_role("button", name="Train", exact=True).click()
    wait_until(page, f"() => ({CURVE_POINTS})() >= 1", timeout=120_000)  # the first epoch
    first = page.evaluate(CURVE_POINTS)
    wait_until(page, f"() => ({CURVE_POINTS})() > {first}", timeout=120_000)  # it moves
    page.get_by_text("Trained in").wait_for(timeout=120_000)
    wait_idle(page)
    assert page.evaluate(CURVE_POINTS) == 5 and no_exception(page)
    page.screenshot(path=str(SCREENSHOTS / "train_nli.png"))
    files = {}
    for label in ("Download the weights (.safetensors)", "Download the card (.json)"):
        with page.expect_download(timeout=60_000) as download:
            page.get_by_role("button", name=label).click()
        files[label] = download.value.path().read_bytes()
    # Offered, not swapped in: the person chooses it for the NLI page.
    page.get_by_role("button", name="Use this model on the NLI page (this session)").click()
    page.get_by_text("The NLI page now uses the model trained here.").wait_for(timeout=60_000)
    page.get_by_role("link", name="Open the NLI page").click()
    wait_for_charts(page, 6)
    wait_until(page, f"() => ({VERDICT_BARS})() !== null", timeout=60_000)
    sidebar = page.locator('[data-testid="stSidebar"]').inner_text()
    assert "Classifier" in sidebar  # the choice appears once the session has a model
    shown = np.array(page.evaluate(VERDICT_BARS))
    weights, card = files.values()
    trained = nli_checkpoint.classifier_from_bytes(weights, card, load_encoder())
    pair = [("I do need sleep", "I am tired")]
    np.testing.assert_allclose(shown, trained.predict(pair)[0].numpy(), rtol=1e-4)
    default = nli_checkpoint.load_classifier(encoder=trained.encoder).predict(pair)[0].numpy()
    assert not np.allclose(shown, default, atol=1e-3)  # not the default checkpoint's
    assert json.loads(card)["training"]["epochs"] == 5 and no_exception(page)


async def playground_reruns(url: str, count: int) -> list[float]:
    """Seconds of `count` temperature changes in one websocket session on the Playground."""
    rng = random.Random(0)
    async with await load.open_session(url, 60) as ws:
        client = load.Client(ws, timeout=60)
        client.query = load.PLAYGROUND.link
        await client.rerun(load.PLAYGROUND)
        change = load.PLAYGROUND.changes[0]
        times = []
        for _ in range(count + 1):
            seconds, problems = await client.change(load.PLAYGROUND, change, rng)
            assert not problems, problems
            times.append(seconds)
        return times[1:]  # the first after opening warms the caches


def test_the_playground_stays_responsive_while_a_job_trains(app_url, page):
    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API keeps this thread's loop
        idle = statistics.median(pool.submit(asyncio.run, playground_reruns(app_url, 8)).result())
        page.goto(f"{app_url}/Train_NLI")
        page.get_by_role("button", name="Train", exact=True).wait_for(timeout=60_000)
        set_number(page, "Training pairs to use (at most)", 4000)
        page.get_by_role("button", name="Train", exact=True).click()
        page.get_by_text("Epoch 1 of").wait_for(timeout=120_000)  # the worker is training
        busy = pool.submit(asyncio.run, playground_reruns(app_url, 8)).result()
        assert page.get_by_text("Epoch").count() >= 1  # still training after the reruns
        page.get_by_role("button", name="Cancel").click()
        page.get_by_text("The training was cancelled.").wait_for(timeout=60_000)
    ratio = statistics.median(busy) / idle
    training = statistics.median(busy)
    print(
        f"Playground rerun: idle {idle:.3f} s, while training {training:.3f} s, ratio {ratio:.2f}"
    )
    assert ratio < 2.0, (idle, busy)
