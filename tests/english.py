"""The figure builders with English words, as most tests draw them (a Catalogue is a builder's
argument: attnviz.figures never reads the current language)."""

from __future__ import annotations

from functools import partial

from attnviz.figures import breakdown, steps
from attnviz.figures import heatmap as heatmaps
from attnviz.i18n import Catalogue
from attnviz.lessons.home import figures as home

EN = Catalogue("en")
KO = Catalogue("ko")
heatmap = partial(heatmaps.heatmap, text=EN)
vector_rows = partial(heatmaps.vector_rows, text=EN)
query_breakdown = partial(breakdown.query_breakdown, text=EN)
step_figure = partial(steps.step_figure, text=EN)
pipeline_figure = partial(home.pipeline_figure, EN)
