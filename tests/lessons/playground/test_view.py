"""The Playground through AppTest: no exception, the right figures with the right data, errors
kept."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from attnviz import inputs as examples
from attnviz.app import matrix_input as inputs
from attnviz.app import selection
from attnviz.attention import attend, causal_mask
from attnviz.lessons.playground import view as pg
from tests.apptest import chart, open_page, panel_z_of, small_inputs
from tests.plotly_data import decode, panel_click, panel_traces


def z_of(at, name: str) -> np.ndarray:
    """The matrix `name` ("pg_weights", ...) as the page drew it, in its chart's panel."""
    return panel_z_of(at, *pg.PANELS[name])


def traces_of(at, name: str) -> list[dict]:
    """The traces of the panel that draws `name`."""
    key, panel = pg.PANELS[name]
    return panel_traces(chart(at, key), panel)


def shapes_of(at, name: str) -> list[dict]:
    """The shapes drawn on the panel that draws `name` (on its axes)."""
    key, _ = pg.PANELS[name]
    xaxis = traces_of(at, name)[0].get("xaxis", "x")
    return [s for s in chart(at, key)["layout"]["shapes"] if s.get("xref") == xaxis]


def test_playground_default_matches_the_backend():
    at = open_page("pages/1_Playground.py")
    q, k, v = small_inputs()
    expected = attend(q, k, v)
    np.testing.assert_allclose(z_of(at, "pg_scores"), expected.scores, rtol=1e-5)
    np.testing.assert_allclose(z_of(at, "pg_weights"), expected.weights, rtol=1e-5)
    np.testing.assert_allclose(z_of(at, "pg_output"), expected.output, rtol=1e-5)
    np.testing.assert_allclose(z_of(at, "pg_values"), v, rtol=1e-6)
    assert "sums to 1" in at.success[0].value
    keys = [button.key for button in at.get("download_button")]
    assert len([k for k in keys if k.startswith("download_pg_")]) == 4  # the matrices as CSV
    charts = [c.proto.id.rsplit("-", 1)[-1] for c in at.get("plotly_chart")]
    assert charts == [pg.STEPS_CHART, "pg_breakdown"]
    assert {f"png_{c}" for c in charts} | {f"html_{c}" for c in charts} <= set(keys)
    assert "pg_state_save" in keys


