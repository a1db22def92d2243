"""The multi-head lesson's figures: positional encodings, the layer's input, every head's
weights as a thumbnail and one enlarged, a head's queries, keys and values, the concatenated
heads and the projected output. Heatmaps that change together are one figure of panels
(`attnviz.figures.panels`): the causal switch redraws two charts, not four."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go
import torch

from attnviz.figures import marks
from attnviz.figures.grid import heads_grid
from attnviz.figures.heatmap import heatmap
from attnviz.figures.panels import panels
from attnviz.i18n import Catalogue
from attnviz.lessons.multihead.compute import MultiHeadView, head_slices


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
    across: float = 1,
) -> go.Figure:
    """A (T, d) matrix of token rows and numbered dimensions, `across` charts a row, a line at
    each of `vlines`."""
    fig = heatmap(
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
        across=across,
    )
    return marks.vlines(fig, vlines)


HEADS_PER_ROW = 4  # thumbnails a row: eight heads in two rows


def build_figures(view: MultiHeadView, positional: bool, text: Catalogue) -> dict[str, go.Figure]:
    """The heatmaps that do not depend on the enlarged head: "pe", "input", "heads" (every
    head's weights as a thumbnail, a click on one reports its head), "concat", "output"."""
    result = view.result
    input_title = "multihead.input_title" if positional else "multihead.input_title_plain"
    d_model = result.concat.shape[-1]
    d_head = result.head_outputs.shape[-1]
    heads = result.weights.shape[0]
    return {
        # Two charts a row: the encodings beside the inputs, the concatenation beside the output.
        "pe": _rows_figure(view.pe, view.tokens, text("multihead.pe_title"), text, across=2),
        "input": _rows_figure(view.x, view.tokens, text(input_title), text, across=2),
        "heads": heads_grid(
            result.weights,  # (h, T, T)
            title=text("multihead.heads_title", heads=heads),
            head_label=text("fig.head"),
            per_row=HEADS_PER_ROW,
            mask=result.mask,
            selectable=True,
        ),
        "concat": _rows_figure(
            result.concat,
            view.tokens,
            text("multihead.concat_title"),
            text,
            x_title=text("multihead.concat_x", d_head=d_head),
            vlines=[boundary - 0.5 for boundary in range(d_head, d_model, d_head)],
            across=2,
        ),
        "output": _rows_figure(
            result.output, view.tokens, text("multihead.output_title"), text, across=2
        ),
    }


HEADS_WIDTHS = (3, 2)  # the thumbnails beside the enlarged head


def page_figures(view: MultiHeadView, positional: bool, text: Catalogue) -> dict[str, go.Figure]:
    """The page's charts that do not depend on the enlarged head, each a figure of panels:
    "inputs" (the encodings beside the input) and "outputs" (the concatenation beside the
    output); and "heads", the thumbnails alone, for `heads_figure`."""
    figs = build_figures(view, positional, text)
    return {
        "inputs": panels([figs["pe"], figs["input"]]),
        "heads": figs["heads"],
        "outputs": panels([figs["concat"], figs["output"]]),
    }


def heads_figure(thumbnails: go.Figure, enlarged: go.Figure) -> go.Figure:
    """The thumbnails (a click on one reports its head) beside the enlarged head, one figure."""
    return panels([thumbnails, enlarged], widths=HEADS_WIDTHS)


def head_figure(view: MultiHeadView, head: int, text: Catalogue) -> go.Figure:
    """Head `head`'s weights, enlarged: tokens on both axes, the numbers in the cells."""
    result = view.result
    weights = result.weights[head]  # (T, T)
    return heatmap(
        weights,
        title=text("multihead.head_title", head=head),
        kind="weights",
        text=text,
        row_labels=view.tokens,
        col_labels=view.tokens,
        mask=None if result.mask is None else result.mask[head],
        masked_values=True,  # a causal head's masked weights: 0, written in their gaps
        hover={text("fig.hover.weight"): weights},
        across=2.5,  # two fifths of the row, beside the thumbnails
    )


def slices_figure(view: MultiHeadView, head: int, text: Catalogue) -> go.Figure:
    """Head `head`'s queries, keys and values side by side, one figure of panels."""
    return panels(list(slices_figures(view, head, text).values()))


def slices_figures(view: MultiHeadView, head: int, text: Catalogue) -> dict[str, go.Figure]:
    """Head `head`'s queries, keys and values (T, d_head): "q", "k", "v"."""
    q, k, v = head_slices(view, head)
    names = {"q": "multihead.q_title", "k": "multihead.k_title", "v": "multihead.v_title"}
    return {
        name: _rows_figure(matrix, view.tokens, text(key, head=head), text, across=3)
        for (name, key), matrix in zip(names.items(), (q, k, v), strict=True)
    }
