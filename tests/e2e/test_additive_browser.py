"""The additive attention page in a real Chromium: charts draw, an edit of W_q reaches them."""

from __future__ import annotations

import numpy as np

from attnviz.attention import attend
from attnviz.inputs import random_qkv as random_inputs
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_playground_browser import Z_OF, wait_for_charts, wait_idle

SCORES = "Additive scores"
EXCEPTION = '[data-testid="stException"]'


def z_of(page, title: str) -> np.ndarray:
    return np.array(page.evaluate(Z_OF, title), dtype=float)


def test_additive_page_draws_and_reacts(app_url, page):
    page.goto(f"{app_url}/Additive_attention")
    wait_for_charts(page, 13)
    assert page.locator(EXCEPTION).count() == 0
    q, k, v = random_inputs(3, 5, 2, 4, 3, 0)
    expected = attend(q, k, v, score="additive", params={"h": 8, "seed": 0})
    np.testing.assert_allclose(z_of(page, SCORES), expected.scores, rtol=1e-5, atol=1e-6)
    # Streamlit scrolls inside its own container: a tall window shows the whole page.
    page.set_viewport_size({"width": 1400, "height": 4400})
    wait_for_charts(page, 13)
    page.screenshot(path=str(SCREENSHOTS / "additive.png"))
    page.set_viewport_size({"width": 1400, "height": 1500})

    # A W_q of the wrong shape: a clear error, no traceback, the text stays.
    w_q = page.get_by_label("W_q (h × q = 8 × 2)")
    w_q.fill("1, 2\n3, 4")
    w_q.press("Control+Enter")
    error = page.locator('[data-testid="stAlertContentError"]')
    error.first.wait_for(timeout=30_000)
    assert "W_q has shape 2 × 2 but must be h × q = 8 × 2" in error.first.inner_text()
    assert w_q.input_value() == "1, 2\n3, 4"
    assert page.locator(EXCEPTION).count() == 0

    # Back to the seed's parameters: the same scores as before.
    page.get_by_role("button", name="Re-draw from seed").click()
    wait_for_charts(page, 13)
    wait_idle(page)
    np.testing.assert_allclose(z_of(page, SCORES), expected.scores, rtol=1e-5, atol=1e-6)
    assert page.locator(EXCEPTION).count() == 0


BAR_LABELS = """() => [...document.querySelectorAll('.js-plotly-plot')].map(d =>
    [d.layout.title.text, [...d.querySelectorAll('.colorbar .ytick text, .colorbar .cbaxis text')]
        .map(t => t.textContent)]).filter(([, ticks]) => ticks.length > 0)"""


def test_no_colour_bar_is_a_lone_zero(app_url, page):
    """Every colour bar names at least its two ends (short ones drew a single "0")."""
    page.set_viewport_size({"width": 1400, "height": 3000})
    page.goto(f"{app_url}/Additive_attention")
    wait_for_charts(page, 4)
    wait_idle(page)
    bars = page.evaluate(BAR_LABELS)
    assert bars and all(len(ticks) >= 2 for _, ticks in bars), bars
