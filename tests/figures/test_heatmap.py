"""Figure builders checked through their data: orientation, labels, escaping, masks."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from attnviz.attention import attend, causal_mask
from attnviz.figures import axes, grid, labels, marks, style
from attnviz.figures import heatmap as heatmaps
from tests import english as en
from tests.plotly_data import decode, figure_json, grid_block


@pytest.fixture
def result():
    gen = torch.Generator().manual_seed(0)
    q, k, v = torch.randn(3, 2, generator=gen), torch.randn(4, 2, generator=gen), torch.randn(4, 3)
    return attend(q, k, v, mask=causal_mask(3, 4))


def test_heatmap_reads_like_a_matrix():
    z = np.arange(6.0).reshape(2, 3)
    fig = en.heatmap(z, title="m", kind="scores")
    data = figure_json(fig)["data"][0]
    np.testing.assert_array_equal(decode(data["z"]), z)  # row 0 of z is row 0 of the figure
    np.testing.assert_array_equal(decode(data["y"]), [0, 1])
    np.testing.assert_array_equal(decode(data["x"]), [0, 1, 2])
    assert tuple(fig.layout.yaxis.range) == (1.5, -0.5)  # query 0 on top
    assert list(fig.layout.xaxis.ticktext) == ["k0", "k1", "k2"]
    assert list(fig.layout.yaxis.ticktext) == ["q0", "q1"]
    assert fig.layout.xaxis.title.text == "Keys" and fig.layout.yaxis.title.text == "Queries"


def test_repeated_tokens_stay_separate_rows():
    fig = en.heatmap(np.eye(3), title="w", kind="weights", row_labels=["the", "cat", "the"])
    assert list(fig.layout.yaxis.tickvals) == [0, 1, 2]
    assert list(fig.layout.yaxis.ticktext) == ["the", "cat", "the (2)"]
    assert labels.unique_labels(["a", "a", "a", "b"]) == ["a", "a (2)", "a (3)", "b"]


@pytest.mark.parametrize(
    ("label", "forbidden"),
    [
        ("<b>bold</b>", "<b>"),
        ("<img src=x onerror=alert(1)>", "<img"),
        ("%{z}", "%{z}"),
    ],
)
def test_user_labels_are_escaped(label, forbidden):
    fig = en.heatmap(
        np.ones((2, 2)),
        title=label,
        kind="scores",
        row_labels=[label, "b"],
        col_labels=["c", label],
    )
    spec = fig.to_json()
    assert forbidden not in spec
    assert fig.layout.yaxis.ticktext[0] == labels.escape_label(label)
    assert forbidden not in fig.data[0].customdata[0][1]
    assert labels.escape_label("<b>") == "&lt;b&gt;"
    assert labels.escape_label("%{z}") == "%&#123;z&#125;"


def test_masked_cells_are_labelled_gaps(result):
    fig = en.heatmap(
        result.weights,
        title="w",
        kind="weights",
        mask=result.mask,
        hover={"score": result.scores, "weight": result.weights},
    )
    z = decode(figure_json(fig)["data"][0]["z"])
    allowed = causal_mask(3, 4).numpy()
    assert np.isnan(z[~allowed]).all()  # gaps, not a colour (and never a NaN weight upstream)
    np.testing.assert_allclose(z[allowed], result.weights.numpy()[allowed], rtol=1e-6)
    hover = fig.data[0].customdata
    assert "masked" in hover[0][3] and "masked" not in hover[0][0]
    assert "query q2<br>key k1<br>score: " in hover[2][1]
    assert f"weight: {result.weights[2, 1].item():.4g}" in hover[2][1]
    marks = fig.data[1]
    assert marks.mode == "text" and set(marks.text) == {"×"}
    assert fig.layout.annotations[0].text == "× = masked"
    assert sorted(zip(marks.y, marks.x, strict=True)) == [
        (0, 1),
        (0, 2),
        (0, 3),
        (1, 2),
        (1, 3),
        (2, 3),
    ]


def test_masked_values_are_written_in_their_gaps():
    gen = torch.Generator().manual_seed(1)
    q, k = torch.randn(3, 2, generator=gen), torch.randn(6, 2, generator=gen)
    mask = causal_mask(3, 6) & torch.tensor([True, True, False, True, True, True])  # (3, 6)
    mask[0] = False  # a fully masked row: uniform 1/6 at a finite fill
    result = attend(q, k, torch.randn(6, 2, generator=gen), mask=mask)
    scores = en.heatmap(
        result.masked_scores, title="s", kind="scores", mask=mask, masked_values=True
    )
    weights = en.heatmap(result.weights, title="w", kind="weights", mask=mask, masked_values=True)
    blocked = ~mask.numpy()
    assert np.isnan(decode(figure_json(scores)["data"][0]["z"])[blocked]).all()  # still gaps
    assert set(np.asarray(scores.data[0].text)[blocked]) == {"-1e6"}
    cells = np.asarray(weights.data[0].text)
    assert list(cells[0]) == [".17"] * 6  # 1/m of the fully masked row
    assert cells[1, 2] == "0" and cells[2, 4] == "0"
    assert cells[1, 1] == f"{result.weights[1, 1].item():.2g}".replace("0.", ".", 1)
    assert len(scores.data) == 1  # no × marks over the numbers
    assert scores.layout.annotations[0].text.endswith("= masked, value shown")
    crossed = en.heatmap(result.masked_scores, title="s", kind="scores", mask=mask)
    assert set(crossed.data[1].text) == {"×"} and set(
        np.asarray(crossed.data[0].text)[blocked]
    ) == {""}


def test_a_matrix_masked_everywhere_is_drawn_grey_with_its_numbers():
    """Plotly draws nothing of an all-NaN heatmap: such a matrix gets grey cells instead."""
    mask = torch.zeros(3, 4, dtype=torch.bool)
    result = attend(torch.ones(3, 2), torch.ones(4, 2), torch.ones(4, 1), mask=mask)
    fig = en.heatmap(result.weights, title="w", kind="weights", mask=mask, masked_values=True)
    trace = fig.data[0]
    assert not np.isnan(np.asarray(trace.z, dtype=float)).any()
    assert {c for _, c in trace.colorscale} == {"#bdbdbd"} and trace.showscale is False
    assert set(np.asarray(trace.text).flat) == {".25"}
    assert all("masked" in cell for cell in np.asarray(trace.customdata).flat)
    half = en.heatmap(
        result.weights[:2],
        title="w",
        kind="weights",
        mask=mask[:2] | torch.eye(2, 4, dtype=torch.bool),
    )
    assert half.data[0].showscale is not False  # one allowed cell: the usual gaps and scale


def test_cell_numbers_share_one_format():
    from attnviz.figures.matrix import cell_number

    cases = {0.41: ".41", -0.495: "-.49", 0.7: ".7", 7.24: "7.2", 140.2: "140", -1e6: "-1e6"}
    cases |= {7.2e-07: "0", 0.0: "0", 0.999: "1", float("-inf"): "-inf", -1e9: "-1e9"}
    assert {value: cell_number(value) for value in cases} == cases


def test_a_table_writes_a_small_weight_with_its_digits_and_only_an_exact_0_as_0():
    from attnviz.figures.matrix import weight_number

    cases = {0.41: ".41", 0.041: ".041", 0.0234: ".023", 0.004: ".004", 0.00417: ".0042"}
    cases |= {4.1e-05: "4.1e-5", 7.2e-07: "7.2e-7", 0.0: "0", 1.0: "1", 0.0099: ".0099"}
    assert {value: weight_number(value) for value in cases} == cases


def test_the_selected_cell_is_boxed_and_its_row_framed():
    def zeros():
        return en.heatmap(np.zeros((3, 4)), title="s", kind="scores")

    fig = marks.select(zeros(), 2, 1)
    row, cell = fig.layout.shapes
    assert (row.y0, row.y1, row.x0, row.x1, row.line.dash) == (1.5, 2.5, -0.5, 3.5, "dot")
    assert (cell.y0, cell.y1, cell.x0, cell.x1, cell.line.dash) == (1.5, 2.5, 0.5, 1.5, None)
    only_row = marks.select(zeros(), 0)
    assert len(only_row.layout.shapes) == 1 and only_row.layout.shapes[0].y0 == -0.5
    assert not marks.select(zeros(), 5, 0).layout.shapes
    assert len(marks.select(zeros(), 1, 4).layout.shapes) == 1  # a column outside: the row


def test_a_mark_on_a_panel_names_its_axes():
    fig = marks.frame_row(en.heatmap(np.zeros((3, 4)), title="s", kind="scores"), 1)
    assert fig.layout.shapes[0].xref is None  # the first axes: Plotly's default
    fig.update_layout(xaxis2={"range": [-0.5, 1.5]}, yaxis2={"range": [4.5, -0.5]})
    assert marks.matrix_size(fig, "2") == (5, 2)
    shape = marks.select(fig, 4, axes="2").layout.shapes[-1]
    assert (shape.xref, shape.yref, shape.y0, shape.x0, shape.x1) == ("x2", "y2", 3.5, -0.5, 1.5)


def test_step_figures_share_the_selection(result):
    values = torch.arange(12.0).reshape(4, 3)
    labels = {"query_labels": ["a", "b", "c"], "key_labels": ["w", "x", "y", "z"]}
    for name in ("scores", "masked_scores", "weights"):
        fig = en.step_figure(result, values, name, selected=(1, 3), **labels)
        assert [(s.y0, s.x0) for s in fig.layout.shapes] == [(0.5, -0.5), (0.5, 2.5)], name
    values_fig = en.step_figure(result, values, "values", selected=(1, 3), **labels)
    assert [s.y0 for s in values_fig.layout.shapes] == [2.5]  # the key's value row
    output_fig = en.step_figure(result, values, "output", selected=(1, 3), **labels)
    assert [s.y0 for s in output_fig.layout.shapes] == [0.5]  # the query's output row


def breakdown_of(result, query: int, **extra):
    """The breakdown of `result`'s row `query`, with values 0..11 as (4, 3)."""
    return en.query_breakdown(
        query=query,
        scores=result.scores[query],
        masked_scores=result.masked_scores[query],
        weights=result.weights[query],
        values=torch.arange(12.0).reshape(4, 3),
        mask=result.mask[query],
        **extra,
    )


