"""The Playground's charts of one result: the three attention steps as one figure of panels, the
values beside the outputs as another (`attnviz.figures.panels`). A change of the scoring
function, the temperature or the inputs redraws these two and the breakdown, not six charts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go
import torch

from attnviz.attention import AttentionResult
from attnviz.figures.panels import panels
from attnviz.figures.steps import step_figure
from attnviz.i18n import Catalogue

ATTENTION_STEPS = ("scores", "masked_scores", "weights")  # the panels of `steps_figure`
VECTOR_STEPS = ("values", "output")  # the panels of `vectors_figure`


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
    """Raw scores, masked scores and weights side by side, one figure: each panel's cells are
    click targets (on matrices small enough), the `selected` (query, key) cell boxed and its
    row framed; `masked_values` writes the masked cells' numbers in their gaps."""
    return _step_panels(
        result, values, ATTENTION_STEPS, query_labels=query_labels, key_labels=key_labels,
        selected=selected, masked_values=masked_values, selectable=True, text=text,
    )  # fmt: skip


def vectors_figure(
    result: AttentionResult,
    values: torch.Tensor,
    *,
    query_labels: Sequence[str],
    key_labels: Sequence[str],
    selected: tuple[int, int],
    text: Catalogue,
) -> go.Figure:
    """The values beside the outputs, one figure: the selected key's row of the values and the
    selected query's row of the outputs framed."""
    return _step_panels(
        result, values, VECTOR_STEPS, query_labels=query_labels, key_labels=key_labels,
        selected=selected, text=text,
    )  # fmt: skip
