"""The Playground's chart of one result: the three attention steps side by side above the values
beside the outputs, one figure of panels (`attnviz.figures.panels`). A change of the scoring
function, the temperature or the inputs redraws it and the breakdown, not six charts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go
import torch

from attnviz.attention import AttentionResult
from attnviz.figures.panels import panels
from attnviz.figures.steps import step_figure
from attnviz.i18n import Catalogue

ATTENTION_STEPS = ("scores", "masked_scores", "weights")  # `steps_figure`'s panels, top row
VECTOR_STEPS = ("values", "output")  # and below
EDGE = 12  # px of margin at the left and the top of the steps' figure


def _step_panels(
    result: AttentionResult, values: torch.Tensor, names: Sequence[str], **given: Any
) -> go.Figure:
    """The steps `names` of `result` side by side, one figure (`step_figure` takes `given`)."""
    return panels([step_figure(result, values, name, across=len(names), **given) for name in names])


def steps_figure(
    result: AttentionResult,
    values: torch.Tensor,
    *,
    query_labels: Sequence[str],
    key_labels: Sequence[str],
    selected: tuple[int, int],
    masked_values: bool,
    text: Catalogue,
) -> go.Figure:
    """Raw scores, masked scores and weights side by side, the values beside the outputs below,
    one figure. The attention steps' cells are click targets (on matrices small enough), the
    `selected` (query, key) cell boxed and its row framed; `masked_values` writes the masked
    cells' numbers in their gaps. The selected key's row of the values and the selected query's
    row of the outputs are framed."""
    given: dict[str, Any] = {
        "query_labels": query_labels, "key_labels": key_labels, "selected": selected,
        "text": text,
    }  # fmt: skip
    attention = _step_panels(
        result, values, ATTENTION_STEPS, masked_values=masked_values, selectable=True, **given
    )
    figure = panels([attention, _step_panels(result, values, VECTOR_STEPS, **given)], columns=1)
    # Crowded ticks (64 keys) reach a few px past the panels' paper at the left and the top:
    # room there keeps Plotly from drawing the figure twice to make it (its automatic margins).
    return figure.update_layout(margin={"l": EDGE, "t": EDGE}, height=figure.layout.height + EDGE)