def test_the_breakdown_outlines_the_selected_key(result):
    fig = breakdown_of(result, 2, selected_key=1)
    bars = [d for d in fig.data if d.type == "bar"]
    assert all(list(b.marker.line.width) == [0, 3, 0, 0] for b in bars)
    (frame,) = fig.layout.shapes
    assert (frame.xref, frame.yref, frame.y0) == ("x3", "y3", 0.5)


def test_colour_scales_and_ranges():
    weights = en.heatmap(np.full((2, 2), 0.5), title="w", kind="weights")
    assert (weights.data[0].zmin, weights.data[0].zmax) == (0.0, 1.0)
    scores = en.heatmap(np.array([[-2.0, 1.0]]), title="s", kind="scores")
    assert scores.data[0].zmid == 0.0 and (scores.data[0].zmin, scores.data[0].zmax) == (-2.0, 2.0)


def test_numbers_in_small_cells_only():
    small = en.heatmap(np.full((12, 12), 0.25), title="w", kind="weights")
    assert small.data[0].text[0][0] == ".25" and small.data[0].texttemplate == "%{text}"
    cells = en.heatmap(np.array([[1.0, 0.999, 0.004, 0.5]]), title="w", kind="weights")
    assert list(cells.data[0].text[0]) == ["1", "1", "0", ".5"]
    scores = en.heatmap(np.array([[-0.70710677, 12.5]]), title="s", kind="scores")
    assert list(scores.data[0].text[0]) == ["-.71", "12"]
    big = en.heatmap(np.zeros((13, 13)), title="w", kind="weights")
    assert big.data[0].text is None


