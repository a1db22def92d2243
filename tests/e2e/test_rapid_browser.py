"""Rapid changes while a page computes: the last input wins and nothing is drawn twice."""

from __future__ import annotations

import numpy as np

from attnviz.attention import attend
from tests.e2e.test_playground_browser import WEIGHTS, wait_for_charts, wait_idle, z_of

RANDOM = {"n": 5, "m": 7, "d_q": 3, "d_k": 3, "d_v": 2, "seed": 4}


def expected_weights(temperature: float) -> np.ndarray:
    from attnviz.inputs import random_qkv

    queries, keys, values = random_qkv(**RANDOM)  # the page's own generator
    return attend(queries, keys, values, temperature=temperature).weights.numpy()


def test_key_presses_faster_than_the_reruns_end_at_the_last_value(app_url, page):
    query = "src=random&n=5&m=7&dq=3&dk=3&dv=2&seed=4"
    page.goto(f"{app_url}/Playground?{query}")
    wait_for_charts(page, 6)
    slider = page.locator('[data-testid="stSidebar"] [data-testid="stSlider"]').first
    slider.locator("input").first.focus()
    for _ in range(8):  # 1.0 -> 0.6, each press while the last rerun may still be running
        page.keyboard.press("ArrowLeft", delay=10)
    page.wait_for_timeout(300)
    wait_idle(page)
    wait_for_charts(page, 6)

    assert float(slider.locator("input").first.input_value()) == 0.6
    assert "T=0.6" in page.url  # the link says so too
    np.testing.assert_allclose(z_of(page, WEIGHTS), expected_weights(0.6), rtol=1e-5, atol=1e-7)
    main = page.locator('[data-testid="stMain"]')
    assert main.locator(".js-plotly-plot").count() == 2  # no chart left over from a rerun
    titles = page.evaluate(  # a figure of panels by its panels' titles
        "() => Array.from(document.querySelectorAll('.js-plotly-plot'), d =>"
        " ((d.layout.meta || {}).titles || [d.layout.title.text]).join(' | '))"
    )
    assert len(titles) == len(set(titles)), titles
    assert page.locator('[data-testid="stException"]').count() == 0


def test_text_typed_over_a_running_rerun_is_what_the_page_shows(app_url, page):
    page.goto(f"{app_url}/NLI_alignment")
    wait_for_charts(page, 6)
    premise = page.get_by_label("Premise A")
    for text in ("a cat sat", "the dog ran far", "birds sing loudly today"):
        premise.fill(text)
        premise.press("Control+Enter")  # no wait: the next edit interrupts this rerun
    wait_idle(page)
    wait_for_charts(page, 6)
    ticks = page.evaluate(
        "() => Array.from(document.querySelectorAll('.js-plotly-plot .xtick text'),"
        " t => t.textContent)"
    )
    assert "loudly" in ticks and "dog" not in ticks and "cat" not in ticks
    assert premise.input_value() == "birds sing loudly today"
    assert page.locator('[data-testid="stException"]').count() == 0
