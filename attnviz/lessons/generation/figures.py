"""The generation lesson's own figures: a step's predicting row in every head, the key/value
cache as rows per layer, the logit lens of one step (the lens grid and each head's direct
part of the chosen token's logit), and what each new token drew on beside a head's rows."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
import torch

from attnviz.figures.heatmap import heatmap
from attnviz.figures.labels import escape_label
from attnviz.figures.marks import select
from attnviz.figures.model import head_values, logit_lens_figure
from attnviz.figures.panels import panels
from attnviz.figures.style import Kind, style_layout
from attnviz.i18n import Catalogue
from attnviz.transformer.lens import Lens

# The cache's cells: kept from the prompt, kept from generated tokens, added by this step.
CACHE_COLOURS = {1: "#9ecae1", 2: "#3182bd", 3: "#d62728"}
CACHE_ROW = 9  # px a layer


def cache_cells(prompt: int, total: int, step: int, layers: int) -> torch.Tensor:
    """(layers, total) cells of the cache after step `step` (1-based): 1 a prompt row, 2 a
    generated token's row, 3 the rows this step's forward added (the whole prompt at step 1,
    then the token before), NaN rows not yet cached."""
    cells = torch.full((layers, total), float("nan"))
    rows = prompt + step - 1
    cells[:, :prompt] = 1
    cells[:, prompt:rows] = 2
    if step == 1:
        cells[:, :prompt] = 3
    else:
        cells[:, rows - 1] = 3
    return cells


def cache_figure(
    prompt: int, total: int, step: int, layers: int, size: int, text: Catalogue
) -> go.Figure:
    """The key/value cache after step `step`: one row of cells per layer, a cell per cached
    position, growing by one each step to the generation's `total` positions."""
    cells = cache_cells(prompt, total, step, layers)
    bounds = [(1, 2), (2, 3), (3, 4)]
    scale = []
    for value, (lo, hi) in zip(CACHE_COLOURS, bounds, strict=True):
        colour = CACHE_COLOURS[value]
        scale += [[(lo - 1) / 3, colour], [(hi - 1) / 3, colour]]
    title = text(
        "generation.cache_title",
        step=step,
        rows=prompt + step - 1,
        layers=layers,
        size=f"{size / 1e6:.2f}",
    )
    layout = style_layout(title, height=CACHE_ROW * layers + 150, top=70)
    layout.update(
        xaxis={"title": {"text": text("fig.position")}, "range": [-0.5, total - 0.5]},
        yaxis={"title": {"text": text("fig.layer")}, "autorange": "reversed"},
        plot_bgcolor="white",
        legend={"orientation": "h", "y": -0.25, "x": 0},
        margin={"l": 70, "r": 20, "t": 70, "b": 90},
    )
    heat = go.Heatmap(
        z=cells.tolist(),
        zmin=1,
        zmax=4,
        colorscale=scale,
        showscale=False,
        xgap=0,
        ygap=1,
        hovertemplate=f"{text('fig.layer')} %{{y}}, {text('fig.position')} %{{x}}<extra></extra>",
    )
    keys = ("generation.cache.prompt", "generation.cache.generated", "generation.cache.added")
    legend = [
        go.Scatter(
            x=[None],
            y=[None],
            mode="markers",
            marker={"symbol": "square", "size": 12, "color": CACHE_COLOURS[value]},
            name=text(key),
        )
        for value, key in zip(CACHE_COLOURS, keys, strict=True)
    ]
    return go.Figure([heat, *legend], layout)


def lens_figure(
    read: Lens,
    labels: Sequence[str],
    pieces: Sequence[Sequence[Sequence[str]]],
    step: int,
    text: Catalogue,
) -> go.Figure:
    """The lens grid of one step: `labels` the read positions' tokens, `pieces`
    (L + 1, P, LAYER_TOP) the readable top tokens of each cell."""
    hover = [
        [
            "\n".join(
                f"{piece}: {float(p):.4f}"
                for piece, p in zip(pieces[row][col], read.top_probs[row, col], strict=True)
            )
            for col in range(len(read.positions))
        ]
        for row in range(len(pieces))
    ]
    columns = [f"{label} ({i})" for label, i in zip(labels, read.positions, strict=True)]
    return logit_lens_figure(
        [[cell[0] for cell in row] for row in pieces],
        read.final_probs,
        hover,
        positions=columns,
        title=text("generation.lens_title", step=step),
        text=text,
    )


def head_logits_figure(
    read: Lens, token: str, selected: tuple[int, int], text: Catalogue
) -> go.Figure:
    """Each head's direct part of the logit of `token` (signed, about 0); a click picks a head."""
    assert read.head_logits is not None
    return head_values(
        read.head_logits,
        title=text("generation.heads_title", token=token),
        text=text,
        kind="scores",
        selectable=True,
        selected=selected,
    )


HEADS_ROW_PX = 3  # px of one head's row in the every-head figure
LAYER_LABEL_PX = 18  # px a layer's tick label needs
SEPARATOR = "white"  # the line between two layers' bands


