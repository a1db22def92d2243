"""The generation lesson's figures through their data: the cache's cells step by step, the lens
grid's cells and hover, each head's part of the logit on a signed scale."""

from __future__ import annotations

import numpy as np
import torch

from attnviz.lessons.generation import figures
from attnviz.transformer.lens import Lens
from tests.english import EN


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