def test_wrong_rank_and_labels_raise():
    with pytest.raises(ValueError, match="2-D"):
        en.heatmap(np.zeros(3), title="x", kind="scores")
    with pytest.raises(ValueError, match="labels"):
        en.heatmap(np.zeros((2, 2)), title="x", kind="scores", row_labels=["a"])


def test_query_breakdown_adds_up(result):
    values = torch.arange(12.0).reshape(4, 3)
    fig = breakdown_of(result, 1)
    raw, masked, marks, weights, table = fig.data
    np.testing.assert_allclose(raw.y, result.scores[1].numpy(), rtol=1e-6)
    assert np.isnan(masked.y[2:]).all()  # masked keys get no bar ...
    assert list(marks.x) == [2, 3] and set(marks.text) == {"×"}  # ... but a mark
    fill = next(a.text for a in fig.layout.annotations if "masked key" in a.text)
    assert fill == "× = masked key: its masked score s̃ is -1e6"
    np.testing.assert_allclose(weights.y, result.weights[1].numpy(), rtol=1e-6)
    contributions = result.weights[1].numpy()[:, None] * values.numpy()
    z = np.asarray(table.z)
    np.testing.assert_allclose(z[:4], contributions, rtol=1e-6)
    np.testing.assert_allclose(z[4], (result.weights[1] @ values).numpy(), rtol=1e-5)
    assert fig.layout.title.text == "Query q1: scores, weights and contributions"


