"""The generation page through AppTest: with MiniLM it asks for a causal model and offers
SmolLM2; with SmolLM2 the generated tokens equal attnviz.transformer.generation's, and each
step's row, top tokens, every head's row and cache equal the backend's."""

from __future__ import annotations

import numpy as np

from attnviz.app.model import MODEL
from attnviz.figures.labels import escape_label
from attnviz.lessons.generation import view as gen_view
from attnviz.lessons.generation.compute import probability_text
from attnviz.lessons.generation_drew import view as drew_view
from attnviz.transformer import generation, generation_attribution, lens, models
from attnviz.transformer.encoder import Encoder
from tests.apptest import chart, open_page, texts_of, z_of
from tests.plotly_data import annotation_texts, decode, panel_z

PAGE = "pages/11_Generation.py"


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
    assert "New tokens: 6 (the count reached)" in " ".join(m.value for m in at.markdown)
    at.slider(key=gen_view.STEP.key).set_value(4).run()
    at.selectbox(key=gen_view.LAYER.key).set_value(14).run()
    at.selectbox(key=gen_view.HEAD.key).set_value(3).run()
    step = made.steps[3]
    note = next(c.value for c in at.caption if c.value.startswith("Step 4:"))
    assert note.endswith(f"which had probability {probability_text(step.probability)}.")
    np.testing.assert_allclose(z_of(at, "generation_row")[0], step.attention[14, 3], atol=1e-5)
    bars = chart(at, "generation_top")["data"][0]
    np.testing.assert_allclose(bars["x"], [p for _, _, p in step.top], atol=1e-6)
    # Every head's predicting row: one heatmap of 30 x 9 rows, layer-major.
    heads = chart(at, gen_view.GRID)["data"]
    assert [tr["type"] for tr in heads] == ["heatmap", "scatter"]
    rows = decode(heads[0]["z"])
    assert rows.shape == (30 * 9, step.attention.shape[-1])
    np.testing.assert_allclose(rows, step.attention.reshape(30 * 9, -1), atol=1e-5)
    # The cache after step 4: the prompt's rows and three generated ones, in all 30 layers.
    cache = chart(at, "generation_cache")
    cells = np.array(cache["data"][0]["z"], dtype=float)
    prompt = len(made.prompt_ids)
    assert cells.shape == (30, prompt + 5)
    assert (~np.isnan(cells)).sum(axis=1).tolist() == [prompt + 3] * 30
    assert (cells[:, prompt + 2] == 3).all() and (cells[:, :prompt] == 1).all()
    assert f"{step.cache_bytes / 1e6:.2f} MB" in cache["layout"]["title"]["text"]


def test_the_logit_lens_of_a_step_equals_the_backend(smol: Encoder) -> None:
    at = open_page(PAGE)
    at.selectbox(key=MODEL.key).set_value(models.SMOLLM2).run(timeout=120)
    at.slider(key=gen_view.NEW.key).set_value(3).run()
    next(b for b in at.button if b.label == "Generate").click().run(timeout=120)
    assert gen_view.HEADS_GRID not in str(at.get("plotly_chart"))  # folded: not drawn
    at.session_state[gen_view.LENS_OPEN] = True
    at.slider(key=gen_view.STEP.key).set_value(2).run(timeout=120)
    assert not at.exception, [e.value for e in at.exception]
    made = generation.generate(smol, gen_view.DEFAULT_PROMPT, max_new_tokens=3)
    read = lens.logit_lens(smol, made.prompt_ids + made.ids[:1], positions=12, target=made.ids[1])
    grid = chart(at, "generation_lens")["data"][0]
    np.testing.assert_allclose(decode(grid["z"]), read.final_probs.numpy(), atol=1e-5)
    words = np.array(grid["text"])
    # Each cell the row's top token as the page writes tokens; the output's top is the token
    # greedy decoding wrote at this step.
    assert int(read.top_ids[-1, -1, 0]) == made.ids[1]
    pieces = [smol.readable_piece(int(i)) for i in read.top_ids[:, :, 0].flatten()]
    shown = [escape_label(p) if len(p) <= 7 else escape_label(p)[:6] + "…" for p in pieces]
    assert words.shape == (31, 12) and words.flatten().tolist() == shown
    heads = decode(chart(at, gen_view.HEADS_GRID)["data"][0]["z"])
    np.testing.assert_allclose(heads, read.head_logits.numpy(), atol=1e-4)
    assert f"direct part of the logit of {escape_label(smol.readable_piece(made.ids[1]))}" in str(
        chart(at, gen_view.HEADS_GRID)["layout"]["title"]
    )


