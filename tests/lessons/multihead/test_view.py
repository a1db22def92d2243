"""The multi-head page through AppTest: the figures hold the backend's numbers for every control."""

from __future__ import annotations

import re

import numpy as np
import torch

from attnviz.app import selection
from attnviz.heads import embed_tokens, multi_head_attention, positional_encoding
from attnviz.lessons.multihead import view
from tests.apptest import chart, open_page, panel_z_of
from tests.plotly_data import annotation_texts, decode, panel_traces

PAGE = "pages/6_Multi_head.py"
DEFAULT_TOKENS = ["the", "cat", "sat", "on", "the", "mat"]


def reference(tokens, d_model=16, heads=4, positional=True, causal=False, seed=0):
    """The page's numbers computed straight from the backend."""
    pe = positional_encoding(len(tokens), d_model)
    x = embed_tokens(tokens, d_model, seed) + (pe if positional else 0)
    return pe, x, multi_head_attention(x, num_heads=heads, seed=seed, causal=causal)


# Each matrix's chart and panel: heatmaps that change together are one figure of panels (the
# enlarged head is beside the thumbnails, panel 0).
PANELS = {
    name: (chart, panel)
    for chart, names in (
        (view.INPUTS_CHART, ("mh_pe", "mh_input")),
        (view.HEADS_CHART, ("mh_grid", "mh_enlarged")),
        (view.SLICES_CHART, ("mh_q", "mh_k", "mh_v")),
        (view.OUTPUTS_CHART, ("mh_concat", "mh_output")),
    )
    for panel, name in enumerate(names)
}


def z_of(at, name: str) -> np.ndarray:
    """The matrix `name` ("mh_pe", ...) as the page drew it, in its chart's panel."""
    return panel_z_of(at, *PANELS[name])


def thumbnails(at) -> list[dict]:
    return [d for d in panel_traces(chart(at, view.HEADS_CHART), 0) if d["type"] == "heatmap"]


def enlarged(at) -> tuple[dict, dict]:
    """The enlarged head's heatmap and the layout of its axes, {"x": ..., "y": ...}."""
    drawn = chart(at, view.HEADS_CHART)
    heat = panel_traces(drawn, 1)[0]
    layout = drawn["layout"]
    return heat, {n: layout[f"{n}axis{heat[n + 'axis'][1:]}"] for n in ("x", "y")}


def shown(weights: np.ndarray, mask) -> np.ndarray:
    """The weights as the page draws them: masked cells are gaps (NaN)."""
    return weights if mask is None else np.where(mask, weights, np.nan)


