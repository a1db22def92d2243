"""The Playground in a real Chromium: heatmaps draw, the scoring function changes them."""

from __future__ import annotations

import numpy as np

from tests.e2e.conftest import SCREENSHOTS

CHARTS = '[data-testid="stPlotlyChart"]'
# Plotly keeps the drawn traces (decoded) on its graph div; chart 0 is the raw-score heatmap.
FIRST_Z = (
    "() => Array.from(document.querySelectorAll('.js-plotly-plot')[0]._fullData[0].z,"
    " row => Array.from(row))"
)


def wait_for_charts(page, count: int) -> None:
    page.wait_for_function(
        f"() => document.querySelectorAll('{CHARTS} .js-plotly-plot .main-svg').length >= {count}",
        timeout=60_000,
    )


def test_playground_draws_and_reacts(app_url, page):
    page.goto(f"{app_url}/Playground")
    wait_for_charts(page, 6)
    assert page.locator('[data-testid="stException"]').count() == 0
    before = np.array(page.evaluate(FIRST_Z), dtype=float)
    assert before.shape == (3, 4)
    scale = 1 / np.sqrt(2)  # the default preset, scaled dot-product with d_k = 2
    np.testing.assert_allclose(before[0], [scale, 0, -scale, 0.5 * scale], rtol=1e-5, atol=1e-7)
    page.screenshot(path=str(SCREENSHOTS / "playground.png"))

    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.locator('[data-testid="stSelectbox"]').first.click()
    page.get_by_role("option", name="Dot product  q·k", exact=True).click()
    page.wait_for_function(
        f"() => {{ const z = ({FIRST_Z})(); return Math.abs(z[0][0] - 1) < 1e-6; }}", timeout=30_000
    )
    after = np.array(page.evaluate(FIRST_Z), dtype=float)
    np.testing.assert_allclose(after[0], [1, 0, -1, 0.5], rtol=1e-5, atol=1e-7)
    assert page.locator('[data-testid="stException"]').count() == 0


def test_dashboard_links_to_the_playground(app_url, page):
    page.goto(app_url)
    wait_for_charts(page, 2)
    assert page.locator('[data-testid="stException"]').count() == 0
    page.screenshot(path=str(SCREENSHOTS / "dashboard.png"))
    page.locator('[data-testid="stMain"]').get_by_role("link", name="Playground").click()
    wait_for_charts(page, 6)
    assert page.url.endswith("/Playground")