@pytest.mark.parametrize("score", ["dot", "cosine", "general", "additive", "gaussian"])
def test_changing_the_scoring_function_changes_the_scores(score):
    at = open_page("pages/1_Playground.py")
    at.selectbox(key=pg.SCORE.key).set_value(score).run()
    assert not at.exception, [e.value for e in at.exception]
    q, k, v = small_inputs()
    params = {"additive": {"h": 8, "seed": 0}, "general": {"seed": 0}}.get(score, {})
    expected = attend(q, k, v, score=score, params=params)
    np.testing.assert_allclose(z_of(at, "pg_scores"), expected.scores, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(z_of(at, "pg_weights"), expected.weights, rtol=1e-5, atol=1e-6)


def test_masks_and_temperature_reach_the_figures():
    at = open_page("pages/1_Playground.py")
    at.toggle(key=pg.CAUSAL.key).set_value(True).run()
    at.text_input(key=pg.VALID_LENS.key).input("2").run()
    at.slider(key=pg.TEMPERATURE.key).set_value(0.5).run()
    assert not at.exception, [e.value for e in at.exception]
    q, k, v = small_inputs()
    expected = attend(q, k, v, mask=causal_mask(3, 4), valid_lens=torch.tensor(2), temperature=0.5)
    weights = z_of(at, "pg_weights")
    allowed = expected.mask.numpy()
    assert np.isnan(weights[~allowed]).all()
    np.testing.assert_allclose(weights[allowed], expected.weights.numpy()[allowed], rtol=1e-5)
    np.testing.assert_allclose(z_of(at, "pg_output"), expected.output, rtol=1e-5, atol=1e-7)
    masked = z_of(at, "pg_masked_scores")
    np.testing.assert_allclose(masked[allowed], expected.masked_scores.numpy()[allowed], rtol=1e-5)


def test_fully_masked_row_is_explained():
    at = open_page("pages/1_Playground.py")
    at.text_input(key=pg.VALID_LENS.key).input("0, 2, 4").run()
    assert "uniform" in at.info[0].value
    at.selectbox(key=pg.FILL.key).set_value(float("-inf")).run()
    assert "all zero" in at.info[0].value
    weights = z_of(at, "pg_weights")
    assert np.isnan(weights[0]).all() and not np.isnan(weights[2]).any()


def test_new_inputs_change_the_result():
    at = open_page("pages/1_Playground.py")
    at.toggle(key=inputs.SELF_ATTENTION).set_value(True).run()
    at.text_area(key=inputs.TEXTS["queries"]).input("1, 0\n0, 2").run()
    assert not at.exception, [e.value for e in at.exception]
    q = torch.tensor([[1.0, 0.0], [0.0, 2.0]])
    np.testing.assert_allclose(z_of(at, "pg_weights"), attend(q, q, q).weights, rtol=1e-5)


def test_the_preset_box_says_when_the_boxes_hold_other_matrices():
    at = open_page("pages/1_Playground.py")
    other = "The boxes hold other matrices than this preset's"
    assert not any(other in c.value for c in at.caption)
    at.text_area(key="qkv_text_queries").input("1, 2\n3, 4\n5, 6").run()
    assert any(other in c.value for c in at.caption)
    at.button(key="qkv_preset_apply").click().run()
    assert not any(other in c.value for c in at.caption)


def test_bad_input_shows_an_error_and_keeps_the_text():
    at = open_page("pages/1_Playground.py")
    bad = "1, 2\n3, x"
    at.text_area(key=inputs.TEXTS["queries"]).input(bad).run()
    assert not at.exception
    assert "Row 2, column 2" in at.error[0].value and "'x'" in at.error[0].value
    assert at.text_area(key=inputs.TEXTS["queries"]).value == bad
    assert not at.get("plotly_chart")
    assert at.selectbox(key=pg.SCORE.key).value == "scaled_dot"  # the sidebar stays


def test_sizes_that_do_not_fit_suggest_additive_scoring():
    at = open_page("pages/1_Playground.py")
    at.text_area(key=inputs.TEXTS["keys"]).input("1, 0, 1\n0, 1, 1\n1, 1, 1\n0, 0, 1").run()
    assert "additive" in at.error[0].value and "3 columns" in at.error[0].value
    at.selectbox(key=pg.SCORE.key).set_value("additive").run()
    assert not at.error and not at.exception
    assert z_of(at, "pg_weights").shape == (3, 4)


def test_random_inputs_are_seeded():
    at = open_page("pages/1_Playground.py")
    at.get("button_group")[0].set_value("random").run()
    assert not at.exception, [e.value for e in at.exception]
    q, k, v = inputs.random_inputs(6, 8, 4, 4, 3, 0)
    np.testing.assert_allclose(z_of(at, "pg_weights"), attend(q, k, v).weights, rtol=1e-5)
    at.number_input(key=inputs.RANDOM["seed"]).set_value(7).run()
    q, k, v = inputs.random_inputs(6, 8, 4, 4, 3, 7)
    np.testing.assert_allclose(z_of(at, "pg_weights"), attend(q, k, v).weights, rtol=1e-5)


def test_inputs_survive_a_visit_to_another_page():
    at = open_page("pages/1_Playground.py")
    at.text_area(key=inputs.TEXTS["queries"]).input("2, 0\n0, 2\n1, 1").run()
    at.selectbox(key=pg.SCORE.key).set_value("dot").run()
    at.switch_page("dashboard.py").run()
    at.switch_page("pages/1_Playground.py").run()
    assert at.text_area(key=inputs.TEXTS["queries"]).value == "2, 0\n0, 2\n1, 1"
    assert at.selectbox(key=pg.SCORE.key).value == "dot"


def test_breakdown_follows_the_chosen_query():
    at = open_page("pages/1_Playground.py")
    at.selectbox(key="pg_query").set_value(2).run()
    fig = chart(at, "pg_breakdown")
    q, k, v = small_inputs()
    expected = attend(q, k, v)
    weights = next(d for d in fig["data"] if d.get("name") == "weight")
    np.testing.assert_allclose(decode(weights["y"]), expected.weights[2], rtol=1e-5)
    table = decode(next(d for d in fig["data"] if d["type"] == "heatmap")["z"])
    np.testing.assert_allclose(table[-1], expected.output[2], rtol=1e-5)
    assert "q2" in fig["layout"]["title"]["text"]


def test_reset_brings_back_the_defaults():
    at = open_page("pages/1_Playground.py")
    at.text_area(key=inputs.TEXTS["queries"]).input("5, 5").run()
    at.toggle(key=pg.CAUSAL.key).set_value(True).run()
    at.button(key="qkv_reset").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert (
        at.text_area(key=inputs.TEXTS["queries"]).value
        == examples.PRESETS[examples.DEFAULT_PRESET].queries
    )
    assert at.toggle(key=pg.CAUSAL.key).value is False
    q, k, v = small_inputs()
    np.testing.assert_allclose(z_of(at, "pg_weights"), attend(q, k, v).weights, rtol=1e-5)


def test_textbook_preset_spreads_weight_over_the_valid_keys():
    at = open_page("pages/1_Playground.py")
    at.selectbox(key=inputs.PRESET).set_value("textbook").run()
    at.button(key="qkv_preset_apply").click().run()
    assert not at.exception, [e.value for e in at.exception]
    weights = z_of(at, "pg_weights")
    assert weights.shape == (1, 10)
    np.testing.assert_allclose(weights[0, :2], [0.5, 0.5], rtol=1e-6)  # valid length 2
    assert np.isnan(weights[0, 2:]).all()
    np.testing.assert_allclose(z_of(at, "pg_output")[0], [2, 3, 4, 5], rtol=1e-6)


def test_random_self_attention_uses_the_queries_three_times():
    at = open_page("pages/1_Playground.py")
    at.get("button_group")[0].set_value("random").run()
    at.toggle(key=inputs.SELF_ATTENTION).set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    q, _, _ = inputs.random_inputs(6, 6, 4, 4, 1, 0)
    np.testing.assert_allclose(z_of(at, "pg_output"), attend(q, q, q).output, rtol=1e-5)


def test_masked_values_are_written_unless_crossed_out():
    at = open_page("pages/1_Playground.py")
    at.text_input(key=pg.VALID_LENS.key).input("0, 2, 4").run()
    cells = np.asarray(traces_of(at, "pg_masked_scores")[0]["text"], dtype=object)
    assert list(cells[0]) == ["-1e6"] * 4 and list(cells[1, 2:]) == ["-1e6"] * 2
    weights = np.asarray(traces_of(at, "pg_weights")[0]["text"], dtype=object)
    assert list(weights[0]) == [".25"] * 4  # the uniform 1/m of a fully masked row
    assert list(weights[1, 2:]) == ["0", "0"]
    at.toggle(key=pg.SHOW_MASKED.key).set_value(False).run()
    masked = traces_of(at, "pg_masked_scores")
    assert list(np.asarray(masked[0]["text"], dtype=object)[0]) == [""] * 4
    assert masked[1]["text"] == "×"
    assert at.query_params["shown"] == "0"


def test_the_selection_is_outlined_on_every_chart_and_in_the_formulas():
    at = open_page("pages/1_Playground.py")
    at.session_state[pg.QUERY], at.session_state[pg.KEY] = 1, 2  # as a click on (q1, k2)
    at.text_input(key=pg.VALID_LENS.key).input("2").run()
    for name in ("pg_scores", "pg_masked_scores", "pg_weights"):
        shapes = shapes_of(at, name)
        assert [(s["y0"], s["x0"]) for s in shapes] == [(0.5, -0.5), (0.5, 1.5)], name
    assert [s["y0"] for s in shapes_of(at, "pg_values")] == [1.5]
    assert [s["y0"] for s in shapes_of(at, "pg_output")] == [0.5]
    bars = [d for d in chart(at, "pg_breakdown")["data"] if d["type"] == "bar"]
    assert all(decode(b["marker"]["line"]["width"]).tolist() == [0, 0, 3, 0] for b in bars)
    latex = [e.value.strip("$\n") for e in at.get("latex")]
    assert any(line.startswith(r"\tilde s_{1\cdot} = ") for line in latex)
    assert any(r"\operatorname{softmax}(\tilde s_{1\cdot})" in line for line in latex)


def test_a_click_on_any_step_panel_selects_its_query_and_key():
    at = open_page("pages/1_Playground.py")
    drawn = chart(at, pg.STEPS_CHART)
    cells = drawn["layout"]["meta"]["cells"]
    assert cells[3:] == [None, None]  # the values and the outputs take no clicks
    assert all(drawn["data"][c]["name"] == "cells" for c in cells[:3])
    q, k, v = small_inputs()
    expected = attend(q, k, v)
    for panel, (row, col) in enumerate([(2, 3), (1, 0), (0, 2)]):
        # The point Plotly reports for a click on that cell of that panel's overlay.
        clicked = panel_click(drawn, panel, row, col)
        picked = selection.selected_panel_cell(clicked, cells)
        assert picked == (panel, row, col)
        # What the chart's on_select stores (selection.store_panel_click): query and key.
        at.session_state[pg.QUERY], at.session_state[pg.KEY] = picked[1:]
        at.run()
        assert not at.exception
        assert at.selectbox(key=pg.QUERY).value == row
        for name in ("pg_scores", "pg_masked_scores", "pg_weights"):
            boxed = [(s["y0"], s["x0"]) for s in shapes_of(at, name)]
            assert boxed == [(row - 0.5, -0.5), (row - 0.5, col - 0.5)], name
        weights = next(d for d in chart(at, "pg_breakdown")["data"] if d.get("name") == "weight")
        np.testing.assert_allclose(decode(weights["y"]), expected.weights[row], rtol=1e-5)
        assert f"{expected.weights[row, col]:.6g}" in " ".join(c.value for c in at.caption)
