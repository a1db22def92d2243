"""The across-layers page in a real Chromium: a click on a cell of a head-statistics grid
enlarges that head, the link names it, and the enlarged head holds the model's weights."""

from __future__ import annotations

import numpy as np

from attnviz.lessons.across.compute import head_statistics
from attnviz.transformer.encoder import load_encoder
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_inspect_browser import click_cell
from tests.e2e.test_playground_browser import wait_for_charts, wait_idle, wait_until, z_of

TITLES = "() => [...document.querySelectorAll('.js-plotly-plot')].map(d => d.layout.title.text)"


def test_a_head_statistics_click_enlarges_that_head(app_url, page):
    page.set_viewport_size({"width": 1400, "height": 2200})  # every grid and the head on screen
    page.goto(f"{app_url}/Across_layers?view=heads")
    wait_for_charts(page, 10)  # nine grids and the enlarged head
    assert page.locator('[data-testid="stException"]').count() == 0
    encoded = load_encoder().encode("I do need sleep", "I am tired")
    stats = head_statistics(encoded)
    np.testing.assert_allclose(z_of(page, "Share on [SEP]"), stats["sep"], atol=1e-5)
    assert "Layer 0, head 0" in page.evaluate(TITLES)

    click_cell(page, "Share on [SEP]", 3, 5)  # layer 3, head 5
    wait_until(page, f"() => ({TITLES})().includes('Layer 3, head 5')", timeout=60_000)
    wait_idle(page)
    np.testing.assert_allclose(z_of(page, "Layer 3, head 5"), encoded.attentions[3, 5], atol=1e-5)
    assert "hlayer=3" in page.url and "head=5" in page.url
    assert page.locator('[data-testid="stException"]').count() == 0
    page.mouse.move(5, 5)  # no chart toolbar over a title
    wait_idle(page)
    page.screenshot(path=str(SCREENSHOTS / "across_heads.png"))


def test_rollout_and_saliency_draw(app_url, page):
    page.set_viewport_size({"width": 1400, "height": 1900})
    page.goto(f"{app_url}/Across_layers")
    wait_for_charts(page, 3)  # the rollout, its row, the row layer by layer
    assert page.locator('[data-testid="stException"]').count() == 0
    page.screenshot(path=str(SCREENSHOTS / "across_rollout.png"))
    page.get_by_role("radio", name="Saliency beside attention").click()
    wait_until(
        page,
        f"() => ({TITLES})().some(t => t.startsWith('Similarity of A and B'))",
        timeout=60_000,
    )
    wait_idle(page)
    assert page.locator('[data-testid="stException"]').count() == 0
    assert "view=saliency" in page.url
    page.screenshot(path=str(SCREENSHOTS / "across_saliency.png"))
