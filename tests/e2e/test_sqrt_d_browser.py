"""The "why sqrt(d)" page in Chromium: the four charts draw the backend's numbers."""

from __future__ import annotations

import numpy as np

from attnviz import scaling
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_playground_browser import wait_for_charts, wait_idle, wait_until

# The y values of the trace named `name` in the chart titled `title`, as Plotly drew them.
Y_OF = (
    "([title, name]) => Array.from(Array.from(document.querySelectorAll('.js-plotly-plot'))"
    ".find(d => d.layout.title.text === title)._fullData.find(t => t.name === name).y)"
)
VARIANCE = "Variance of the scores against d"


def chosen(page, d: int) -> np.ndarray:
    return np.array(page.evaluate(Y_OF, [VARIANCE, f"chosen d = {d}"]), dtype=float)


def expected(d: int, seed: int) -> np.ndarray:
    raw, scaled = scaling.dot_products(d, 2000, seed)
    return np.array([raw.var(), scaled.var()])


def test_sqrt_d_page_draws_and_follows_the_seed(app_url, page):
    page.goto(f"{app_url}/Why_sqrt_d")
    wait_for_charts(page, 4)
    assert page.locator('[data-testid="stException"]').count() == 0
    np.testing.assert_allclose(chosen(page, 64), expected(64, 0), rtol=1e-6)
    titles = page.evaluate(
        "() => Array.from(document.querySelectorAll('.js-plotly-plot'), d => d.layout.title.text)"
    )
    assert len(titles) == 4 and VARIANCE in titles
    page.screenshot(path=str(SCREENSHOTS / "sqrt_d.png"))

    seed = page.get_by_label("Seed")
    seed.fill("3")
    seed.press("Enter")
    want = expected(64, 3)
    # wait_until: while the rerun replaces the charts, the variance chart may be missing.
    wait_until(
        page, f"() => Math.abs(({Y_OF})(['{VARIANCE}', 'chosen d = 64'])[0] - {want[0]}) < 1e-6"
    )
    wait_idle(page)
    np.testing.assert_allclose(chosen(page, 64), want, rtol=1e-6)
    assert page.locator('[data-testid="stException"]').count() == 0

    # d moves in powers of two: one arrow press halves it, and d <= 4 brings the note.
    page.locator('.st-key-sq_d [data-testid="stSlider"] input').first.focus()
    for d in (32, 16, 8, 4):
        page.keyboard.press("ArrowLeft")
        wait_until(page, f"() => ({Y_OF})(['{VARIANCE}', 'chosen d = {d}']).length === 2")
        wait_idle(page)
        np.testing.assert_allclose(chosen(page, d), expected(d, 3), rtol=1e-6)
    note = page.get_by_text("At d = 4 the dashed normal curve does not fit")
    note.wait_for(timeout=30_000)
    assert page.locator('[data-testid="stException"]').count() == 0
