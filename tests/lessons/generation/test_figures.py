"""The generation lesson's figures through their data: the cache's cells step by step, the lens
grid's cells and hover, each head's part of the logit on a signed scale."""

from __future__ import annotations

import numpy as np
import torch

from attnviz.app.selection import selected_panel_cell
from attnviz.figures.panels import panel_cells
from attnviz.lessons.generation import figures
from attnviz.transformer.lens import Lens
from tests.english import EN
from tests.plotly_data import decode, panel_z


def test_the_cache_grows_one_row_a_step() -> None:
    first = figures.cache_cells(prompt=4, total=7, step=1, layers=2)
    assert first[:, :4].eq(3).all() and first[:, 4:].isnan().all()  # the prompt added at once
    third = figures.cache_cells(prompt=4, total=7, step=3, layers=2)
    assert third[0].tolist()[:6] == [1, 1, 1, 1, 2, 3] and np.isnan(third[0, 6].item())
    fig = figures.cache_figure(4, 7, 3, 2, 3_500_000, EN)
    assert fig.layout.title.text.endswith("6 positions x 2 layers, 3.50 MB")
    assert [t.name for t in fig.data[1:]] == [
        "the prompt's rows", "generated tokens' rows", "added by this step",
    ]  # fmt: skip
    assert list(fig.layout.xaxis.range) == [-0.5, 6.5]  # the axis does not move step to step


def _lens() -> Lens:
    probs = torch.tensor([[[0.5, 0.2], [0.9, 0.1]], [[0.6, 0.3], [0.8, 0.1]]])
    return Lens(
        ids=[5, 6, 7],
        positions=[1, 2],
        top_ids=torch.tensor([[[1, 2], [3, 4]], [[1, 3], [3, 2]]]),
        top_probs=probs,
        final_probs=torch.tensor([[0.5, 0.1], [0.6, 0.8]]),
        head_logits=torch.tensor([[0.5, -2.0], [1.0, 0.0]]),
        target=3,
    )


def test_the_lens_grid_names_each_rows_top_token() -> None:
    pieces = [[["␣cat", "␣dog"], ["<b>", "␣x"]], [["␣cat", "␣mat"], ["␣a_long_piece", "␣y"]]]
    fig = figures.lens_figure(_lens(), ["␣the", "␣sat"], pieces, 4, EN)
    heat = fig.data[0]
    np.testing.assert_allclose(np.array(heat.z, dtype=float), [[0.5, 0.1], [0.6, 0.8]])
    assert heat.text.tolist() == [["␣cat", "&lt;b&gt;"], ["␣cat", "␣a_lon…"]]  # escaped once
    assert list(fig.layout.yaxis.ticktext) == ["embeddings", "0"]
    assert list(fig.layout.xaxis.ticktext) == ["␣the (1)", "␣sat (2)"]
    assert "␣a_long_piece: 0.8000" in str(heat.customdata) + str(heat.hovertemplate)


def test_the_heads_parts_diverge_about_zero() -> None:
    fig = figures.head_logits_figure(_lens(), "␣cat", (1, 0), EN)
    heat = fig.data[0]
    np.testing.assert_allclose(np.array(heat.z, dtype=float), [[0.5, -2.0], [1.0, 0.0]])
    assert heat.zmin == -2.0 and heat.zmax == 2.0
    assert fig.layout.title.text.startswith("Each head's direct part of the logit of ␣cat")


def test_every_heads_row_is_one_heatmap_and_a_click_names_its_head() -> None:
    attention = torch.softmax(torch.randn(3, 4, 6, generator=torch.Generator().manual_seed(0)), -1)
    keys = ["The", " cat", " sat", " on", " the", " mat"]
    fig = figures.heads_rows_figure(attention, keys, "Step 2", (1, 2), EN)
    heat, points = fig.data[0], fig.data[-1]
    z = decode(heat.to_plotly_json()["z"]) if isinstance(heat.z, dict) else np.asarray(heat.z)
    np.testing.assert_allclose(z, attention.reshape(12, 6), atol=1e-6)  # layer 1 head 2: row 6
    assert (heat.type, points.type, len(fig.data)) == ("heatmap", "scatter", 2)
    assert [list(c) for c in points.customdata] == [[y, h] for y in range(3) for h in range(4)]
    assert list(points.y) == list(range(12)) and set(points.x) == {2.5}  # a row's middle
    assert fig.layout.hoverdistance == -1
    # Each point's hover names its row's strongest key and weight.
    row = int(attention[1, 2].argmax())
    assert points.text[6] == f"{keys[row]} ({float(attention[1, 2, row]):.4f})"
    # Layer labels at their bands' middles (every layer where 18 px hold one: every other
    # here, 3 px a row), lines between the bands, the chosen head framed.
    shown = [int(label) for label in fig.layout.yaxis.ticktext]
    assert shown == [0, 2] and list(fig.layout.yaxis.tickvals) == [4 * y + 1.5 for y in shown]
    lines = [s for s in fig.layout.shapes if s.type == "line"]
    assert sorted(s.y0 for s in lines) == [3.5, 7.5]
    frames = [s for s in fig.layout.shapes if s.type == "rect"]
    assert frames and all(s.y0 == 5.5 and s.y1 == 6.5 for s in frames)


def test_what_each_token_drew_on_is_two_panels_a_row_click_each() -> None:
    attribution = np.array([[0.4, -1.2, np.nan], [0.1, 0.2, -0.3]])
    attention = np.array([[0.5, 0.5, np.nan], [0.2, 0.3, 0.5]])
    fig = figures.drew_on_figure(
        attribution, attention, ["␣sat", "<b>"], ["The", "␣cat", "␣sat"], 2,
        ("Gradient x input", "Layer 0, head 1"), False, EN,
    )  # fmt: skip
    data = fig.to_plotly_json()
    np.testing.assert_array_equal(panel_z(data, 0), attribution)
    np.testing.assert_array_equal(panel_z(data, 1), attention)
    cells = panel_cells(fig)
    assert None not in cells and len(cells) == 2
    points = fig.data[cells[0]]
    assert list(points.y) == [0, 1] and list(points.customdata) == [1, 2]
    assert points.text[0] == "␣sat ← ␣cat (-1.2)" and points.text[1].startswith("&lt;b&gt;")
    event = {"selection": {"points": [{"curve_number": cells[1], "x": 1.0, "y": 1}]}}
    assert selected_panel_cell(event, cells) == (1, 1, 1)
    heat = next(t for t in data["data"] if t["type"] == "heatmap")
    assert heat["zmin"] == -heat["zmax"]  # signed: centred on 0
    # Only the head attends: the attribution's columns are its inputs.
    x_titles = [data["layout"][a]["title"]["text"] for a in ("xaxis", "xaxis2")]
    assert x_titles == ["Earlier token (input)", "Attended token (key)"]
    normalised = figures.drew_on_figure(
        attribution / 1.2, attention, ["a", "b"], ["x", "y", "z"], 1, ("", ""), True, EN
    )
    first = next(t for t in normalised.to_plotly_json()["data"] if t["type"] == "heatmap")
    assert (first["zmin"], first["zmax"]) == (-1.0, 1.0)