def test_pipeline_figure_names_every_step():
    texts = [a.text for a in en.pipeline_figure().layout.annotations if a.text]
    assert any("softmax" in text for text in texts) and len(texts) == 7


def test_head_grid_tiles_every_head_into_one_heatmap():
    attn = torch.rand(6, 12, 4, 5).softmax(-1)
    fig = grid.head_grid(attn, title="m", layer_label="<layer>", head_label="head", selected=(2, 5))
    (heat,) = fig.data
    z = np.asarray(heat.z, dtype=float)
    assert z.shape == (6 * 5 - 1, 12 * 6 - 1)  # a gap row and column between thumbnails
    for layer in range(6):
        for head in range(12):
            block = grid_block(z, 6, 12, layer, head)
            np.testing.assert_allclose(block, attn[layer, head].numpy(), rtol=1e-6)
    assert np.isnan(z[4::5]).all() and np.isnan(z[:, 5::6]).all()
    assert np.isfinite(z).sum() == attn.numel()
    assert (heat.zmin, heat.zmax, heat.showscale, heat.hoverongaps) == (0.0, 1.0, False, False)
    assert tuple(fig.layout.yaxis.range) == (28.5, -0.5)  # layer 0 on top
    # Hover: layer, head, then the cell's row and column in its head.
    assert list(heat.customdata[2 * 5 + 3][5 * 6 + 4]) == [2, 5, 3, 4]
    assert heat.hovertemplate.startswith("&lt;layer&gt; %{customdata[0]}, head %{customdata[1]}")
    (frame,) = fig.layout.shapes
    assert (frame.x0, frame.x1, frame.y0, frame.y1) == (29.5, 34.5, 9.5, 13.5)
    assert (frame.line.color, frame.line.width) == ("#d62728", 3)
    titles = {a.text: a for a in fig.layout.annotations}
    assert len(titles) == 12 + 6
    assert titles["head 5"].x == 5 * 6 + 2 and titles["head 5"].yanchor == "bottom"
    assert titles["&lt;layer&gt; 2"].y == 2 * 5 + 1.5 and titles["&lt;layer&gt; 2"].textangle == 90
    assert not grid.head_grid(attn, title="m", layer_label="l", head_label="h").layout.shapes


def test_head_grid_pools_large_thumbnails():
    attn = torch.rand(2, 3, 5, 5).softmax(-1)
    fig = grid.head_grid(attn, title="m", layer_label="layer", head_label="head")
    np.testing.assert_allclose(grid_block(fig.data[0].z, 2, 3, 1, 2), attn[1, 2].numpy(), rtol=1e-6)
    big = torch.rand(1, 1, 100, 96).softmax(-1)
    pooled = np.asarray(grid.head_grid(big, title="m", layer_label="l", head_label="h").data[0].z)
    assert pooled.shape == (48, 48)
    np.testing.assert_allclose(pooled[0, 0], big[0, 0, :3, :2].mean().item(), rtol=1e-5)


