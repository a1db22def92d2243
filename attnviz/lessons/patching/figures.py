"""The patching page's figures, through the kit: the two prompts' tokens aligned with the
differing ones boxed, the heads grid and the layers x positions grids on one diverging scale
about 0 with 1 (the clean run) marked on the colour bar."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
import torch

from attnviz.figures.heatmap import heatmap
from attnviz.figures.marks import boxed_note, mark_cells
from attnviz.figures.matrix import cell_number
from attnviz.figures.model import head_values
from attnviz.i18n import Catalogue

DIFFERS = 0.3  # a differing token's cell: light red on the scale about 0, its text legible


def tokens_figure(
    clean: Sequence[str], corrupted: Sequence[str], differ: Sequence[int], text: Catalogue
) -> go.Figure:
    """The clean and corrupted prompts as two rows of tokens, position by position, the
    positions in `differ` boxed; a position only one prompt has is a gap in the other."""
    width = max(len(clean), len(corrupted))
    rows = [
        list(clean) + [""] * (width - len(clean)),
        list(corrupted) + [""] * (width - len(corrupted)),
    ]
    present = np.array(
        [[i < len(clean) for i in range(width)], [i < len(corrupted) for i in range(width)]]
    )
    z = np.zeros((2, width))
    z[:, list(differ)] = DIFFERS
    fig = heatmap(
        z, title=text("patching.tokens_title"), kind="scores", bound=1.0, text=text,
        row_labels=[text("patching.row.clean"), text("patching.row.corrupted")],
        col_labels=[str(i) for i in range(width)], row_name=text("patching.prompt"),
        col_name=text("fig.position"), x_title=text("fig.position"),
        y_title=text("patching.prompt"), cell_text=rows, hover_text=rows, mask=present,
        show_numbers=True, showscale=False,
        notes=[boxed_note(text("patching.differs"))] if differ else (),
    )  # fmt: skip
    return mark_cells(fig, [(r, c) for c in differ for r in (0, 1)])


def mark_one(fig: go.Figure, bound: float) -> go.Figure:
    """The colour bar's ticks at its ends, 0 and ±1: 1 is the clean run, -1 as far the other way."""
    ends = {-bound, bound} if abs(bound - 1.0) > 0.05 * bound else set()  # not two 1s at one place
    values = sorted({-1.0, 0.0, 1.0} | ends)
    ticks = {"tickmode": "array", "tickvals": values, "ticktext": [cell_number(v) for v in values]}
    for trace in fig.data:
        if isinstance(trace, go.Heatmap) and trace.showscale is not False:
            trace.colorbar.update(ticks)
    return fig


def heads_figure(
    heads: torch.Tensor, bound: float, selected: tuple[int, int] | None, text: Catalogue
) -> go.Figure:
    """(L, H) the share recovered by each head's clean output; a click reports (layer, head)."""
    fig = head_values(
        heads, title=text("patching.heads_title"), text=text, bound=bound, kind="scores",
        selectable=True, selected=selected, across=2,
    )  # fmt: skip
    return mark_one(fig, bound)


def site_figure(
    grid: torch.Tensor, tokens: Sequence[str], title: str, bound: float, text: Catalogue
) -> go.Figure:
    """(L, T) the share recovered at each layer and position, positions named by the clean
    prompt's tokens."""
    layers = grid.shape[0]
    fig = heatmap(
        grid, title=title, kind="scores", bound=bound, text=text,
        row_labels=[str(layer) for layer in range(layers)], col_labels=list(tokens),
        row_name=text("fig.layer"), col_name=text("fig.position"), y_title=text("fig.layer"),
        x_title=text("fig.position"), show_numbers=False, across=2,
    )  # fmt: skip
    return mark_one(fig, bound)
