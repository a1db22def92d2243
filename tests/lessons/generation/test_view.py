"""The generation page through AppTest: with MiniLM it asks for a causal model and offers
SmolLM2; with SmolLM2 the generated tokens equal attnviz.generation's, and each step's row,
top tokens, thumbnails and cache equal the backend's."""

from __future__ import annotations

import numpy as np
import pytest

from attnviz import generation, models
from attnviz.app.model import MODEL
from attnviz.encoder import Encoder
from attnviz.lessons.generation import view as gen_view
from tests.apptest import chart, open_page, texts_of, z_of
from tests.plotly_data import decode

PAGE = "pages/11_Generation.py"


@pytest.fixture(scope="module")
def smol() -> Encoder:
    return Encoder(models.resolve(models.SMOLLM2))


def test_an_encoder_is_refused_with_smollm2_offered() -> None:
    at = open_page(PAGE)
    assert not at.exception, [e.value for e in at.exception]
    assert "needs a causal language model" in texts_of(at)
    at.button[0].click().run(timeout=120)
    assert at.session_state[MODEL.key] == models.SMOLLM2
    assert not at.exception and "Press **Generate**" in texts_of(at)


def test_generated_steps_equal_the_backend(smol: Encoder) -> None:
    at = open_page(PAGE)
    at.selectbox(key=MODEL.key).set_value(models.SMOLLM2).run(timeout=120)
    at.slider(key=gen_view.NEW.key).set_value(6).run()
    next(b for b in at.button if b.label == "Generate").click().run(timeout=120)
    assert not at.exception, [e.value for e in at.exception]
    made = generation.generate(smol, gen_view.DEFAULT_PROMPT, max_new_tokens=6)
    assert "6 new tokens (the count reached)" in " ".join(m.value for m in at.markdown)
    at.slider(key=gen_view.STEP.key).set_value(4).run()
    at.selectbox(key=gen_view.LAYER.key).set_value(14).run()
    at.selectbox(key=gen_view.HEAD.key).set_value(3).run()
    step = made.steps[3]
    np.testing.assert_allclose(z_of(at, "generation_row")[0], step.attention[14, 3], atol=1e-5)
    bars = chart(at, "generation_top")["data"][0]
    np.testing.assert_allclose(bars["x"], [p for _, _, p in step.top], atol=1e-6)
    thumbs = chart(at, gen_view.GRID)["data"]
    assert len([tr for tr in thumbs if tr["type"] == "heatmap"]) == 30 * 9
    cache = decode(chart(at, "generation_cache")["data"][0]["y"])
    np.testing.assert_allclose(cache, [s.cache_bytes / 1e6 for s in made.steps], rtol=1e-6)
