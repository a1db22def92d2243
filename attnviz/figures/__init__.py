"""The figures kit: Plotly builders, data and labels in, `go.Figure` out; nothing here draws.

For notebooks and scripts, this package's own names are the public API (`attnviz.figures.
notebook`, read on first use so that the pages' imports stay light): `notebook_mode`,
`attention_step`, `query_breakdown`, `matrix_heatmap`, `model_view`, `head_heatmap`, `head_view` and
`save`. ARCHITECTURE.md documents them.

Builders never read the current language: they take an `attnviz.i18n.Catalogue` (`text`)
for the words of a chart, and escape every label that may come from a person. Inside attnviz,
import from the module that defines a name: `heatmap` (the one heatmap builder), `marks` (the
marks added on a heatmap in steps), `axes` (a heatmap's size and axes), `breakdown`
(one query's output row), `grid` (the layers x heads model view), `model` (a pretrained
model's figures), `lines` (one head as lines between two columns of tokens), `steps` (the
heatmaps of an attention result), `panels` (several built figures as one figure of panels),
`budget` (how a matrix is sent, and how many bytes a figure sends), `image` (large matrices
as a pooled PNG), `matrix` (the traces every matrix figure shares), `style`, `labels`,
`formulas` (LaTeX of each step), `export` (PNG and standalone HTML files) and `notebook` (the
public API).
"""

from __future__ import annotations

from attnviz.exports import lazy_names

__all__ = [
    "attention_step",
    "head_heatmap",
    "head_view",
    "matrix_heatmap",
    "model_view",
    "notebook_mode",
    "query_breakdown",
    "save",
]

__getattr__, __dir__ = lazy_names(__name__, dict.fromkeys(__all__, "notebook"), globals())