def test_what_each_new_token_drew_on_equals_the_backend(smol: Encoder) -> None:
    """Switched on, the attribution matrix (rows: the new tokens; NaN after each row's
    position) beside the chosen head's rows; rows normalised on the switch; a clicked row
    moves the step slider in the next run."""
    at = open_page(PAGE)
    at.selectbox(key=MODEL.key).set_value(models.SMOLLM2).run(timeout=120)
    at.slider(key=gen_view.NEW.key).set_value(4).run(timeout=120)
    next(b for b in at.button if b.label == "Generate").click().run(timeout=120)
    assert drew_view.DREW_CHART not in str(at.get("plotly_chart"))  # only when asked
    at.selectbox(key=gen_view.HEAD.key).set_value(2).run(timeout=120)
    at.toggle(key=drew_view.DREW.key).set_value(True).run(timeout=120)
    assert not at.exception, [e.value for e in at.exception]
    made = generation_attribution(smol, gen_view.DEFAULT_PROMPT, max_new_tokens=4)
    written = generation.generate(smol, gen_view.DEFAULT_PROMPT, max_new_tokens=4)
    p = made.prompt_length
    figure = chart(at, drew_view.DREW_CHART)
    left, right = panel_z(figure, 0), panel_z(figure, 1)
    assert left.shape == right.shape == (4, p + 3)
    np.testing.assert_allclose(left, made.matrix, rtol=1e-4, atol=1e-5)
    for i, step in enumerate(written.steps):
        assert np.isnan(left[i, p + i :]).all() and np.isnan(right[i, p + i :]).all()
        np.testing.assert_allclose(right[i, : p + i], step.attention[0, 2], atol=1e-5)
    assert "Layer 0, head 2" in " ".join(annotation_texts(figure))
    at.toggle(key=drew_view.NORMALISE.key).set_value(True).run(timeout=120)
    largest = np.nanmax(np.abs(made.matrix), axis=1, keepdims=True)
    normalised = panel_z(chart(at, drew_view.DREW_CHART), 0)
    np.testing.assert_allclose(normalised, made.matrix / largest, rtol=1e-4, atol=1e-5)
    at.session_state[drew_view.DREW_ROW] = 2  # what a click on the third row stores
    at.run(timeout=120)
    assert at.slider(key=gen_view.STEP.key).value == 3 and not at.exception


def test_a_prompt_the_model_cannot_read_shows_a_message(smol: Encoder) -> None:
    """With the attribution shown, an empty prompt gets generation's message; the last text
    and its attribution stay."""
    at = open_page(PAGE)
    at.selectbox(key=MODEL.key).set_value(models.SMOLLM2).run(timeout=120)
    at.slider(key=gen_view.NEW.key).set_value(2).run(timeout=120)
    next(b for b in at.button if b.label == "Generate").click().run(timeout=120)
    at.toggle(key=drew_view.DREW.key).set_value(True).run(timeout=120)
    at.text_area(key=gen_view.PROMPT.key).set_value("").run(timeout=120)
    next(b for b in at.button if b.label == "Generate").click().run(timeout=120)
    assert not at.exception, [e.value for e in at.exception]
    assert "has no characters the tokenizer reads" in texts_of(at)
    assert panel_z(chart(at, drew_view.DREW_CHART), 0).shape[0] == 2
