"""The multi-head page in a real Chromium: the thumbnails and the enlarged head draw (one figure
of panels), a click on a thumbnail enlarges that head, the heads control redraws them."""

from __future__ import annotations

import numpy as np

from attnviz.heads import embed_tokens, multi_head_attention, positional_encoding
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_additive_browser import PANEL_TITLES, PANEL_Z
from tests.e2e.test_inspect_browser import HEAD_XY
from tests.e2e.test_playground_browser import wait_for_charts, wait_idle, wait_until

# Plotly keeps the drawn traces (decoded) on its graph div; the thumbnails' weights, head by
# head, from the panel (`attnviz.figures.panels`) that carries the click targets.
THUMBNAILS = (
    "() => { const d = Array.from(document.querySelectorAll('.js-plotly-plot'))"
    ".find(d => d._fullData.some(t => t.name === 'heads'));"
    " const [a, b] = d.layout.meta.traces[0];"
    " return d._fullData.slice(a, b).filter(t => t.type === 'heatmap')"
    ".map(t => Array.from(t.z, row => Array.from(row))); }"
)
ENLARGED = f"() => ({PANEL_TITLES})().filter(t => t.startsWith('Head '))"


def expected_weights(heads: int) -> np.ndarray:
    tokens = ["the", "cat", "sat", "on", "the", "mat"]
    x = embed_tokens(tokens, 16, 0) + positional_encoding(6, 16)
    return multi_head_attention(x, num_heads=heads).weights.numpy()


def test_multihead_draws_every_head_and_reacts(app_url, page):
    page.set_viewport_size({"width": 1400, "height": 2400})  # the whole page in the screenshot
    page.goto(f"{app_url}/Multi_head")
    wait_for_charts(page, 3)  # PE and input; the heads' thumbnails and the enlarged head; output
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.evaluate(ENLARGED) == ["Head 0 weights"]
    drawn = np.array(page.evaluate(THUMBNAILS), dtype=float)
    np.testing.assert_allclose(drawn, expected_weights(4), rtol=1e-5, atol=1e-7)
    drawn = np.array(page.evaluate(PANEL_Z, "Head 0 weights"), dtype=float)
    np.testing.assert_allclose(drawn, expected_weights(4)[0], rtol=1e-5, atol=1e-7)
    page.screenshot(path=str(SCREENSHOTS / "multihead.png"))

    # A click on thumbnail 2 enlarges head 2, and the link names it.
    x, y = page.evaluate(HEAD_XY, [0, 2])
    page.mouse.click(x, y)
    wait_until(page, f"() => ({ENLARGED})()[0] === 'Head 2 weights'", timeout=30_000)
    wait_idle(page)
    drawn = np.array(page.evaluate(PANEL_Z, "Head 2 weights"), dtype=float)
    np.testing.assert_allclose(drawn, expected_weights(4)[2], rtol=1e-5, atol=1e-7)
    assert "head=2" in page.url

    main = page.locator('[data-testid="stMain"]')
    main.locator('[data-testid="stSelectbox"]').nth(1).click()
    page.get_by_role("option", name="2", exact=True).click()
    wait_until(page, f"() => ({THUMBNAILS})().length === 2", timeout=30_000)
    wait_idle(page)
    drawn = np.array(page.evaluate(THUMBNAILS), dtype=float)
    np.testing.assert_allclose(drawn, expected_weights(2), rtol=1e-5, atol=1e-7)
    assert page.evaluate(ENLARGED) == ["Head 0 weights"]  # head 2 is beyond h = 2

    main.locator('[data-testid="stSelectbox"]').nth(1).click()
    page.get_by_role("option", name="3", exact=True).click()
    error = page.locator('[data-testid="stAlertContentError"]')
    error.first.wait_for(timeout=30_000)
    assert "cannot be split into 3 heads" in error.first.inner_text()
    assert page.locator('[data-testid="stException"]').count() == 0
