"""The public figures API for notebooks (attnviz.figures): the pages' builders, the numbers
the backend computes, and an offline renderer."""

from __future__ import annotations

import pkgutil
import re

import numpy as np
import plotly.io as pio
import pytest
import torch
from plotly.offline import get_plotlyjs

import attnviz.figures
from attnviz import figures
from attnviz.attention import attend, causal_mask
from attnviz.figures import lines, notebook
from attnviz.figures.fit import chart_width
from attnviz.inputs import PRESETS
from tests.plotly_data import decode, grid_block

TOKENS = ["the", "cat", "sat", "the", "mat"]
# What would load something from elsewhere: a script, style or image by URL, or a module import.
FETCHES = re.compile(r"""(src|href)\s*=\s*["']?(https?:)?//|import\s+["']https?:|require\.config""")


@pytest.fixture(scope="module")
def attentions() -> torch.Tensor:
    return torch.randn(3, 4, 5, 5, generator=torch.Generator().manual_seed(0)).softmax(-1)


def textbook():
    qkv = PRESETS["textbook"].qkv()
    return attend(qkv.queries, qkv.keys, qkv.values, valid_lens=torch.tensor([2])), qkv.values


def test_the_public_names_are_the_notebook_module_and_shadow_no_module():
    modules = {m.name for m in pkgutil.iter_modules(attnviz.figures.__path__)}
    assert not set(figures.__all__) & modules  # a submodule would hide the function
    for name in figures.__all__:
        assert getattr(figures, name) is getattr(notebook, name)
    assert set(figures.__all__) <= set(dir(figures))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        figures.nothing  # noqa: B018


@pytest.mark.parametrize("step", notebook.STEPS)
def test_each_step_draws_what_attend_computed(step):
    result, values = textbook()
    fig = figures.attention_step(result, values, step)
    expected = values if step == "values" else getattr(result, step)
    shown = decode(fig.data[0].z).astype(float)
    if step in ("masked_scores", "weights"):  # masked cells are gaps, their numbers written
        allowed = result.mask.numpy()
        np.testing.assert_allclose(shown[allowed], expected.numpy()[allowed], rtol=1e-6)
        assert np.isnan(shown[~allowed]).all()
    else:
        np.testing.assert_allclose(shown, expected.numpy(), rtol=1e-6)
    assert fig.layout.width == round(chart_width(1))
    rows = {"values": ["k0", "k1"], "output": ["q0"]}.get(step, ["q0"])
    assert list(fig.layout.yaxis.ticktext[:2]) == rows
    if step not in ("values", "output"):
        assert list(fig.layout.xaxis.ticktext[:2]) == ["k0", "k1"]


def test_masked_weights_write_their_zeros_and_the_scores_the_fill():
    result, values = textbook()
    weights = figures.attention_step(result, values, "weights")
    assert "0" in list(weights.data[0].text[0][2:])
    scores = figures.attention_step(result, values, "masked_scores")
    assert "-1e6" in list(scores.data[0].text[0][2:])
    hidden = figures.attention_step(result, values, "weights", masked_values=False)
    assert "0" not in list(hidden.data[0].text[0][2:])


def test_the_breakdown_is_the_query_row():
    x = torch.randn(5, 3, generator=torch.Generator().manual_seed(1))
    result = attend(x, x, x, mask=causal_mask(5))
    fig = figures.query_breakdown(result, x, 2, query_labels=TOKENS, key_labels=TOKENS)
    by_name = {trace.name: trace for trace in fig.data}
    raw, weights = by_name["raw score"], by_name["weight"]
    np.testing.assert_allclose(decode(raw.y).astype(float), result.scores[2], rtol=1e-6)
    np.testing.assert_allclose(decode(weights.y).astype(float), result.weights[2], rtol=1e-6)
    assert "sat" in fig.layout.title.text
    with pytest.raises(ValueError, match="query 5 is out of range: there are 5 queries"):
        figures.query_breakdown(result, x, 5)


