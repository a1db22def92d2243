"""The model page's long input and attention sinks through AppTest, on the shipped SmolLM2: the
head drawn equals the lazy reading's, the thumbnails and sink shares equal the backend's, the
first token hidden renormalises the rows, and a family that cannot read lazily says so."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from attnviz.app import long as long_store
from attnviz.app import model as app_model
from attnviz.figures.grid import thumbnail_side
from attnviz.figures.matrix import weight_number
from attnviz.head_stats import sink_share
from attnviz.lessons.model_controls import view as model_controls
from attnviz.lessons.model_heads import view as model_heads
from attnviz.lessons.model_long import view as model_long
from attnviz.transformer import lazy, models
from attnviz.transformer.encoder import Encoder
from tests import families
from tests.apptest import chart, open_page, texts_of, z_of
from tests.plotly_data import decode, grid_block

MODEL = "pages/8_Model_attention.py"
INDUCTION = "The cat sat on the mat. The dog sat on the rug. The cat sat on the"
TEXT = " ".join(families.corpus()[:12])  # 181 SmolLM2 tokens: a heatmap, not an image


def _long_page(text: str = TEXT):
    at = open_page(MODEL)
    at.selectbox(key=app_model.MODEL.key).set_value(models.SMOLLM2).run(timeout=120)
    at.toggle(key=model_controls.LONG.key).set_value(True).run()
    at.text_area(key=model_long.LONG_TEXT.key).input(text).run(timeout=120)
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_long_input_shows_the_lazy_head_thumbnails_and_sinks(smol: Encoder) -> None:
    long_store.clear()
    at = _long_page()
    reading = smol.encode(TEXT, lazy=True)
    assert reading.lazy is not None
    np.testing.assert_allclose(z_of(at, "view_long_head"), reading.head_attention(0, 0), atol=1e-5)
    at.selectbox(key=model_controls.LAYER.key).set_value(7).run()
    at.selectbox(key=model_controls.HEAD.key).set_value(4).run()
    np.testing.assert_allclose(z_of(at, "view_long_head"), reading.head_attention(7, 4), atol=1e-5)
    thumbs, sink = lazy.thumbnails(reading.lazy, thumbnail_side(30, 9))
    grid = chart(at, model_long.LONG_GRID)["data"]
    np.testing.assert_allclose(grid_block(grid[0]["z"], 30, 9, 7, 4), thumbs[7, 4], atol=1e-5)
    captions = " ".join(c.value for c in at.caption)
    assert f"Layer 7, head 4 gives the first token {float(sink[7, 4]):.1%}" in captions
    assert f"{len(reading.tokens):,} tokens read in one pass" in captions
    # With every row read, the sampled shares are the exact ones.
    eager = smol.encode(TEXT, max_length=512)
    _, exact = lazy.thumbnails(reading.lazy, 27, per_band=len(reading.tokens))
    torch.testing.assert_close(exact, sink_share(eager.every_attention()), atol=1e-5, rtol=0)
    # The first token hidden: rows 1.. over keys 1.., each divided by its sum.
    at.toggle(key="model_long_hide_first").set_value(True).run()
    weights = reading.head_attention(7, 4)[1:, 1:]
    np.testing.assert_allclose(
        z_of(at, "view_long_head"), weights / weights.sum(-1, keepdim=True), atol=1e-5
    )
    norms = chart(at, "view_long_norms")["data"][0]
    assert reading.residual_norms is not None
    np.testing.assert_allclose(decode(norms["y"]), reading.residual_norms[:, 0], rtol=1e-5)


def test_smollm2s_model_view_fits_the_figure_budget() -> None:
    assert thumbnail_side(30, 9) == 27 and thumbnail_side(6, 12) == 48


def test_the_sample_fills_the_box_and_reads_at_most_4096_tokens(smol: Encoder) -> None:
    text = model_long.sample_text()
    assert 25_000 < len(text) <= model_long.MAX_LONG_CHARS
    assert len(smol.tokenizer(text)["input_ids"]) > 4096  # more than the cap: the cut is said


def test_the_next_readings_wait_their_turn(smol: Encoder) -> None:
    long_store.clear()
    places: list[int] = []
    with long_store._turns._running:  # another session's reading is running
        import threading

        done: list[object] = []
        worker = threading.Thread(
            target=lambda: done.append(
                long_store.long_reading(smol, "A cat naps.", 64, waiting=places.append)
            )
        )
        worker.start()
        worker.join(timeout=1.0)
        assert not done and places and places[-1] == 0  # first in line, waiting
    worker.join(timeout=60)
    assert done and len(done[0].tokens) == 5  # type: ignore[attr-defined]
    assert long_store.stored_bytes() > 0


def test_the_store_keeps_to_its_byte_cap(smol: Encoder, monkeypatch: pytest.MonkeyPatch) -> None:
    long_store.clear()
    first = long_store.long_reading(smol, "One cat naps on a warm mat today.", 64)
    size = long_store.reading_bytes(first)
    monkeypatch.setenv(long_store.CACHE_ENV, str(int(size * 1.5)))
    long_store.long_reading(smol, "Two dogs run along the beach at dawn.", 64)
    assert long_store.stored_bytes() <= size * 1.5  # the first was dropped for the second
    again = long_store.long_reading(smol, "One cat naps on a warm mat today.", 64)
    assert again is not first


def test_a_family_that_cannot_read_lazily_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    families.make("deberta-v2", tmp_path / "deberta-v2")
    monkeypatch.setenv(models.ROOTS_VARIABLE, f"tiny={tmp_path}")
    at = open_page(MODEL)
    at.selectbox(key=app_model.MODEL.key).set_value("tiny/deberta-v2").run()
    at.toggle(key=model_controls.LONG.key).set_value(True).run()
    at.text_area(key=model_long.LONG_TEXT.key).input(TEXT).run()
    assert not at.exception, [e.value for e in at.exception]
    assert "cannot be read lazily" in texts_of(at)


def test_a_short_reading_shows_the_sinks_and_hides_the_first_token(smol: Encoder) -> None:
    at = open_page(MODEL)
    at.selectbox(key=app_model.MODEL.key).set_value(models.SMOLLM2).run(timeout=120)
    at.text_area(key=model_controls.SENTENCE_A.key).input(INDUCTION).run()
    at.text_area(key=model_controls.SENTENCE_B.key).input("").run()
    encoded = smol.encode(INDUCTION, max_length=512)
    shares = sink_share(encoded.every_attention())
    np.testing.assert_allclose(z_of(at, "view_sink"), shares, atol=1e-6)
    assert float(shares[2:].mean()) > 0.3  # SmolLM2's sink, past its first two layers
    assert encoded.residual_norms is not None
    norms = decode(chart(at, "view_norms")["data"][0]["y"])
    np.testing.assert_allclose(norms, encoded.residual_norms[:, 0], rtol=1e-5)
    at.toggle(key=model_controls.HIDE.key).set_value(True).run()  # "Hide the first token"
    at.toggle(key=model_controls.RENORM.key).set_value(True).run()
    weights = encoded.every_attention()[0, 0, 1:, 1:]
    np.testing.assert_allclose(
        z_of(at, "view_head"), weights / weights.sum(-1, keepdim=True), atol=1e-5
    )
    assert "The first token took on average" in " ".join(c.value for c in at.caption)


def test_a_clicked_token_keeps_only_its_lines() -> None:
    at = open_page(MODEL)
    at.session_state[model_heads.LINES_TOKEN] = 2
    at.session_state[model_heads.LINES_SIDE] = 0  # the third query token, as a click writes it
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    lines = [t for t in chart(at, model_heads.LINES_CHART)["data"] if t["mode"] == "lines"]
    starts = {y for trace in lines for y in decode(trace["y"])[0::3]}
    assert starts == {2.0}  # every line drawn leaves query 2
    assert "Only the lines of" in " ".join(c.value for c in at.caption)
    at.button(key="model_lines_all").click().run()
    lines = [t for t in chart(at, model_heads.LINES_CHART)["data"] if t["mode"] == "lines"]
    assert len({y for trace in lines for y in decode(trace["y"])[0::3]}) > 1


def test_the_neuron_view_starts_on_the_last_shown_token_and_writes_weights_as_cells() -> None:
    at = open_page(MODEL)
    at.toggle(key=model_controls.HIDE.key).set_value(True).run()  # [CLS] and [SEP] hidden
    at.segmented_control(key=model_controls.VIEW.key).set_value("neuron").run()
    assert not at.exception, [e.value for e in at.exception]
    box = next(b for b in at.selectbox if b.label.startswith("Query token"))
    assert box.format_func(box.value).endswith(": tired")  # not [SEP], which is hidden
    labels = [b.label for b in at.get("download_button")]
    assert "The terms (CSV)" in labels and not any("(CSV) (CSV)" in label for label in labels)
    frame = at.dataframe[0].value
    assert frame["softmax"].between(0, 1).all()  # the numbers themselves stay whole
    import pyarrow as pa

    styler = at.dataframe[0].proto.arrow_data.styler
    shown = pa.ipc.open_stream(styler.display_values).read_all().to_pandas()
    expected = [weight_number(v) for v in frame["softmax"]]
    assert list(shown["softmax"]) == expected  # ".082", ".004"; "0" for a masked key only


def test_the_page_says_the_limit_of_the_reading_it_shows(smol: Encoder) -> None:
    at = open_page(MODEL)
    at.selectbox(key=app_model.MODEL.key).set_value(models.SMOLLM2).run(timeout=120)
    about = next(c.value for c in at.caption if "reads up to" in c.value)
    assert f"reads up to {smol.max_length:,} tokens" in about  # a sentence or a pair: 512
    at.toggle(key=model_controls.LONG.key).set_value(True).run()
    about = next(c.value for c in at.caption if "reads up to" in c.value)
    assert smol.max_lazy_length == lazy.MAX_LAZY_TOKENS == 4096
    assert "reads up to 4,096 tokens" in about and "512" not in about


def test_the_neuron_table_keeps_a_small_weight_apart_from_a_masked_one(smol: Encoder) -> None:
    import pyarrow as pa

    at = open_page(MODEL)
    at.selectbox(key=app_model.MODEL.key).set_value(models.SMOLLM2).run(timeout=120)
    at.selectbox(key=model_controls.LAYER.key).set_value(1).run()  # head 0: three keys under 0.01
    at.session_state[model_controls.QUERY.key] = 5  # keys 6 and 7 are masked: weight 0
    at.segmented_control(key=model_controls.VIEW.key).set_value("neuron").run()
    assert not at.exception, [e.value for e in at.exception]
    frame = at.dataframe[0].value
    styler = at.dataframe[0].proto.arrow_data.styler
    shown = pa.ipc.open_stream(styler.display_values).read_all().to_pandas()
    for column in ("softmax", "model's weight"):
        pairs = list(zip(frame[column], shown[column], strict=True))
        assert [text for value, text in pairs if value == 0] == ["0"] * (len(pairs) - 6)
        small = [(value, text) for value, text in pairs if 0 < value < 0.01]
        assert small, pairs  # the page shows a weight under 0.01 ...
        for value, text in small:  # ... with its digits, not as the masked keys' 0
            assert text != "0" and float(text) == pytest.approx(value, rel=0.06)
