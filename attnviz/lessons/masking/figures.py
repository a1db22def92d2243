"""The masking lesson's figures and formulas: the padded batch, one sequence's combined mask
with the reason of every masked cell, and its scores, masked scores and weights."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt
import plotly.graph_objects as go
import torch

from attnviz.attention import AttentionResult
from attnviz.figures import formulas
from attnviz.figures.heatmap import heatmap
from attnviz.figures.marks import frame_row
from attnviz.figures.matrix import largest
from attnviz.i18n import Catalogue
from attnviz.lessons.masking.compute import combined_mask, sequence_result

# Numbers in the cells of the three-across heatmaps up to this many keys ("-.38", "-1e6" fit).
NUMBERS_LIMIT = 8
REASON_KEYS = {
    "padding": "masking.reason.padding",
    "causal": "masking.reason.causal",
    "cell": "masking.reason.cell",
}


def padding_figure(lens: torch.Tensor, m: int, seq: int, text: Catalogue) -> go.Figure:
    """The batch (B, m): real tokens (1) and padding (0), the chosen sequence framed."""
    batch = lens.shape[0]
    tokens = (torch.arange(m) < lens[:, None]).numpy()  # (B, m)
    rows = [text("masking.fig.seq_label", seq=b) for b in range(batch)]
    word = np.where(tokens, text("masking.fig.token"), text("masking.fig.pad"))
    position = text("masking.fig.position")
    hover = np.array([[f"{r}, {position} {j}" for j in range(m)] for r in rows], dtype=object)
    fig = heatmap(
        tokens.astype(float),
        title=text("masking.fig.padding"),
        kind="weights",
        text=text,
        row_labels=rows,
        col_labels=[str(j) for j in range(m)],
        x_title=text("masking.fig.positions"),
        y_title=text("masking.fig.sequences"),
        cell_text=np.where(tokens, "", text("masking.fig.pad")),
        hover_text=hover + "\n" + word.astype(object),
        showscale=False,
        height=int(min(420, 170 + 40 * batch)),
        across=2,
    )
    return frame_row(fig, seq)


def mask_figure(
    allowed: torch.Tensor, reasons: npt.NDArray[np.object_], seq: int, text: Catalogue
) -> go.Figure:
    """The combined mask of one sequence as a 0/1 grid; hover says why a cell is masked."""
    m = allowed.shape[0]
    query, key = text("fig.hover.query"), text("fig.hover.key")
    hover = np.empty((m, m), dtype=object)
    for i in range(m):
        for j in range(m):
            why = ", ".join(text(REASON_KEYS[r]) for r in reasons[i, j])
            state = (
                text("masking.fig.may_attend") if allowed[i, j] else f"{text('fig.masked')} ({why})"
            )
            hover[i, j] = f"{query} q{i}, {key} k{j}: {state}"
    return heatmap(
        allowed.float(),
        title=text("masking.fig.mask", seq=seq),
        kind="weights",
        text=text,
        show_numbers=True,
        hover_text=hover,
        showscale=False,
        across=2,
    )


def step_figures(
    result: AttentionResult,
    seq: int,
    keys: tuple[str, str, str],
    text: Catalogue,
    masked_values: bool = False,
) -> dict[str, go.Figure]:
    """Raw scores (nothing hidden), masked scores and weights (masked cells as gaps, with their
    numbers written when `masked_values`, else a ×) of sequence `seq`, under the chart `keys`."""
    one = sequence_result(result, seq)
    allowed = combined_mask(result, seq)
    m = allowed.shape[-1]
    hover = {
        text("masking.hover.raw"): one.scores,
        text("masking.hover.masked"): one.masked_scores,
        text("fig.hover.weight"): one.weights,
    }
    common: dict[str, Any] = {
        "text": text,
        "hover": hover,
        "across": 3,
        "show_numbers": m <= NUMBERS_LIMIT,
    }
    masked: dict[str, Any] = {"mask": allowed, "masked_values": masked_values}
    figs = [
        heatmap(one.scores, title=text("fig.scores"), kind="scores", **common),
        # the raw scores with gaps: their colour scale, and their bar
        heatmap(
            one.masked_scores,
            title=text("fig.masked_scores"),
            kind="scores",
            bound=largest(one.scores),
            showscale=False,
            bar_room=True,  # cells the size of its neighbours'
            **masked,
            **common,
        ),
        heatmap(one.weights, title=text("fig.weights"), kind="weights", **masked, **common),
    ]
    return dict(zip(keys, figs, strict=True))


def mask_latex(length: int, seq: int, causal: bool, cells: bool, text: Catalogue) -> str:
    """M_ij as the AND of the masks that are on, with sequence `seq`'s valid length."""
    parts = [rf"[\,j < \ell_{{{seq}}}\,]"]
    if causal:
        parts.append(r"[\,j \le i\,]")
    if cells:
        parts.append(r"C_{ij}")
    return (
        r"M_{ij} = " + r" \wedge ".join(parts) + rf",\qquad \ell_{{{seq}}} = {length}"
        rf"\quad (\text{{{text('masking.formula.true')}}})"
    )


def scores_latex(batch: int, m: int, d: int) -> str:
    """The batch's size and the scaled dot-product score with its sqrt(d)."""
    return (
        rf"X \in \mathbb{{R}}^{{{batch} \times {m} \times {d}}},\quad Q = K = V = X,\qquad "
        rf"s_{{ij}} = \frac{{q_i^\top k_j}}{{\sqrt{{d}}}},\quad \sqrt{{d}} = "
        rf"{formulas.number(math.sqrt(d))}"
    )