def test_the_model_view_and_one_head(attentions):
    fig = figures.model_view(attentions)
    (mosaic,) = fig.data  # every head in one heatmap
    np.testing.assert_allclose(grid_block(mosaic.z, 3, 4, 1, 1), attentions[1, 1], rtol=1e-6)
    head = figures.head_heatmap(attentions, TOKENS, 2, 3)
    np.testing.assert_allclose(decode(head.data[0].z).astype(float), attentions[2, 3], rtol=1e-6)
    assert head.layout.title.text == "Layer 2, head 3"
    assert "층 2" in figures.head_heatmap(attentions, TOKENS, 2, 3, language="ko").layout.title.text
    with pytest.raises(ValueError, match="unknown language 'fr': choose one of en, ko"):
        figures.model_view(attentions, language="fr")
    with pytest.raises(ValueError, match="layer 3, head 0 is out of range: layers 0 to 2"):
        figures.head_view(attentions, TOKENS, 3, 0)
    with pytest.raises(ValueError, match="T = 4 tokens, got \\(3, 4, 5, 5\\)"):
        figures.head_heatmap(attentions, TOKENS[:4], 0, 0)


def test_the_head_view_draws_each_weight_as_a_line_of_its_opacity(attentions):
    fig = figures.head_view(attentions, TOKENS, 1, 2)
    w = attentions[1, 2]
    drawn = {}
    for trace in fig.data[:-2]:  # the line traces, then the two token columns
        xs, ys = list(trace.x), list(trace.y)
        for k in range(0, len(xs), 3):
            assert xs[k : k + 3] == [0, 1, None]
            drawn[(ys[k], ys[k + 1])] = trace.opacity
    expected = {
        (i, j): max(1, round(float(w[i, j]) * lines.SHADES)) / lines.SHADES
        for i in range(5)
        for j in range(5)
        if w[i, j] >= lines.FAINTEST
    }
    assert drawn == pytest.approx(expected)
    queries, keys = fig.data[-2:]
    assert list(queries.text) == TOKENS and set(queries.x) == {0} and set(keys.x) == {1}
    strongest = int(w[0].argmax())
    assert f"{TOKENS[strongest]}  {float(w[0].max()):.2f}" in queries.hovertext[0].split("<br>")[2]


def test_the_head_view_escapes_tokens():
    w, text = torch.full((2, 2), 0.5), notebook._text("en")
    fig = lines.head_lines(w, ["<b>x</b>", "%{y}"], ["a", "b"], title="t", text=text)
    assert list(fig.data[-2].text) == ["&lt;b&gt;x&lt;/b&gt;", "%&#123;y&#125;"]
    with pytest.raises(ValueError, match="weights \\(2, 2\\), 1 query and 2 key labels"):
        lines.head_lines(w, ["a"], ["a", "b"], title="t", text=text)


def test_the_offline_renderer_gives_plotly_json_and_html_that_fetches_nothing():
    result, values = textbook()
    fig = figures.attention_step(result, values, "weights")
    bundle = pio.renderers[notebook.RENDERER].to_mimebundle(fig.to_dict())
    data = bundle["application/vnd.plotly.v1+json"]["data"][0]
    np.testing.assert_allclose(decode(data["z"]).astype(float)[0, :2], [0.5, 0.5], rtol=1e-6)
    html = bundle["text/html"]
    assert "Plotly.newPlot" in html
    assert not FETCHES.search(html) and "mathjax" not in html.lower()
    previous = pio.renderers.default
    try:
        figures.notebook_mode()
        assert pio.renderers.default == "attnviz"
    finally:
        pio.renderers.default = previous


def test_save_writes_standalone_html_and_refuses_other_files(tmp_path):
    result, values = textbook()
    fig = figures.attention_step(result, values, "weights")
    page = figures.save(fig, tmp_path / "weights.html").read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and "Plotly.newPlot" in page
    assert get_plotlyjs() in page  # inlined; the library's own strings name hosts it never asks
    assert not FETCHES.search(page.replace(get_plotlyjs(), ""))
    with pytest.raises(ValueError, match=r"save writes \.html or \.png files, not 'weights\.svg'"):
        figures.save(fig, tmp_path / "weights.svg")
