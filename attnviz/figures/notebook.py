"""The figures of the pages for a notebook or a script: the same builders, words in one
language, labels made when none are given; and an offline renderer for Jupyter.

    from attnviz import figures
    from attnviz.attention import attend

    figures.notebook_mode()  # plotly.js from the installed package: no CDN, no MathJax
    result = attend(queries, keys, values, valid_lens=torch.tensor([2, 3]))
    figures.attention_step(result, values, "weights")  # the Playground's weights heatmap

Every function returns a `go.Figure` and shows nothing; `save` writes one as the app's
downloads do (standalone HTML, or PNG through the machine's Chromium).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
import plotly.io as pio
import torch
from plotly.io.base_renderers import PlotlyRenderer

from attnviz.attention import AttentionResult
from attnviz.figures import breakdown, export, heatmap, lines, model, steps
from attnviz.figures.fit import chart_width
from attnviz.figures.labels import default_labels
from attnviz.i18n import LANGUAGES, Catalogue

RENDERER = "attnviz"
STEPS = steps.STEPS


def _text(language: str) -> Catalogue:
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}: choose one of {', '.join(LANGUAGES)}")
    return Catalogue(language)


def _sized(fig: go.Figure, across: float = 1) -> go.Figure:
    """`fig` as wide as the page draws it (a notebook's output would stretch it otherwise)."""
    return fig.update_layout(width=round(chart_width(across)))


def _labels(labels: Sequence[str] | None, prefix: str, count: int) -> list[str]:
    return default_labels(prefix, count) if labels is None else [str(x) for x in labels]


def attention_step(
    result: AttentionResult,
    values: torch.Tensor,
    step: str = "weights",
    *,
    query_labels: Sequence[str] | None = None,
    key_labels: Sequence[str] | None = None,
    selected: tuple[int, int] | None = None,
    masked_values: bool = True,
    language: str = "en",
) -> go.Figure:
    """One step of `result` (`attend`'s) as the Playground draws it: "scores",
    "masked_scores", "weights", "values" or "output" (STEPS). `values` is (m, d_v).

    Labels default to q0, q1, ... and k0, k1, ...; `selected` (query, key) boxes that cell;
    masked cells carry their numbers (the fill, 0) unless `masked_values` is False.
    """
    n, m = result.weights.shape[-2:]
    fig = steps.step_figure(
        result,
        values,
        step,
        query_labels=_labels(query_labels, "q", n),
        key_labels=_labels(key_labels, "k", m),
        text=_text(language),
        selected=selected,
        masked_values=masked_values,
    )
    return _sized(fig)


def query_breakdown(
    result: AttentionResult,
    values: torch.Tensor,
    query: int,
    *,
    query_labels: Sequence[str] | None = None,
    key_labels: Sequence[str] | None = None,
    selected_key: int | None = None,
    language: str = "en",
) -> go.Figure:
    """One query's scores, weights and weight x value contributions (the Playground's
    breakdown): its row of `result` and the (m, d_v) `values`."""
    n, m = result.weights.shape[-2:]
    if not 0 <= query < n:
        raise ValueError(f"query {query} is out of range: there are {n} queries (0 to {n - 1})")
    fig = breakdown.query_breakdown(
        query=query,
        scores=result.scores[query],
        masked_scores=result.masked_scores[query],
        weights=result.weights[query],
        values=values,
        query_label=_labels(query_labels, "q", n)[query],
        key_labels=_labels(key_labels, "k", m),
        mask=None if result.mask is None else result.mask[query],
        selected_key=selected_key,
        text=_text(language),
    )
    return _sized(fig)


def matrix_heatmap(
    values: object,
    *,
    title: str = "",
    kind: heatmap.Kind = "weights",
    row_labels: Sequence[str] | None = None,
    col_labels: Sequence[str] | None = None,
    x_title: str | None = None,
    y_title: str | None = None,
    language: str = "en",
) -> go.Figure:
    """Any (n, m) matrix as every page draws one (`heatmap.heatmap`): "weights" span 0..1,
    "scores" and "values" diverge at 0, "activations" run from 0 to their largest."""
    fig = heatmap.heatmap(
        values, title=title, kind=kind, text=_text(language), row_labels=row_labels,
        col_labels=col_labels, x_title=x_title, y_title=y_title,
    )  # fmt: skip
    return _sized(fig)


def model_view(attentions: torch.Tensor, *, language: str = "en") -> go.Figure:
    """Every head of (layers, heads, T, T) `attentions` (an `Encoded`'s), layers down and
    heads across, as the Model attention page draws them."""
    return _sized(model.model_view(torch.as_tensor(attentions), _text(language)))


def head_heatmap(
    attentions: torch.Tensor,
    tokens: Sequence[str],
    layer: int,
    head: int,
    *,
    language: str = "en",
) -> go.Figure:
    """Head `head` of layer `layer` as a heatmap, queries down and keys across (the Model
    attention page's enlarged head)."""
    attn = _head_checked(attentions, tokens, layer, head)
    labels = [str(token) for token in tokens]
    return _sized(model.head_heatmap(attn, layer, head, labels, labels, _text(language)), 2)


def head_view(
    attentions: torch.Tensor,
    tokens: Sequence[str],
    layer: int,
    head: int,
    *,
    language: str = "en",
) -> go.Figure:
    """Head `head` of layer `layer` as bertviz's head view draws it: tokens in two columns,
    lines as opaque as their weights (`lines.head_lines`)."""
    attn = _head_checked(attentions, tokens, layer, head)
    text = _text(language)
    title = text("model.head_title", layer=layer, head=head)
    return lines.head_lines(attn[layer, head], tokens, tokens, title=title, text=text)


def _head_checked(
    attentions: torch.Tensor, tokens: Sequence[str], layer: int, head: int
) -> torch.Tensor:
    attn = torch.as_tensor(attentions)
    if attn.ndim != 4 or attn.shape[-1] != len(tokens) or attn.shape[-2] != len(tokens):
        raise ValueError(
            f"attentions must be (layers, heads, T, T) with T = {len(tokens)} tokens, "
            f"got {tuple(attn.shape)}"
        )
    layers, heads = attn.shape[:2]
    if not (0 <= layer < layers and 0 <= head < heads):
        raise ValueError(
            f"layer {layer}, head {head} is out of range: layers 0 to {layers - 1}, "
            f"heads 0 to {heads - 1}"
        )
    return attn


def save(fig: go.Figure, path: str | Path) -> Path:
    """Write `fig` as the app's downloads are: .html (standalone, plotly.js inlined, no CDN,
    no MathJax) or .png (drawn by the machine's Chromium)."""
    path = Path(path)
    if path.suffix.lower() == ".html":
        path.write_bytes(export.figure_html(fig))
    elif path.suffix.lower() == ".png":
        path.write_bytes(export.figure_png(fig))
    else:
        raise ValueError(f"save writes .html or .png files, not {path.name!r}")
    return path


class OfflineRenderer(PlotlyRenderer):
    """Figures in Jupyter with nothing fetched: Plotly's own mimetype (JupyterLab, Notebook 7
    and VS Code draw it with the plotly.js they carry) and, for the classic notebook and
    nbconvert, HTML that draws with the plotly.js of the installed package, sent once when
    the renderer is first used. Plotly's "notebook" renderer would add MathJax from a CDN."""

    def activate(self) -> None:
        from IPython.display import display_html
        from plotly.offline import get_plotlyjs

        script = "window.PlotlyConfig = {MathJaxConfig: 'local'};"
        display_html(f"<script>{script}</script><script>{get_plotlyjs()}</script>", raw=True)

    def to_mimebundle(self, fig_dict: dict[str, Any]) -> dict[str, Any]:
        bundle: dict[str, Any] = super().to_mimebundle(fig_dict)
        bundle["text/html"] = pio.to_html(
            fig_dict, include_plotlyjs=False, include_mathjax=False, full_html=False,
            config={"displaylogo": False}, default_width="100%", validate=False,
        )  # fmt: skip
        return bundle


pio.renderers[RENDERER] = OfflineRenderer(config={"displaylogo": False})


def notebook_mode() -> None:
    """Show this notebook's figures offline (`OfflineRenderer`): call it once, first."""
    pio.renderers.default = RENDERER