def heads_rows_figure(
    attention: torch.Tensor,
    keys: Sequence[str],
    title: str,
    selected: tuple[int, int],
    text: Catalogue,
) -> go.Figure:
    """(L, H, S) one step's predicting row in every layer and head as one heatmap: a band of H
    rows a layer, layer 0 on top, keys across. A click anywhere on a head's row reports
    (layer, head): one invisible point a row, at the middle of the keys, is the nearest to the
    pointer from anywhere in that row. One chart, where a thumbnail a head (270 subplots for
    SmolLM2) took Chromium 6.8 s to draw at each step."""
    layers, heads, length = attention.shape
    rows = [f"{layer}·{head}" for layer in range(layers) for head in range(heads)]
    fig = heatmap(
        attention.reshape(layers * heads, length),
        title=title,
        kind="weights",
        text=text,
        row_labels=rows,
        col_labels=list(keys),
        row_name=text("generation.heads_row"),
        col_name=text("model.keys"),
        x_title=text("model.keys"),
        y_title=text("fig.layer"),
        show_numbers=False,
        height=layers * heads * HEADS_ROW_PX + 160,
    )
    select(fig, selected[0] * heads + selected[1])
    every = -(-LAYER_LABEL_PX // (heads * HEADS_ROW_PX))  # bands a layer label needs
    shown = range(0, layers, every)
    fig.update_yaxes(
        tickmode="array",
        tickvals=[layer * heads + (heads - 1) / 2 for layer in shown],
        ticktext=[str(layer) for layer in shown],
    )
    separators = [
        {"type": "line", "xref": "paper", "x0": 0, "x1": 1, "yref": "y",
         "y0": layer * heads - 0.5, "y1": layer * heads - 0.5,
         "line": {"color": SEPARATOR, "width": 1}}
        for layer in range(1, layers)
    ]  # fmt: skip
    fig.update_layout(
        hoverdistance=-1,  # the nearest row's point from anywhere: a click reports that head
        shapes=[*fig.layout.shapes, *separators],
    )
    fig.add_trace(_head_points(attention, keys, text))
    return fig


def _head_points(attention: torch.Tensor, keys: Sequence[str], text: Catalogue) -> go.Scatter:
    """One invisible point a head's row at the middle of the keys, [layer, head] its
    customdata, its hover naming the row's strongest key."""
    layers, heads, length = attention.shape
    weight, strongest = attention.reshape(layers * heads, length).max(-1)
    labels = [escape_label(key) for key in keys]
    return _row_overlay(
        "heads",
        length,
        [[layer, head] for layer in range(layers) for head in range(heads)],
        [
            f"{labels[index]} ({float(value):.4f})"
            for value, index in zip(weight.tolist(), strongest.tolist(), strict=True)
        ],
        text("generation.heads_hover"),
    )


def _row_overlay(
    name: str, width: int, customdata: Sequence[object], hover: Sequence[str], template: str
) -> go.Scatter:
    """One invisible point a row at the middle of its `width` columns: a click anywhere on a
    row reports its point (with the layout's hoverdistance -1, the nearest from anywhere)."""
    return go.Scatter(
        x=[(width - 1) / 2] * len(customdata),
        y=list(range(len(customdata))),
        mode="markers",
        name=name,
        marker={"opacity": 0},
        selected={"marker": {"opacity": 0}},
        unselected={"marker": {"opacity": 0}},
        customdata=list(customdata),
        text=list(hover),
        hovertemplate=template + "<extra></extra>",
        showlegend=False,
    )


def drew_on_figure(
    attribution: np.ndarray,
    attention: np.ndarray,
    rows: Sequence[str],
    keys: Sequence[str],
    step: int,
    titles: tuple[str, str],
    normalised: bool,
    text: Catalogue,
) -> go.Figure:
    """What each new token drew on: the (N, T) attribution matrix beside the chosen head's
    (N, T) rows, new tokens `rows` down, the tokens before them `keys` across, one panel each;
    step `step`'s row (1-based) framed. Signed attributions diverge at 0 (from -1 to 1 when
    `normalised`). A click anywhere on a row of either panel reports that row (`_row_points`)."""
    shown = []
    kinds: tuple[Kind, Kind] = ("scores", "weights")
    # The attribution's columns are the inputs it is read at; only the head attends to them.
    across = (text("generation.drew_keys"), text("model.keys"))
    for matrix, title, kind, x_title in zip(
        (attribution, attention), titles, kinds, across, strict=True
    ):
        # Cells after each row's last key are NaN: the kit's number formats compare them.
        with np.errstate(invalid="ignore"):
            fig = heatmap(
                matrix, title=title, kind=kind, text=text, row_labels=rows, col_labels=keys,
                row_name=text("generation.drew_row"), col_name=x_title,
                x_title=x_title, y_title=text("generation.drew_row"),
                show_numbers=False, across=2,
                bound=1.0 if normalised and kind == "scores" else None,
            )  # fmt: skip
        select(fig, step - 1)
        fig.add_trace(_row_points(matrix, rows, keys, text))
        fig.update_layout(hoverdistance=-1)  # the nearest row's point from anywhere in the row
        shown.append(fig)
    return panels(shown)


def _row_points(
    matrix: np.ndarray, rows: Sequence[str], keys: Sequence[str], text: Catalogue
) -> go.Scatter:
    """The panel's click overlay, a point a row (named "cells" as `marks.select_cells`' is, so
    `panels` records it and a click reports its row), its step the customdata, its hover
    naming the row's new token and the key of its largest value in size."""
    count, width = matrix.shape
    names = [escape_label(key) for key in keys]
    strongest = [int(np.nanargmax(np.abs(row))) for row in matrix]
    return _row_overlay(
        "cells",
        width,
        list(range(1, count + 1)),
        [
            f"{escape_label(rows[i])} ← {names[j]} ({matrix[i, j]:.3g})"
            for i, j in enumerate(strongest)
        ],
        text("generation.drew_hover"),
    )
