"""The generation page in a real Chromium: SmolLM2 writes 32 tokens, the step slider walks
through them (the row, the top tokens and the thumbnails redrawn), and the README's screenshot
is taken."""

from __future__ import annotations

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_models_browser import HEATMAPS, TITLES, no_exception
from tests.e2e.test_playground_browser import wait_idle, wait_until


def test_generate_32_tokens_and_step_through_them(app_url, page):
    page.set_viewport_size({"width": 1400, "height": 2400})
    page.goto(f"{app_url}/Generation?model=smollm2")
    page.get_by_text("Press Generate", exact=False).wait_for(timeout=120_000)
    page.get_by_role("button", name="Generate").click()
    page.get_by_text("32 new tokens", exact=False).wait_for(timeout=240_000)
    wait_idle(page)
    wait_until(page, f"() => ({HEATMAPS})() >= {30 * 9}", timeout=60_000)
    assert no_exception(page)
    slider = page.locator('.st-key-generation_step [data-testid="stSlider"] input').first
    slider.focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    wait_idle(page)
    wait_until(
        page, f"() => ({TITLES})().includes('The 10 most probable tokens at step 6')", 60_000
    )
    assert no_exception(page)
    page.mouse.move(5, 5)
    page.screenshot(path=str(SCREENSHOTS / "generation.png"))
