"""The activation patching page in a real Chromium: SmolLM2 patches the IOI pair, the heads
grid and the residual stream's grid are drawn (the README's screenshot is taken), and a click
on a head's cell opens the Model attention page on that layer and head, reading the clean
prompt; Stop during a run ends it, the grids it finished shown."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlencode, urlparse

from attnviz.i18n import EN
from attnviz.lessons.patching.compute import EXAMPLES
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_models_browser import TITLES, no_exception
from tests.e2e.test_playground_browser import CELL_XY, wait_idle, wait_until

HEADS_TITLE = EN["patching.heads_title"]
SITE_TITLE = EN["patching.title.residual"]
LAYER, HEAD = 23, 3


def test_a_click_on_a_head_opens_it_on_the_model_attention_page(app_url, page):
    page.set_viewport_size({"width": 1400, "height": 2200})
    page.goto(f"{app_url}/Activation_patching?model=smollm2")
    page.get_by_text("Press Run", exact=False).wait_for(timeout=120_000)
    page.get_by_role("button", name="Run", exact=True).click()
    shown = f"() => [{json.dumps(HEADS_TITLE)}, {json.dumps(SITE_TITLE)}]"
    wait_until(page, f"() => ({shown})().every(t => ({TITLES})().includes(t))", 240_000)
    wait_idle(page)
    assert no_exception(page)
    page.mouse.move(5, 5)
    page.screenshot(path=str(SCREENSHOTS / "patching.png"))

    x, y = page.evaluate(CELL_XY, [HEADS_TITLE, LAYER, HEAD])
    page.mouse.click(x, y)
    page.wait_for_url("**/Model_attention?**", timeout=60_000)
    enlarged = EN["model.head_title"].format(layer=LAYER, head=HEAD)
    wait_until(page, f"() => ({TITLES})().includes({json.dumps(enlarged)})", 240_000)
    wait_idle(page)
    assert no_exception(page)
    query = parse_qs(urlparse(page.url).query)
    assert query["layer"] == [str(LAYER)] and query["head"] == [str(HEAD)], page.url
    assert query["model"] == ["smollm2"] and query["a"] == [EXAMPLES["ioi"].clean], page.url


def test_stop_ends_a_run_and_shows_the_grids_it_finished(app_url, page):
    paris = EXAMPLES["paris"]  # not patched yet in this server: a run of some seconds
    query = {"model": "smollm2", "clean": paris.clean, "corrupted": paris.corrupted}
    query |= {"answer": paris.answer, "wrong": paris.wrong}
    page.goto(f"{app_url}/Activation_patching?{urlencode(query)}")
    page.get_by_text("Press Run", exact=False).wait_for(timeout=120_000)
    page.get_by_role("button", name="Run", exact=True).click()
    # The heads grid is done once the residual stream's is under way.
    page.get_by_text(re.compile(r"Patching Residual stream \d+%")).wait_for(timeout=120_000)
    page.get_by_role("button", name="Stop").click()
    # The click takes effect at the run's next bar update: in the residual grid or the next,
    # with the heads grid (and the residual stream's) finished.
    said = page.get_by_text(re.compile(r"Stopped after [12] of 4 grids"))
    said.wait_for(timeout=60_000)
    wait_idle(page)
    assert no_exception(page)
    assert HEADS_TITLE in page.evaluate(TITLES)
    assert not page.get_by_text(re.compile(r"Patching .*\d+%")).count()
    assert page.get_by_role("button", name="Run", exact=True).is_visible()
