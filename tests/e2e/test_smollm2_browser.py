"""SmolLM2 in a real Chromium: its 30 layers x 9 heads on the default pair with the attention
sink hidden, and a 4,096-token input read lazily, drawing its model view and one head (an image:
4,096 x 4,096 weights pooled), then another head on a click of the sidebar."""

from __future__ import annotations

import time

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_models_browser import HEADS, TITLES, no_exception
from tests.e2e.test_playground_browser import wait_idle, wait_until

IMAGES = (
    "() => Array.from(document.querySelectorAll('.js-plotly-plot'),"
    " d => (d.data || []).filter(t => t.type === 'image').length).reduce((a, b) => a + b, 0)"
)


def test_smollm2_heads_and_its_sink(app_url, page):
    page.set_viewport_size({"width": 1400, "height": 2200})
    page.goto(f"{app_url}/Model_attention?model=smollm2")
    wait_until(page, f"() => ({HEADS})() >= {30 * 9}", timeout=120_000)
    wait_idle(page)
    assert no_exception(page)
    page.get_by_text("Hide the first token (the attention sink)").click()
    wait_idle(page)
    page.get_by_text("The first token took on average", exact=False).wait_for(timeout=30_000)
    page.mouse.move(5, 5)
    page.screenshot(path=str(SCREENSHOTS / "smollm2_heads.png"))


def test_a_4096_token_input_renders_its_model_view_and_one_head(app_url, page):
    page.set_viewport_size({"width": 1400, "height": 2400})
    page.goto(f"{app_url}/Model_attention?model=smollm2&long=1")
    page.get_by_text("Fill with a sample", exact=False).click()
    page.get_by_text("4,096 tokens read in one pass", exact=False).wait_for(timeout=240_000)
    wait_idle(page)
    wait_until(page, f"() => ({TITLES})().includes('Layer 0, head 0')", timeout=60_000)
    wait_until(page, f"() => ({IMAGES})() >= 1", timeout=60_000)  # the head, as an image
    wait_until(page, f"() => ({HEADS})() >= {30 * 9}", timeout=60_000)  # the thumbnails
    assert no_exception(page)
    page.get_by_text("The text was cut to its first 4,096 tokens", exact=False).wait_for()
    page.mouse.move(5, 5)
    page.screenshot(path=str(SCREENSHOTS / "smollm2_long.png"))
    sidebar = page.locator('[data-testid="stSidebar"]')
    started = time.perf_counter()
    sidebar.locator('[data-testid="stSelectbox"]').nth(2).click()  # the head
    page.get_by_role("option", name="4", exact=True).click()
    wait_until(page, f"() => ({TITLES})().includes('Layer 0, head 4')", timeout=60_000)
    wait_idle(page)
    print(f"head change at 4,096 tokens: {time.perf_counter() - started:.2f} s")
    assert no_exception(page)