def test_marked_cells_are_boxed_and_explained_under_the_chart():
    weights = torch.softmax(torch.randn(3, 4), dim=-1)
    cells = [(row, int(col)) for row, col in enumerate(weights.argmax(dim=-1))]
    notes = [marks.boxed_note("<argmax>")]
    fig = marks.mark_cells(en.heatmap(weights, title="w", kind="weights", notes=notes), cells)
    boxes = [(s.y0 + 0.5, s.x0 + 0.5, s.x1 - s.x0, s.y1 - s.y0) for s in fig.layout.shapes]
    assert boxes == [(row, col, 1.0, 1.0) for row, col in cells]
    (annotation,) = fig.layout.annotations
    assert "&lt;argmax&gt;" in annotation.text and fig.layout.margin.b == 36
    plain = en.heatmap(weights, title="w", kind="weights")
    assert not plain.layout.shapes and not plain.layout.annotations


def upright_titles(fig) -> list[dict]:
    """The annotations left of the plot that are not turned (the upright y titles)."""
    return [
        a.to_plotly_json() for a in fig.layout.annotations if a.xanchor == "right" and a.x == 0.0
    ]


@pytest.mark.parametrize(
    ("y_title", "stacked"),
    [(None, "쿼<br>리"), ("가설", "가<br>설"), ("정답 레이블", "정<br>답<br>레<br>이<br>블")],
)
def test_a_short_korean_y_title_is_drawn_upright_one_character_a_line(y_title, stacked):
    fig = heatmaps.heatmap(
        np.eye(3), title="w", kind="weights", text=en.KO, y_title=y_title, mask=np.eye(3) > 0
    )
    assert fig.layout.yaxis.title.text in (None, "")  # Plotly's y title would be turned
    (title,) = upright_titles(fig)
    assert title["text"] == stacked and title["textangle"] == 0
    assert title["y"] == 0.5 and title["yanchor"] == "middle"
    # Left of the tick labels ("q2": 2 characters), inside the margin kept for a y title.
    assert title["xshift"] == -math.ceil(style.text_width("q2") + axes.UPRIGHT_GAP)
    assert fig.layout.margin.l >= -title["xshift"] + style.text_width("쿼")
    # The masked-cells note is still there beside it.
    assert [a.text for a in fig.layout.annotations][1] == f"× = {en.KO('fig.masked')}"


@pytest.mark.parametrize("y_title", ["Queries", "테스트 점 x (쿼리)", "일곱글자의제목", " "])
def test_other_y_titles_stay_on_the_axis(y_title):
    fig = heatmaps.heatmap(np.eye(2), title="w", kind="weights", text=en.KO, y_title=y_title)
    assert fig.layout.yaxis.title.text == y_title
    assert upright_titles(fig) == []


def test_a_short_colour_bar_names_its_ends():
    """Plotly's few round ticks on a short bar can leave a lone "0": its ends and 0 instead."""
    short = en.heatmap(torch.tensor([[0.37, -0.2, 0.1]]), title="s", kind="scores")
    bar = short.data[0].colorbar
    assert list(bar.ticktext) in (["-.37", ".37"], ["-.37", "0", ".37"])
    np.testing.assert_allclose([bar.tickvals[0], bar.tickvals[-1]], [-0.37, 0.37], rtol=1e-6)
    tall = en.heatmap(
        torch.randn(12, 12, generator=torch.Generator().manual_seed(0)), title="t", kind="scores"
    )
    assert tall.data[0].colorbar.tickvals is None and tall.data[0].colorbar.nticks >= 5


def test_a_short_bar_whose_title_names_its_top_leaves_that_end_to_the_title():
    """ "0 to max 2.1" above the bar: a "2.1" tick at its top drew over that title."""
    short = en.heatmap(torch.tensor([[2.1, 0.4, 1.0]]), title="s", kind="weights", bound=2.1)
    bar = short.data[0].colorbar
    assert bar.title.text == "0 to max 2.1" and "2.1" not in list(bar.ticktext)
