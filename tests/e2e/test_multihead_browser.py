"""The multi-head page in a real Chromium: the heatmaps draw, the heads control redraws them."""

from __future__ import annotations

import numpy as np

from attnviz.heads import embed_tokens, multi_head_attention, positional_encoding
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_playground_browser import wait_for_charts, wait_idle, wait_until

# Plotly keeps the drawn traces (decoded) on its graph div; charts are found by their title.
Z_OF = (
    "title => Array.from(Array.from(document.querySelectorAll('.js-plotly-plot'))"
    ".find(d => d.layout.title.text === title)._fullData[0].z, row => Array.from(row))"
)
HEAD_TITLES = (
    "() => Array.from(document.querySelectorAll('.js-plotly-plot'))"
    ".map(d => d.layout.title.text).filter(t => t.startsWith('Head '))"
)


def expected_weights(heads: int) -> np.ndarray:
    tokens = ["the", "cat", "sat", "on", "the", "mat"]
    x = embed_tokens(tokens, 16, 0) + positional_encoding(6, 16)
    return multi_head_attention(x, num_heads=heads).weights.numpy()


def test_multihead_draws_every_head_and_reacts(app_url, page):
    page.set_viewport_size({"width": 1400, "height": 2900})  # the whole page in the screenshot
    page.goto(f"{app_url}/Multi_head")
    wait_for_charts(page, 8)  # PE, input, 4 heads, concat, output
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.evaluate(HEAD_TITLES) == [f"Head {h} weights" for h in range(1, 5)]
    drawn = np.array(page.evaluate(Z_OF, "Head 2 weights"), dtype=float)
    np.testing.assert_allclose(drawn, expected_weights(4)[1], rtol=1e-5, atol=1e-7)
    page.screenshot(path=str(SCREENSHOTS / "multihead.png"))

    main = page.locator('[data-testid="stMain"]')
    main.locator('[data-testid="stSelectbox"]').nth(1).click()
    page.get_by_role("option", name="2", exact=True).click()
    wait_until(page, f"() => ({HEAD_TITLES})().length === 2", timeout=30_000)
    wait_idle(page)
    drawn = np.array(page.evaluate(Z_OF, "Head 2 weights"), dtype=float)
    np.testing.assert_allclose(drawn, expected_weights(2)[1], rtol=1e-5, atol=1e-7)

    main.locator('[data-testid="stSelectbox"]').nth(1).click()
    page.get_by_role("option", name="3", exact=True).click()
    error = page.locator('[data-testid="stAlertContentError"]')
    error.first.wait_for(timeout=30_000)
    assert "cannot be split into 3 heads" in error.first.inner_text()
    assert page.locator('[data-testid="stException"]').count() == 0
