"""The generation page in a real Chromium: SmolLM2 writes 32 tokens, the step slider walks
through them (the row, the top tokens and every head's row redrawn), a click on a head's row
enlarges that head, and the README's screenshot is taken; a click on a row of "what each new
token drew on" moves the step slider to that token (its screenshot taken); Stop while it is
attributed switches that view off."""

from __future__ import annotations

import re

from attnviz.i18n import EN
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_models_browser import TITLES, no_exception
from tests.e2e.test_playground_browser import wait_idle, wait_until

GRID_TITLE = EN["generation.grid_title"]
# Page coordinates of a point on row `row` of the chart titled `title`, a tenth of the way in.
ROW_XY = (
    "([title, row]) => { const d = [...document.querySelectorAll('.js-plotly-plot')]"
    ".find(d => d.layout.title.text === title); const L = d._fullLayout;"
    " const box = d.getBoundingClientRect();"
    " return [box.left + L.xaxis._offset + 0.1 * L.xaxis._length,"
    " box.top + L.yaxis._offset + L.yaxis.d2p(row)]; }"
)

# Page coordinates of a point on row `row` of the attribution panel, a tenth of the way in.
DREW_ROW_XY = (
    "(row) => { const d = document.querySelector('.st-key-generation_drew_chart .js-plotly-plot');"
    " const L = d._fullLayout; const box = d.getBoundingClientRect();"
    " return [box.left + L.xaxis._offset + 0.1 * L.xaxis._length,"
    " box.top + L.yaxis._offset + L.yaxis.d2p(row)]; }"
)


def generate(page, url: str, count: int) -> None:
    """The Generation page on SmolLM2 at `url`, Generate pressed, until its `count` new tokens
    are written and the run is over."""
    page.set_viewport_size({"width": 1400, "height": 2400})
    page.goto(url)
    page.get_by_text("Press Generate", exact=False).wait_for(timeout=120_000)
    page.get_by_role("button", name="Generate").click()
    page.get_by_text(f"New tokens: {count}", exact=False).wait_for(timeout=240_000)
    wait_idle(page)


def test_generate_32_tokens_and_step_through_them(app_url, page):
    generate(page, f"{app_url}/Generation?model=smollm2", 32)
    wait_until(page, f"() => ({TITLES})().includes('{GRID_TITLE.format(step=1)}')", 60_000)
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
    # A click near the left end of layer 14 head 3's row (far from its point, at the middle)
    # enlarges that head.
    x, y = page.evaluate(ROW_XY, [GRID_TITLE.format(step=6), 14 * 9 + 3])
    page.mouse.click(x, y)
    wait_until(page, f"() => ({TITLES})().some(t => t.startsWith('Layer 14, head 3'))", 60_000)
    wait_idle(page)
    assert no_exception(page)
    page.mouse.move(5, 5)
    page.screenshot(path=str(SCREENSHOTS / "generation.png"))


def test_stop_keeps_the_tokens_so_far_and_the_lens_opens(app_url, page):
    page.set_viewport_size({"width": 1400, "height": 2600})
    page.goto(f"{app_url}/Generation?model=smollm2&new=64")
    page.get_by_text("Press Generate", exact=False).wait_for(timeout=120_000)
    page.get_by_role("button", name="Generate").click()
    page.get_by_text(re.compile(r"token [1-9]\d* of 64")).wait_for(timeout=120_000)
    page.get_by_role("button", name="Stop").click()
    said = page.get_by_text(re.compile(r"New tokens: \d+ \(stopped\)"))
    said.wait_for(timeout=60_000)
    wait_idle(page)
    assert no_exception(page)
    count = int(said.inner_text().split()[2])
    assert 1 <= count < 64, said.inner_text()
    assert page.get_by_role("button", name="Generate").is_visible()
    # The lens, folded until opened: every layer's guess and each head's part of the token.
    page.get_by_text("Logit lens: each layer", exact=False).click()
    wait_until(
        page,
        f"() => ({TITLES})().some(t => t.startsWith('Each head') && t.includes('logit of'))",
        120_000,
    )
    wait_idle(page)
    assert no_exception(page)
    lens = page.locator(".st-key-generation_lens").first
    lens.scroll_into_view_if_needed()
    page.mouse.move(5, 5)
    lens.screenshot(path=str(SCREENSHOTS / "logit_lens.png"))


def test_a_click_on_a_row_of_what_each_token_drew_on_moves_the_step(app_url, page):
    generate(page, f"{app_url}/Generation?model=smollm2&new=6", 6)
    page.get_by_text(EN["generation.drew"], exact=True).click()
    chart = page.locator(".st-key-generation_drew_chart .js-plotly-plot").first
    chart.wait_for(timeout=120_000)
    wait_idle(page)
    assert no_exception(page)
    chart.scroll_into_view_if_needed()
    x, y = page.evaluate(DREW_ROW_XY, 3)
    page.mouse.click(x, y)
    wait_until(
        page, f"() => ({TITLES})().includes('The 10 most probable tokens at step 4')", 60_000
    )
    wait_idle(page)
    assert no_exception(page)
    page.mouse.move(5, 5)
    chart.screenshot(path=str(SCREENSHOTS / "generation_drew.png"))


def test_stop_while_attributing_switches_the_view_off_and_on_again_goes_on(app_url, page):
    """Integrated gradients of 6 new tokens (about 4 s each on SmolLM2): Stop, pressed while
    the bar runs, ends the run and switches the view off with a word on what happened, said
    once; the generated text stays. Switched on again, it goes on from the rows done."""
    page.set_viewport_size({"width": 1400, "height": 2400})
    page.goto(f"{app_url}/Generation?model=smollm2&new=6&drew=1&method=integrated_gradients")
    page.get_by_text("Press Generate", exact=False).wait_for(timeout=120_000)
    page.get_by_role("button", name="Generate").click()
    computing = EN["generation.drew_computing"].format(count=6)
    page.get_by_text(computing, exact=False).first.wait_for(timeout=240_000)
    stop = page.locator(".st-key-generation_drew_stop button")
    stop.click()
    page.get_by_text("Stopped. Switch", exact=False).wait_for(timeout=60_000)
    wait_idle(page)
    assert no_exception(page)
    switch = page.locator(".st-key-generation_drew input").first
    assert not switch.is_checked()
    assert page.locator(".st-key-generation_drew_chart").count() == 0
    assert page.get_by_text("New tokens: 6", exact=False).is_visible()  # the text is kept
    # The next rerun (a step moved) says nothing more, and the switch stays off.
    slider = page.locator('.st-key-generation_step [data-testid="stSlider"] input').first
    slider.focus()
    page.keyboard.press("ArrowRight")
    wait_idle(page)
    assert not page.get_by_text("Stopped. Switch", exact=False).is_visible()
    assert not switch.is_checked() and no_exception(page)
    # On again: the rows finished before Stop are not computed again.
    page.get_by_text(EN["generation.drew"], exact=True).click()
    page.get_by_text(re.compile(r"Attributing the last [1-5] of 6 new tokens")).wait_for(
        timeout=60_000
    )
    page.locator(".st-key-generation_drew_chart .js-plotly-plot").first.wait_for(timeout=120_000)
    wait_idle(page)
    assert no_exception(page)
