"""The multi-head lesson's figures: positional encodings, the layer's input, one weights
heatmap per head, the concatenated heads and the projected output."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go
import torch

from attnviz.figures.heatmap import heatmap
from attnviz.i18n import Catalogue
from attnviz.lessons.multihead.compute import MultiHeadView


def dims(count: int) -> list[str]:
    """Numbered dimensions 0, 1, ..."""
    return [str(i) for i in range(count)]


def _rows_figure(
    matrix: torch.Tensor,
    tokens: list[str],
    title: str,
    text: Catalogue,
    x_title: str | None = None,
    vlines: Sequence[float] = (),
) -> go.Figure:
    """A (T, d) matrix of token rows and numbered dimensions."""
    return heatmap(
        matrix,
        title=title,
        kind="values",
        text=text,
        row_labels=tokens,
        col_labels=dims(matrix.shape[-1]),
        row_name=text("multihead.token"),
        col_name=text("fig.dims"),
        x_title=x_title or text("fig.dims"),
        y_title=text("multihead.tokens"),
        vlines=vlines,
    )


def build_figures(view: MultiHeadView, positional: bool, text: Catalogue) -> dict[str, go.Figure]:
    """Every heatmap of the page: "pe", "input", "head_0".., "concat", "output"."""
    result = view.result
    input_title = "multihead.input_title" if positional else "multihead.input_title_plain"
    figs = {
        "pe": _rows_figure(view.pe, view.tokens, text("multihead.pe_title"), text),
        "input": _rows_figure(view.x, view.tokens, text(input_title), text),
    }
    weights = result.weights  # (h, T, T)
    for head in range(weights.shape[0]):
        figs[f"head_{head}"] = heatmap(
            weights[head],
            title=text("multihead.head_title", head=head + 1),
            kind="weights",
            text=text,
            row_labels=view.tokens,
            col_labels=view.tokens,
            mask=None if result.mask is None else result.mask[head],
            hover={text("fig.hover.weight"): weights[head]},
        )
    d_model = result.concat.shape[-1]
    d_head = result.head_outputs.shape[-1]
    figs["concat"] = _rows_figure(
        result.concat,
        view.tokens,
        text("multihead.concat_title"),
        text,
        x_title=text("multihead.concat_x", d_head=d_head),
        vlines=[boundary - 0.5 for boundary in range(d_head, d_model, d_head)],
    )
    figs["output"] = _rows_figure(result.output, view.tokens, text("multihead.output_title"), text)
    return figs
