"""The figures kit: Plotly builders, data and labels in, `go.Figure` out; nothing here draws.

Builders never read the current language: they take an `attnviz.i18n.Catalogue` (`text`)
for the words of a chart, and escape every label that may come from a person. Import from the
module that defines a name: `heatmap` (the one heatmap builder), `breakdown` (one query's
output row), `grid` (the layers x heads model view), `steps` (the heatmaps of an attention
result), `budget` (how a matrix is sent, and how many bytes a figure sends), `image` (large
matrices as a pooled PNG), `matrix` (the traces every matrix figure shares), `style`, `labels`,
`formulas` (LaTeX of each step) and `export` (PNG and standalone HTML files).
"""
