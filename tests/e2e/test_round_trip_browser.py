"""A SmolLM2 head to the Playground and back in a real Chromium: the neuron view opens the
Playground with the head's matrices (its link in the address bar), and the way back shows the
prediction with the Playground's output in place of the head's."""

from __future__ import annotations

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_models_browser import no_exception
from tests.e2e.test_playground_browser import wait_idle


def test_a_head_to_the_playground_and_back(app_url, page):
    page.set_viewport_size({"width": 1400, "height": 1800})
    page.goto(f"{app_url}/Model_attention?model=smollm2&view=neuron&layer=14&head=3")
    button = page.get_by_role("button", name="Open this head in the Playground", exact=False)
    button.wait_for(timeout=180_000)
    button.click()
    back = page.get_by_role("button", name="Back to the model with this edit")
    back.wait_for(timeout=120_000)
    wait_idle(page)
    assert no_exception(page)
    assert "/Playground" in page.url and "causal=1" in page.url
    assert page.get_by_text("layer 14, head 3", exact=False).first.is_visible()
    page.mouse.move(5, 5)
    page.screenshot(path=str(SCREENSHOTS / "round_trip_playground.png"))
    back.click()
    page.get_by_text("Your Playground edit, applied").wait_for(timeout=120_000)
    wait_idle(page)
    assert no_exception(page)
    assert "/Model_attention" in page.url and "edit_at=14.3" in page.url
    assert page.get_by_text("KL(before ‖ after) = 0.0000 nats", exact=False).is_visible()
