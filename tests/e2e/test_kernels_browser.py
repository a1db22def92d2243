"""The kernel-regression page in a real Chromium: the four charts draw and follow the kernel."""

from __future__ import annotations

import numpy as np

from attnviz import kernels as kr
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_playground_browser import wait_for_charts, wait_idle, wait_until

# The weights heatmap is the chart whose title starts with "Weights"; Plotly keeps the decoded
# traces on its graph div.
WEIGHTS_Z = (
    "() => Array.from(Array.from(document.querySelectorAll('.js-plotly-plot'))"
    ".find(d => d.layout.title.text.startsWith('Weights'))._fullData[0].z, r => Array.from(r))"
)
EXCEPTIONS = '[data-testid="stException"]'


def test_kernel_page_draws_and_follows_the_kernel(app_url, page):
    page.goto(f"{app_url}/Kernel_regression")
    wait_for_charts(page, 4)
    assert page.locator(EXCEPTIONS).count() == 0
    d = kr.make_data(50, 0, 0.5)
    weights = np.array(page.evaluate(WEIGHTS_Z), dtype=float)
    expected = kr.kernel_weights(d.x_test, d.x_train, "gaussian", 0.25).numpy()
    np.testing.assert_allclose(weights, expected, rtol=1e-5, atol=1e-7)
    page.locator(".katex").first.wait_for(timeout=30_000)
    page.screenshot(path=str(SCREENSHOTS / "kernels.png"), full_page=True)

    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.locator('[data-testid="stSelectbox"]').first.click()
    page.get_by_role("option", name="Boxcar  1 if |u| ≤ 1, else 0", exact=True).click()
    wait_until(page, f"() => ({WEIGHTS_Z})()[0].some(v => v === 0)", timeout=30_000)
    wait_idle(page)
    boxcar = np.array(page.evaluate(WEIGHTS_Z), dtype=float)
    expected = kr.kernel_weights(d.x_test, d.x_train, "boxcar", 0.25).numpy()
    np.testing.assert_allclose(boxcar, expected, rtol=1e-5, atol=1e-7)
    assert page.locator(EXCEPTIONS).count() == 0


BAR_AND_SQUARE = """() => {
    const d = [...document.querySelectorAll('.js-plotly-plot')]
        .find(d => d.layout.title.text.startsWith('Weights'));
    const box = e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom]; };
    return {square: box(d.querySelector('.heatmaplayer image')),
            bar: box(d.querySelector('.colorbar .cbfills'))};
}"""


def test_the_weights_colour_bar_is_as_tall_as_its_square(app_url, page):
    """The square weights heatmap in a chart taller than wide: its colour bar runs beside the
    square, not twice its height."""
    page.set_viewport_size({"width": 1400, "height": 1800})
    page.goto(f"{app_url}/Kernel_regression")
    wait_for_charts(page, 4)
    wait_idle(page)
    found = page.evaluate(BAR_AND_SQUARE)
    (square_top, square_bottom), (bar_top, bar_bottom) = found["square"], found["bar"]
    assert abs(bar_top - square_top) <= 3 and abs(bar_bottom - square_bottom) <= 3, found
