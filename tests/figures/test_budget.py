"""The three encodings of a heatmap (full, compact, image), the 2 MB cap, and click to inspect."""

from __future__ import annotations

import base64
import io
from types import SimpleNamespace

import numpy as np
import plotly.graph_objects as go
import pytest
import torch
from PIL import Image
from plotly.colors import get_colorscale, hex_to_rgb, sample_colorscale, unlabel_rgb

from attnviz.app import selection
from attnviz.attention import attend, causal_mask
from attnviz.figures import breakdown, budget, grid, image, labels, marks, matrix, style
from tests import english as en
from tests.plotly_data import decode, figure_json

ATTACK = "<img src=x onerror=alert(1)>"


def randn(*shape: int, seed: int = 0) -> np.ndarray:
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed)).numpy()


def weights_figure(n: int, *, selectable: bool = False, masked: bool = True) -> go.Figure:
    """The Playground's weights heatmap: hover with score and weight, a causal mask."""
    gen = torch.Generator().manual_seed(0)
    q, k = torch.randn(n, 16, generator=gen), torch.randn(n, 16, generator=gen)
    result = attend(q, k, k, mask=causal_mask(n) if masked else None)
    fig = en.heatmap(
        result.weights,
        title="w",
        kind="weights",
        mask=result.mask,
        hover={"score": result.scores, "weight": result.weights},
    )
    return marks.select_cells(fig) if selectable else fig


def png_pixels(fig: go.Figure) -> np.ndarray:
    """The RGB pixels of the figure's image trace, (rows, columns, 3)."""
    source = fig.data[0].source
    assert source.startswith("data:image/png;base64,")
    png = Image.open(io.BytesIO(base64.b64decode(source.split(",", 1)[1])))
    return np.asarray(png.convert("RGB")).astype(int)


def scale_colour(kind: str, value: float, zmin: float, zmax: float) -> np.ndarray:
    """The colour Plotly.js gives `value`, from the kind's colour scale (linear in RGB)."""
    scale = get_colorscale(style.COLORSCALES[kind])
    fraction = float(np.clip((value - zmin) / (zmax - zmin), 0.0, 1.0))
    return np.array(unlabel_rgb(sample_colorscale(scale, [fraction])[0]), dtype=float)


def payload(fig: go.Figure) -> int:
    return len(fig.to_json())  # what st.plotly_chart sends


# --- which encoding ---


@pytest.mark.parametrize(
    ("shape", "encoding"),
    [
        ((4, 4), "full"),
        ((60, 60), "full"),
        ((900, 4), "full"),
        ((61, 60), "compact"),
        ((64, 64), "compact"),
        ((200, 200), "compact"),
        ((256, 256), "compact"),
        ((257, 256), "image"),
        ((2048, 256), "image"),
        ((2048, 2048), "image"),
    ],
)
def test_encoding_follows_the_number_of_cells(shape, encoding):
    assert budget.encoding_for(*shape) == encoding
    assert budget.FULL_CELL_LIMIT < budget.IMAGE_CELL_LIMIT
    assert matrix.SELECT_CELL_LIMIT <= budget.FULL_CELL_LIMIT  # click targets have hover text


# --- full ---


def test_full_sends_every_number_and_a_hover_text_per_cell():
    fig = weights_figure(40)
    heat = fig.data[0]
    data = figure_json(fig)["data"][0]
    gen = torch.Generator().manual_seed(0)
    q, k = torch.randn(40, 16, generator=gen), torch.randn(40, 16, generator=gen)
    result = attend(q, k, k, mask=causal_mask(40))
    z = decode(data["z"])
    assert z.dtype == np.float64
    allowed = causal_mask(40).numpy()
    np.testing.assert_array_equal(z[allowed], result.weights.double().numpy()[allowed])
    assert np.isnan(z[~allowed]).all()
    assert heat.hovertemplate == "%{customdata}<extra></extra>" and heat.hoverongaps
    hover = np.asarray(heat.customdata)
    assert hover.shape == (40, 40)
    assert hover[7, 3] == (
        f"query q7<br>key k3<br>score: {result.scores[7, 3].item():.4g}"
        f"<br>weight: {result.weights[7, 3].item():.4g}"
    )
    assert hover[3, 7].endswith("<br><b>masked</b>")
    # Cells of ~15 px or less get no × marks: the note names the grey instead.
    assert [trace.type for trace in fig.data] == ["heatmap"]
    assert fig.layout.annotations[0].text.endswith("■</span> = masked")


