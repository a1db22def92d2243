"""Export menu of a figure: PNG and standalone HTML, made only when asked for."""

from __future__ import annotations

import plotly.graph_objects as go


def figure_exports(fig: go.Figure, key: str) -> None:
    """The export buttons under a chart (placeholder until export lands)."""