def assert_page_matches(at, tokens, head=0, **kwargs) -> None:
    assert not at.exception, [e.value for e in at.exception]
    pe, x, result = reference(tokens, **kwargs)
    heads = result.weights.shape[0]
    weights = result.weights.numpy()
    masks = [None] * heads if result.mask is None else list(result.mask.numpy())
    thumbs = thumbnails(at)
    assert len(thumbs) == heads
    for h in range(heads):
        np.testing.assert_allclose(
            decode(thumbs[h]["z"]), shown(weights[h], masks[h]), rtol=1e-5, atol=1e-7
        )
    markers = [d for d in chart(at, view.HEADS_CHART)["data"] if d.get("name") == "heads"]
    assert [list(m["customdata"][0]) for m in markers] == [[0, h] for h in range(heads)]
    big = z_of(at, "mh_enlarged")
    np.testing.assert_allclose(big, shown(weights[head], masks[head]), rtol=1e-5, atol=1e-7)
    assert f"Head {head} weights" in annotation_texts(chart(at, view.HEADS_CHART))
    assert at.segmented_control(key=view.HEAD.key).value == head
    np.testing.assert_allclose(z_of(at, "mh_pe"), pe, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(z_of(at, "mh_input"), x, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(z_of(at, "mh_concat"), result.concat, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(z_of(at, "mh_output"), result.output, rtol=1e-5, atol=1e-6)


def test_defaults_show_the_backend_heads_and_output():
    at = open_page(PAGE)
    assert_page_matches(at, DEFAULT_TOKENS)
    weights, axes = enlarged(at)
    ticks = axes["y"]["ticktext"]
    assert ticks == ["the", "cat", "sat", "on", "the (2)", "mat"]
    pe = panel_traces(chart(at, view.INPUTS_CHART), 0)[0]
    assert pe["colorscale"][0][1] != weights["colorscale"][0][1]
    # The concatenation marks the 3 boundaries between 4 heads of 4 columns.
    lines = [s["x0"] for s in chart(at, view.OUTPUTS_CHART)["layout"]["shapes"]]
    assert lines == [3.5, 7.5, 11.5]
    assert "differ" in at.info[0].value
    latex = " ".join(e.value for e in at.get("latex"))
    assert r"d_{\mathrm{head}} = d_{\mathrm{model}} / h = 16 / 4 = 4" in latex
    assert r"\mathbb{R}^{6 \times 16}" in latex
    # Four heads in one row of thumbnails, numbered from 0 like the enlarged head.
    grid = chart(at, view.HEADS_CHART)["layout"]
    heads = [a["text"] for a in grid["annotations"] if a["text"].startswith("head ")]
    assert heads == ["head 0", "head 1", "head 2", "head 3"]
    assert {tuple(grid[f"yaxis{s}"]["domain"]) for s in ("", "2", "3", "4")} == {
        tuple(grid["yaxis"]["domain"])
    }
    assert "Head 0 is enlarged on the right." in [c.value for c in at.caption]
    assert not [c for c in at.get("plotly_chart") if c.proto.id.endswith("-mh_slices")]


def test_the_formulas_carry_the_biases_and_count_heads_from_0():
    at = open_page(PAGE)
    latex = " ".join(e.value for e in at.get("latex"))
    assert r"\mathrm{Concat}(\mathrm{head}_0, \dots, \mathrm{head}_{h-1})\, W_o + b_o" in latex
    assert r"Q_i = X W_q^{(i)} + b_q^{(i)}, \quad K_i = X W_k^{(i)} + b_k^{(i)}" in latex
    assert r"V_i = X W_v^{(i)} + b_v^{(i)}, \qquad i = 0, \dots, h-1" in latex
    assert r"b_q^{(i)}, b_k^{(i)}, b_v^{(i)} \in \mathbb{R}^{4}" in latex
    assert r"b_o \in \mathbb{R}^{16}" in latex
    assert "head_1" not in latex and "head}_1" not in latex
    notes = " ".join(m.value for m in at.markdown)
    assert "Heads are counted from 0" in notes and "head₁, …, head_h" in notes
    assert "set to $-10^6$" not in notes  # the causal mask's note, for a causal layer only
    # The last row of the enlarged head's weights, here head 0's.
    _, _, result = reference(DEFAULT_TOKENS)
    assert f"{result.weights[0, 5, 0].item():.3g}" in latex
    assert r"(Q_{0})_{5}\, K_{0}^\top" in latex


def test_choosing_a_head_enlarges_it_and_leaves_the_thumbnails_as_they_were():
    at = open_page(PAGE)
    grid = panel_traces(chart(at, view.HEADS_CHART), 0)
    at.segmented_control(key=view.HEAD.key).set_value(2).run()
    assert_page_matches(at, DEFAULT_TOKENS, head=2)
    assert panel_traces(chart(at, view.HEADS_CHART), 0) == grid  # the thumbnails as they were
    assert "Head 2 is enlarged on the right." in [c.value for c in at.caption]
    _, _, result = reference(DEFAULT_TOKENS)
    latex = " ".join(e.value for e in at.get("latex"))
    assert r"(Q_{2})_{5}\, K_{2}^\top" in latex
    assert f"{result.weights[2, 5, 1].item():.3g}" in latex
    assert at.query_params["head"] == "2"


def test_a_head_beyond_a_smaller_h_goes_back_to_head_0():
    at = open_page(PAGE)
    at.selectbox(key=view.HEADS.key).set_value(8).run()
    at.segmented_control(key=view.HEAD.key).set_value(6).run()
    assert_page_matches(at, DEFAULT_TOKENS, heads=8, head=6)
    at.selectbox(key=view.HEADS.key).set_value(2).run()
    assert_page_matches(at, DEFAULT_TOKENS, heads=2, head=0)
    assert at.segmented_control(key=view.HEAD.key).options == ["0", "1"]


def test_eight_heads_are_two_rows_of_four_in_one_figure():
    at = open_page(PAGE)
    at.selectbox(key=view.HEADS.key).set_value(8).run()
    assert_page_matches(at, DEFAULT_TOKENS, heads=8)
    layout = chart(at, view.HEADS_CHART)["layout"]
    assert layout["height"] >= 2 * (150 + 24) + 70  # the thumbnails' two rows, or the enlarged
    tops = [layout[f"yaxis{'' if h == 0 else h + 1}"]["domain"][1] for h in range(8)]
    lefts = [layout[f"xaxis{'' if h == 0 else h + 1}"]["domain"][0] for h in range(8)]
    assert tops[:4] == [tops[0]] * 4 and tops[4:] == [tops[4]] * 4 and tops[4] < tops[0]
    assert lefts[4:] == lefts[:4]
    # One figure of the grid and the enlarged head instead of nine heatmaps.
    keys = [c.proto.id.rsplit("-", 1)[-1] for c in at.get("plotly_chart")]
    assert keys == ["mh_inputs", "mh_grid", "mh_outputs"]


def test_the_heads_q_k_v_are_drawn_when_their_expander_opens():
    at = open_page(PAGE)
    at.segmented_control(key=view.HEAD.key).set_value(1).run()
    at.session_state[view.SLICES_OPEN] = True
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    _, x, result = reference(DEFAULT_TOKENS)
    p = result.params
    cols = slice(4, 8)  # head 1 of 4, d_head = 4
    q, k, v = (x @ p[f"W_{n}"][:, cols] + p[f"b_{n}"][cols] for n in "qkv")
    for name, matrix in (("mh_q", q), ("mh_k", k), ("mh_v", v)):
        np.testing.assert_allclose(z_of(at, name), matrix, rtol=1e-5, atol=1e-6)
    assert "Q_1 = X W_q^(1) + b_q^(1)" in annotation_texts(chart(at, view.SLICES_CHART))
    # These are the head's own: softmax(Q K^T / sqrt(4)) are its weights.
    weights = torch.softmax(q @ k.T / 2, dim=-1)
    np.testing.assert_allclose(weights, result.weights[1], rtol=1e-5, atol=1e-6)


def test_heads_and_d_model_change_the_data():
    at = open_page(PAGE)
    at.selectbox(key=view.HEADS.key).set_value(2).run()
    assert_page_matches(at, DEFAULT_TOKENS, heads=2)
    at.selectbox(key=view.D_MODEL.key).set_value(32).run()
    assert_page_matches(at, DEFAULT_TOKENS, d_model=32, heads=2)
    assert z_of(at, "mh_output").shape == (6, 32)
    at.selectbox(key=view.HEADS.key).set_value(8).run()
    assert_page_matches(at, DEFAULT_TOKENS, d_model=32, heads=8)
    at.number_input(key=view.SEED.key).set_value(3).run()
    assert_page_matches(at, DEFAULT_TOKENS, d_model=32, heads=8, seed=3)


def test_sentence_changes_the_tokens():
    at = open_page(PAGE)
    at.text_input(key=view.SENTENCE.key).input("A dog chased a  Ball").run()
    assert_page_matches(at, ["a", "dog", "chased", "a", "ball"])
    assert enlarged(at)[1]["x"]["ticktext"][3] == "a (2)"


def test_without_positions_the_two_thes_get_identical_rows():
    at = open_page(PAGE)
    at.toggle(key=view.POSITIONAL.key).set_value(False).run()
    assert_page_matches(at, DEFAULT_TOKENS, positional=False)
    for thumbnail in thumbnails(at):
        z = decode(thumbnail["z"])
        np.testing.assert_allclose(z[0], z[4], rtol=0, atol=1e-7)
        # ... and identical columns: a key's weight does not depend on where it stands.
        np.testing.assert_allclose(z[:, 0], z[:, 4], rtol=0, atol=1e-7)
    np.testing.assert_allclose(z_of(at, "mh_output")[0], z_of(at, "mh_output")[4], atol=1e-6)
    assert "identical rows of weights" in at.warning[0].value
    assert "Input X = embeddings (no positions)" in annotation_texts(chart(at, view.INPUTS_CHART))


def test_causal_masks_the_future():
    at = open_page(PAGE)
    at.toggle(key=view.CAUSAL.key).set_value(True).run()
    assert_page_matches(at, DEFAULT_TOKENS, causal=True)
    z = z_of(at, "mh_enlarged")
    np.testing.assert_array_equal(np.isnan(z), ~np.tril(np.ones((6, 6), bool)))
    np.testing.assert_allclose(z[0, 0], 1.0)
    cells = np.asarray(enlarged(at)[0]["text"], dtype=object)
    assert set(cells[~np.tril(np.ones((6, 6), bool))]) == {"0"}  # masked weights, written
    for thumbnail in thumbnails(at):  # masked cells are gaps in the thumbnails too
        np.testing.assert_array_equal(
            np.isnan(decode(thumbnail["z"])), ~np.tril(np.ones((6, 6), bool))
        )
    assert "set to $-10^6$ before the softmax" in " ".join(m.value for m in at.markdown)
    # Without positions, the causal mask alone tells the two "the" apart.
    at.toggle(key=view.POSITIONAL.key).set_value(False).run()
    assert_page_matches(at, DEFAULT_TOKENS, causal=True, positional=False)
    assert "causal mask itself" in at.info[0].value


def test_bad_combination_shows_a_clear_error_and_keeps_the_choice():
    at = open_page(PAGE)
    at.selectbox(key=view.HEADS.key).set_value(3).run()
    assert not at.exception
    message = re.sub(r"\\(.)", r"\1", at.error[0].value)  # without markdown escapes
    assert "d_model = 16 cannot be split into 3 heads" in message
    assert "divisible" in message and "1, 2, 4, 8" in message
    assert not at.get("plotly_chart")
    assert at.selectbox(key=view.HEADS.key).value == 3
    at.selectbox(key=view.D_MODEL.key).set_value(12).run()
    assert not at.error
    assert_page_matches(at, DEFAULT_TOKENS, d_model=12, heads=3)


def test_empty_and_long_sentences():
    at = open_page(PAGE)
    at.text_input(key=view.SENTENCE.key).input("   ").run()
    assert not at.exception
    assert "The sentence is empty" in at.error[0].value
    assert at.text_input(key=view.SENTENCE.key).value == "   "
    words = [f"w{i}" for i in range(40)]
    at.text_input(key=view.SENTENCE.key).input(" ".join(words)).run()
    assert "40 tokens: only the first 32" in at.info[0].value
    assert_page_matches(at, words[:32])
    assert z_of(at, "mh_enlarged").shape == (32, 32)


def test_a_click_on_a_thumbnail_of_the_panelled_figure_enlarges_that_head():
    at = open_page(PAGE)
    drawn = chart(at, view.HEADS_CHART)
    start, stop = drawn["layout"]["meta"]["traces"][0]
    markers = [(i, d) for i, d in enumerate(drawn["data"]) if d.get("name") == "heads"]
    assert [start <= i < stop for i, _ in markers] == [True] * 4  # on the thumbnails' panel
    curve, marker = markers[3]
    # The point Plotly reports for a click on thumbnail 3, and one on the enlarged head.
    point = {"curve_number": curve, "point_index": 0, "customdata": list(marker["customdata"][0])}
    assert selection.selected_head({"selection": {"points": [point]}}) == (0, 3)
    heat = panel_traces(drawn, 1)[0]
    cell = {"curve_number": drawn["data"].index(heat), "x": 2, "y": 1, "customdata": "row"}
    assert selection.selected_head({"selection": {"points": [cell]}}) is None
    # What the chart's on_select stores: head 3 becomes the enlarged one.
    at.session_state[view.HEAD.key] = 3
    at.run()
    assert_page_matches(at, DEFAULT_TOKENS, head=3)