def test_small_masked_matrix_keeps_its_marks_and_note():
    fig = en.heatmap(np.eye(3), title="w", kind="weights", mask=np.eye(3, dtype=bool))
    assert fig.data[1].mode == "text" and len(fig.data[1].x) == 6
    assert fig.layout.annotations[0].text == "× = masked"
    assert tuple(fig.layout.yaxis.range) == (2.5, -0.5)  # row 0 on top


def test_full_with_long_labels_is_sent_compact_under_the_cap():
    labels = [f"{'x' * 300}{i}" for i in range(90)]
    fig = en.heatmap(randn(90, 90), title="s", kind="scores", row_labels=labels, col_labels=labels)
    assert fig.data[0].customdata is None and "%{z:.4g}" in fig.data[0].hovertemplate
    assert payload(fig) < budget.MAX_FIGURE_BYTES


# --- compact ---


def test_compact_sends_float32_numbers_and_positions_in_the_hover():
    scores = randn(200, 200)
    mask = causal_mask(200).numpy()
    fig = en.heatmap(scores, title="s", kind="scores", mask=mask)
    assert [trace.type for trace in fig.data] == ["heatmap"]  # no × marks, no per-cell text
    data = figure_json(fig)["data"][0]
    assert data["z"]["dtype"] == "f4"
    z = decode(data["z"])
    np.testing.assert_array_equal(z[mask], scores.astype(np.float32)[mask])
    assert np.isnan(z[~mask]).all()
    assert "customdata" not in data and "text" not in data
    assert data["hoverongaps"] is False  # no "NaN" hover on masked cells
    assert data["hovertemplate"] == "query %{y}<br>key %{x}<br>%{z:.4g}<extra></extra>"
    bound = float(np.abs(scores[mask]).max())
    assert (data["zmin"], data["zmax"], data["zmid"]) == (-bound, bound, 0.0)
    assert fig.layout.yaxis.range[0] > fig.layout.yaxis.range[1]  # row 0 on top
    assert "■</span> = masked" in fig.layout.annotations[0].text


# --- image ---


def test_image_pixels_are_the_colour_scale_of_the_pooled_means():
    scores = randn(2048, 2048)
    fig = en.heatmap(scores, title="s", kind="scores")
    image, bar = fig.data
    assert image.type == "image" and (image.dx, image.dy) == (4, 4)
    assert (image.x0, image.y0) == (1.5, 1.5)  # pixel (0, 0) covers cells 0..3
    pixels = png_pixels(fig)
    assert pixels.shape == (512, 512, 3)
    bound = float(np.abs(scores).max())
    for row, col in [(0, 0), (100, 7), (511, 511), (300, 450)]:
        mean = scores[4 * row : 4 * row + 4, 4 * col : 4 * col + 4].mean()
        expected = scale_colour("scores", mean, -bound, bound)
        np.testing.assert_allclose(pixels[row, col], expected, atol=3)
    # The colour bar of the other encodings, with the same range.
    assert bar.type == "heatmap" and bar.showscale and bar.opacity == 0
    assert (bar.zmin, bar.zmax, bar.colorscale) == (
        -bound,
        bound,
        en.heatmap(np.ones((2, 2)), title="x", kind="scores").data[0].colorscale,
    )
    assert "mean of 4 × 4 cells" in image.hovertemplate
    assert "mean of 4 × 4 cells" in fig.layout.annotations[0].text
    assert list(fig.layout.yaxis.range) == [2047.5, -0.5]  # row 0 on top
    assert list(fig.layout.xaxis.range) == [-0.5, 2047.5]


