"""The model picker in a real Chromium: a second model redraws every view (a causal model's next
tokens, an encoder-decoder's cross-attention), and a 512-token input renders and redraws."""

from __future__ import annotations

import numpy as np

from attnviz.transformer.encoder import Encoder
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_playground_browser import wait_for_charts, wait_idle, wait_until, z_of

TITLES = "() => [...document.querySelectorAll('.js-plotly-plot')].map(d => d.layout.title.text)"
# The most heads one chart's click targets stand for (the model view's thumbnails).
HEADS = (
    "() => Math.max(0, ...Array.from(document.querySelectorAll('.js-plotly-plot'),"
    " d => (d.data || []).filter(t => t.name === 'heads')"
    ".reduce((n, t) => n + t.customdata.length, 0)))"
)
BARS = (
    "title => Array.from(Array.from(document.querySelectorAll('.js-plotly-plot'))"
    ".find(d => d.layout.title.text === title).data[0].x)"
)
A, B = "I do need sleep", "I am tired"


def no_exception(page) -> bool:
    return page.locator('[data-testid="stException"]').count() == 0


def pick(page, label: str) -> None:
    """Choose `label` in the sidebar's model picker."""
    box = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').first
    box.click()
    page.get_by_role("option", name=label, exact=True).click()
    wait_idle(page)


def test_a_second_model_redraws_the_views(app_url, page, model_root):
    page.set_viewport_size({"width": 1400, "height": 2000})
    page.goto(f"{app_url}/Model_attention")
    wait_until(page, f"() => ({HEADS})() >= {6 * 12}", timeout=60_000)
    pick(page, "gpt2 (tiny)")
    wait_until(page, f"() => ({TITLES})().some(t => t && t.startsWith('After '))", 60_000)
    wait_until(page, f"() => ({HEADS})() === {2 * 4}", timeout=60_000)  # 2 layers x 4 heads
    assert no_exception(page) and "model=tiny%2Fgpt2" in page.url
    encoded = Encoder(model_root / "gpt2").encode(A, B, max_length=512)
    np.testing.assert_allclose(z_of(page, "Layer 0, head 0"), encoded.attentions[0, 0], atol=1e-5)
    last = len(encoded.tokens) - 1
    title = f"After {last}: {encoded.tokens[last]}"
    assert encoded.next_token_probs is not None
    np.testing.assert_allclose(page.evaluate(BARS, title), encoded.next_token_probs[-1], atol=1e-6)
    page.mouse.move(5, 5)
    page.screenshot(path=str(SCREENSHOTS / "model_picker.png"))

    pick(page, "t5 (tiny)")
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text("Cross-attention (target × source)", exact=True).click()
    wait_idle(page)
    wait_for_charts(page, 3)
    seq2seq = Encoder(model_root / "t5").encode(A, B, max_length=512)
    assert seq2seq.cross_attentions is not None and seq2seq.decoder_tokens is not None
    cross = z_of(page, "Layer 0, head 0")
    assert cross.shape == (len(seq2seq.decoder_tokens), len(seq2seq.tokens))
    np.testing.assert_allclose(cross, seq2seq.cross_attentions[0, 0], atol=1e-5)
    assert no_exception(page)


def test_the_neuron_view_draws(app_url, page):
    page.set_viewport_size({"width": 1400, "height": 1800})
    page.goto(f"{app_url}/Model_attention?view=neuron&layer=2&head=5")
    wait_for_charts(page, 3)  # q, K and q∘k
    assert no_exception(page)
    page.locator('[data-testid="stDataFrame"]').first.wait_for(timeout=30_000)
    page.mouse.move(5, 5)
    page.screenshot(path=str(SCREENSHOTS / "model_neuron.png"))


def test_a_512_token_input_renders_and_redraws(app_url, page):
    page.set_viewport_size({"width": 1400, "height": 1600})
    page.goto(f"{app_url}/Model_attention")
    wait_for_charts(page, 3)
    long = " ".join(["the lorry reversed into the bollard outside the bakery"] * 60)
    sentence = page.get_by_label("Sentence A")
    sentence.fill(long)
    sentence.press("Control+Enter")
    page.get_by_text("Tokens (512)").wait_for(timeout=60_000)
    page.get_by_text("fine-tuned on inputs of at most 128", exact=False).wait_for(timeout=30_000)
    wait_idle(page)
    wait_until(page, f"() => ({TITLES})().includes('Layer 0, head 0')", timeout=60_000)
    assert no_exception(page)
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.locator('[data-testid="stSelectbox"]').nth(1).click()  # the layer
    page.get_by_role("option", name="4", exact=True).click()
    wait_until(page, f"() => ({TITLES})().includes('Layer 4, head 0')", timeout=60_000)
    wait_idle(page)
    assert no_exception(page)