def test_image_draws_masked_cells_grey_and_keeps_weights_on_0_to_1():
    gen = torch.Generator().manual_seed(1)
    q, k = torch.randn(300, 8, generator=gen), torch.randn(300, 8, generator=gen)
    result = attend(q, k, k, mask=causal_mask(300))
    fig = en.heatmap(result.weights, title="w", kind="weights", mask=result.mask)
    image, bar = fig.data
    assert (image.dx, image.dy) == (1, 1) and "mean of" not in image.hovertemplate
    assert (bar.zmin, bar.zmax) == (0.0, 1.0)
    pixels = png_pixels(fig)
    assert pixels.shape == (300, 300, 3)
    grey = np.array(hex_to_rgb(style.MASKED_COLOR))
    np.testing.assert_array_equal(pixels[0, 1], grey)
    np.testing.assert_array_equal(pixels[10, 299], grey)
    for row, col in [(0, 0), (299, 0), (150, 20), (299, 299)]:
        expected = scale_colour("weights", result.weights[row, col].item(), 0.0, 1.0)
        np.testing.assert_allclose(pixels[row, col], expected, atol=3)
    assert "■</span> = masked" in fig.layout.annotations[0].text


def test_image_pools_a_block_over_its_allowed_cells_only():
    values = np.arange(1024 * 1024, dtype=float).reshape(1024, 1024) % 7
    mask = causal_mask(1024).numpy()
    fig = en.heatmap(values, title="v", kind="values", mask=mask)
    pixels = png_pixels(fig)
    bound = float(np.abs(values[mask]).max())
    # The diagonal block (rows 2..3, columns 2..3) holds 3 allowed cells.
    block, allowed = values[2:4, 2:4], mask[2:4, 2:4]
    expected = scale_colour("values", block[allowed].mean(), -bound, bound)
    np.testing.assert_allclose(pixels[1, 1], expected, atol=3)
    np.testing.assert_array_equal(pixels[0, 1], hex_to_rgb(style.MASKED_COLOR))


def test_image_pools_each_axis_on_its_own():
    fig = en.heatmap(randn(2048, 256), title="v", kind="values")
    image = fig.data[0]
    assert (image.dy, image.dx) == (4, 1)
    assert png_pixels(fig).shape == (512, 256, 3)
    assert "mean of 4 × 1 cells" in fig.layout.annotations[0].text


@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize(
    ("shape", "pool"), [((9, 7), (2, 3)), ((1030, 513), (3, 2)), ((8, 8), (4, 4))]
)
def test_pool_mean_averages_each_block_over_its_present_cells(shape, pool, masked):
    z = randn(*shape).astype(np.float64)
    if masked:
        z[np.tril(np.ones(shape, dtype=bool), -2)] = np.nan  # blocks wholly masked too
    k_rows, k_cols = pool
    pooled = image.pool_mean(z, k_rows, k_cols)
    assert pooled.shape == (-(-shape[0] // k_rows), -(-shape[1] // k_cols))
    for i, j in [(0, 0), (pooled.shape[0] - 1, 0), (0, pooled.shape[1] - 1), (-1, -1), (1, 1)]:
        i, j = i % pooled.shape[0], j % pooled.shape[1]
        block = z[i * k_rows : (i + 1) * k_rows, j * k_cols : (j + 1) * k_cols]  # edges: smaller
        present = block[~np.isnan(block)]
        if present.size:
            np.testing.assert_allclose(pooled[i, j], present.mean(), rtol=1e-12, atol=1e-12)
        else:
            assert np.isnan(pooled[i, j])


def test_query_breakdown_panels_sit_where_make_subplots_puts_them():
    from plotly.subplots import make_subplots

    reference = make_subplots(
        rows=1, cols=3, column_widths=[0.34, 0.22, 0.44], horizontal_spacing=0.08
    )
    fig = en.query_breakdown(
        query=0,
        scores=randn(5),
        masked_scores=randn(5),
        weights=np.full(5, 0.2),
        values=randn(5, 3),
    )
    for axis in ("xaxis", "xaxis2", "xaxis3"):
        np.testing.assert_allclose(fig.layout[axis].domain, reference.layout[axis].domain)
    traces = {trace.name: (trace.xaxis, trace.yaxis) for trace in fig.data}
    assert traces["raw score"] == ("x", "y") and traces["weight"] == ("x2", "y2")
    assert (fig.data[-1].xaxis, fig.data[-1].yaxis) == ("x3", "y3")  # the contributions table
    titles = [a.text for a in fig.layout.annotations]
    assert titles[:3] == [
        "Scores per key",
        "Weight per key",
        "weight × value (rows sum to the output)",
    ]


def test_query_breakdown_of_many_keys_shows_the_largest_weights_and_sums_the_rest():
    m, d_v = 2048, 256
    weights = torch.softmax(torch.from_numpy(randn(m)), dim=0).numpy()
    values = randn(m, d_v)
    fig = en.query_breakdown(
        query=0, scores=randn(m), masked_scores=randn(m), weights=weights, values=values
    )
    top = np.sort(np.argsort(-weights)[: breakdown.BREAKDOWN_KEYS])
    bars = {trace.name: trace for trace in fig.data if trace.type == "bar"}
    np.testing.assert_allclose(bars["weight"].y, weights[top])
    assert list(bars["weight"].customdata) == [f"k{i}" for i in top]
    table = np.asarray(fig.data[-1].z, dtype=np.float64)  # top keys, the others, the output
    assert table.shape == (breakdown.BREAKDOWN_KEYS + 2, d_v)
    output = (weights[:, None] * values).sum(axis=0)
    np.testing.assert_allclose(table[-1], output, rtol=1e-4, atol=1e-7)  # sent as float32
    np.testing.assert_allclose(table[:-1].sum(axis=0), output, rtol=1e-4, atol=1e-6)
    assert f"other {m - breakdown.BREAKDOWN_KEYS} keys" in fig.layout.yaxis3.ticktext
    assert any("largest weights of 2048" in a.text for a in fig.layout.annotations)
    assert fig.layout.xaxis.showticklabels is False  # scattered keys: hover names them
    assert fig.layout.xaxis2.showticklabels is False
    assert payload(fig) < budget.MAX_FIGURE_BYTES


# --- the cap ---


@pytest.mark.parametrize("masked", [False, True])
def test_random_2048_scores_stay_under_the_cap(masked):
    fig = en.heatmap(
        randn(2048, 2048),
        title="s",
        kind="scores",
        mask=causal_mask(2048) if masked else None,
    )
    assert payload(fig) < budget.MAX_FIGURE_BYTES


@pytest.mark.parametrize(
    "build",
    [
        lambda: en.heatmap(randn(2048, 256), title="v", kind="values"),
        lambda: weights_figure(96),  # the largest full matrix, two hover values and a mask
        lambda: weights_figure(64, selectable=True),  # the largest with a click overlay
        lambda: weights_figure(256),  # the largest compact one
        lambda: grid.head_grid(
            torch.rand(6, 12, 128, 128).softmax(-1),
            title="g",
            layer_label="layer",
            head_label="head",
            selectable=True,
        ),
    ],
    ids=["values-2048x256", "full-96", "overlay-64", "compact-256", "head-grid-128"],
)
def test_largest_figures_stay_under_the_cap(build):
    assert payload(build()) < budget.MAX_FIGURE_BYTES


# --- escaping ---


@pytest.mark.parametrize(("n", "encoding"), [(3, "full"), (120, "compact"), (600, "image")])
def test_user_text_is_escaped_in_every_encoding(n, encoding):
    assert budget.encoding_for(n, n) == encoding
    fig = en.heatmap(
        randn(n, n),
        title=ATTACK,
        kind="scores",
        row_labels=[ATTACK] * n,
        col_labels=[f"%{{z}}{j}" for j in range(n)],
        row_name=ATTACK,
        col_name="%{x}",
        x_title=ATTACK,
        y_title=ATTACK,
        mask=np.tril(np.ones((n, n), dtype=bool)),
    )
    spec = marks.select_cells(fig).to_json()
    assert "<img" not in spec and "\\u003cimg" not in spec
    assert "%{z}0" not in spec and "%{x} " not in spec
    heat = fig.data[0]
    hover = heat.hovertemplate if heat.customdata is None else heat.customdata[0][0]
    assert hover.startswith(f"{labels.escape_label(ATTACK)} ")
    assert f"{labels.escape_label('%{x}')} " in hover


# --- click to inspect ---


def test_cells_overlay_sits_on_every_cell_centre_last():
    fig = weights_figure(5, selectable=True)
    overlay = fig.data[-1]
    assert overlay.type == "scatter" and overlay.name == "cells"
    assert overlay.marker.opacity == 0 and overlay.showlegend is False
    assert overlay.hoverinfo != "skip"  # skipped points cannot be clicked
    data = figure_json(fig)["data"][-1]
    rows, cols = np.divmod(np.arange(25), 5)
    np.testing.assert_array_equal(decode(data["x"]), cols)
    np.testing.assert_array_equal(decode(data["y"]), rows)
    # Plotly shows the nearest point's hover only: the overlay repeats the heatmap's.
    assert overlay.hovertemplate == fig.data[0].hovertemplate
    np.testing.assert_array_equal(
        np.asarray(overlay.customdata), np.asarray(fig.data[0].customdata).reshape(-1)
    )
    assert fig.layout.hoverdistance == -1


def test_cells_overlay_only_when_asked_and_small_enough():
    assert "cells" not in [trace.name for trace in weights_figure(5).data]
    side = int(matrix.SELECT_CELL_LIMIT**0.5)
    assert weights_figure(side, selectable=True).data[-1].name == "cells"
    big = marks.select_cells(en.heatmap(randn(side + 1, side), title="s", kind="scores"))
    assert "cells" not in [trace.name for trace in big.data]
    assert big.layout.hoverdistance is None


def test_cells_overlay_halves_the_hover_budget_and_shows_the_value_when_compact():
    labels = [f"{'x' * 500}{i}" for i in range(33)]  # ~1 MB of hover text
    scores = randn(32, 32)
    common = {"title": "s", "kind": "scores", "row_labels": labels[:32], "col_labels": labels[:32]}
    # A matrix small enough for click targets keeps half the budget: they repeat the text.
    wider = en.heatmap(randn(32, 33), title="s", kind="scores", row_labels=labels[:32],
                       col_labels=labels)  # fmt: skip
    assert wider.data[0].customdata is not None  # too large for click targets
    fig = marks.select_cells(en.heatmap(scores, **common))
    assert fig.data[0].customdata is None
    overlay = fig.data[-1]
    assert overlay.hovertemplate == "query %{y}<br>key %{x}<br>%{customdata:.4g}<extra></extra>"
    np.testing.assert_array_equal(overlay.customdata, scores.astype(np.float32).reshape(-1))
    assert payload(fig) < budget.MAX_FIGURE_BYTES


def test_head_grid_overlay_has_one_marker_per_thumbnail():
    attn = torch.rand(2, 3, 100, 100).softmax(-1)
    plain = grid.head_grid(attn, title="g", layer_label="layer", head_label="head")
    assert [trace.type for trace in plain.data] == ["heatmap"]
    fig = grid.head_grid(attn, title="g", layer_label="layer", head_label="head", selectable=True)
    heat, markers = fig.data
    assert markers.name == "heads" and markers.marker.opacity == 0
    assert markers.selected.marker.opacity == 0 and markers.unselected.marker.opacity == 0
    assert (markers.xaxis, markers.yaxis) == (heat.xaxis, heat.yaxis)
    assert [list(point) for point in markers.customdata] == [
        [layer, head] for layer in range(2) for head in range(3)
    ]
    # At each 48 x 48 block's centre, a gap cell between blocks.
    assert list(markers.x) == [23.5, 72.5, 121.5] * 2
    assert list(markers.y) == [23.5] * 3 + [72.5] * 3
    assert markers.hovertemplate == "layer %{customdata[0]}, head %{customdata[1]}<extra></extra>"
    assert fig.layout.hoverdistance == -1
    # The markers' hover is the one shown: the cells carry none, and half the bytes.
    assert heat.hoverinfo == "skip" and heat.customdata is None
    assert payload(fig) < 0.6 * payload(plain)


@pytest.mark.parametrize(
    "state",
    [
        {"selection": {"points": [{"x": 2, "y": 1, "curve_number": 1, "point_index": 7}]}},
        {"points": [{"x": 2.0000001, "y": 0.9999999}], "point_indices": [7]},
        SimpleNamespace(selection=SimpleNamespace(points=[{"x": 2, "y": 1}])),
        {"selection": {"points": [{"curve_number": 0}, {"x": 2, "y": 1}]}},
    ],
)
def test_selected_cell_reads_the_first_point(state):
    assert selection.selected_cell(state) == (1, 2)


@pytest.mark.parametrize(
    "state",
    [None, {}, {"selection": {"points": []}}, {"selection": {"points": [{"x": "a", "y": 1}]}}],
)
def test_selected_cell_is_none_without_a_point(state):
    assert selection.selected_cell(state) is None


def test_selected_head_reads_customdata():
    point = {"x": 23.5, "y": 23.5, "curve_number": 13, "customdata": [4, 7]}
    assert selection.selected_head({"selection": {"points": [point]}}) == (4, 7)
    assert selection.selected_head(SimpleNamespace(points=[point])) == (4, 7)
    assert selection.selected_head({"selection": {"points": [{"x": 1, "y": 2}]}}) is None
    assert selection.selected_head(None) is None


def test_numbered_labels_past_a_few_dozen_get_numeric_ticks_and_tokens_keep_theirs():
    n = matrix.TICKS_NAMED + 6
    numbered = en.heatmap(randn(n, n), title="s", kind="scores")
    assert numbered.layout.xaxis.tickmode == "auto"
    tokens = [f"w{i}x" for i in range(n)]
    named = en.heatmap(randn(n, n), title="s", kind="scores", col_labels=tokens)
    assert named.layout.xaxis.tickmode == "array"
    assert list(named.layout.xaxis.ticktext) == tokens


def test_a_vectors_dimensions_get_numeric_ticks_and_their_number_on_hover():
    """64 dimensions labelled 0..63 are positions: Plotly's own ticks (every 64 written ran
    together), while each cell's hover still names its dimension."""
    fig = en.vector_rows(randn(3, 64), title="G", row_labels=["a", "b", "c"], dim_label="dim")
    assert fig.layout.xaxis.tickmode == "auto"
    assert fig.layout.xaxis.ticktext is None
    assert "dim 63" in fig.data[0].customdata[2][63]
    few = en.vector_rows(randn(2, 8), title="v", row_labels=["v_A", "v_B"], dim_label="dim")
    assert list(few.layout.xaxis.ticktext) == [str(i) for i in range(8)]


def test_the_model_view_validates_each_trace_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """SmolLM2's 270 thumbnails as one heatmap and its 270 click markers as one scatter, built
    as plain dicts, checked by Plotly once, in the figure (a trace object built first is
    checked again there)."""
    made = {"heatmap": 0, "scatter": 0}
    for kind, cls in (("heatmap", go.Heatmap), ("scatter", go.Scatter)):
        init = cls.__init__

        def counted(self, *args, _kind=kind, _init=init, **kwargs):
            made[_kind] += 1
            _init(self, *args, **kwargs)

        monkeypatch.setattr(cls, "__init__", counted)
    attn = torch.rand(30, 9, 14, 14).softmax(-1)
    fig = grid.head_grid(attn, title="g", layer_label="layer", head_label="head", selectable=True)
    assert len(fig.data) == 2 and len(fig.data[1].x) == 270
    assert made == {"heatmap": 1, "scatter": 1}


@pytest.mark.parametrize(
    ("layers", "heads", "side"), [(30, 9, 27), (6, 12, 48)], ids=["smollm2", "minilm"]
)
def test_the_largest_model_views_stay_well_under_the_cap(layers, heads, side):
    assert grid.thumbnail_side(layers, heads) == side
    attn = torch.rand(layers, heads, 200, 200).softmax(-1)
    fig = grid.head_grid(attn, title="g", layer_label="layer", head_label="head", selectable=True)
    assert payload(fig) < 0.7 * budget.MAX_FIGURE_BYTES
