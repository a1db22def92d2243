"""String catalogues and `t(key, **values)`: every string a person reads comes through here.

Keys are literal strings in the code, so `tests/test_i18n.py` can check that each one exists.
The current language lives in a ContextVar: Streamlit runs each script run in its own thread,
and `attnviz.ui.page_setup` sets it at the top of every run.
"""

from __future__ import annotations

from contextvars import ContextVar

DEFAULT_LANGUAGE = "en"

EN: dict[str, str] = {
    # --- navigation and page titles ---
    "app.name": "attnviz",
    "nav.home": "Overview",
    "nav.playground": "Playground",
    "lang.notice_unknown": "Unknown language {lang!r}: showing English.",
    # --- dashboard ---
    "home.title": "attnviz: see how attention works",
    "home.intro": (
        "Attention turns a set of **queries** into outputs by looking at a set of **keys** "
        "and **values**. Each query is compared with every key (a *score*), some pairs may be "
        "forbidden (a *mask*), the scores of each query become weights that sum to 1 "
        "(*softmax*), and the output is the weighted sum of the values."
    ),
    "home.pipeline_title": "From queries, keys and values to outputs",
    "home.example_heading": "A tiny live example",
    "home.example_text": (
        "Three queries and four keys in two dimensions, scored with scaled dot-product. "
        "Drag the temperature: a low temperature sharpens each row of weights towards its "
        "best-matching key, a high one spreads it out."
    ),
    "home.tour_heading": "Pages",
    "home.tour.playground": (
        "Type, paste, upload or generate queries, keys and values; choose the scoring "
        "function and masks; see every step as a heatmap, and how one output row is made."
    ),
    "pipeline.queries": "queries Q (n × d_q)",
    "pipeline.keys": "keys K (m × d_k)",
    "pipeline.values": "values V (m × d_v)",
    "pipeline.scores": "scores a(q, k) (n × m)",
    "pipeline.mask": "mask (padding, causal, cells)",
    "pipeline.softmax": "softmax per row: weights",
    "pipeline.output": "output = weights · V (n × d_v)",
    # --- playground ---
    "playground.title": "Playground",
    "playground.intro": (
        "Enter queries, keys and values, pick a scoring function and masks in the sidebar, "
        "and follow each step: raw scores, masked scores, softmax weights and outputs."
    ),
    "playground.rows_ok": "Every row with an allowed key sums to 1 (largest deviation {dev}).",
    "playground.rows_bad": "Rows do not sum to 1: largest deviation {dev}.",
    "playground.fully_masked": (
        "{count} query row(s) have every key masked: with fill value {fill} their weights "
        "are {what}."
    ),
    "playground.fully_masked.uniform": "uniform (1/m each), as the -1e6 trick gives",
    "playground.fully_masked.zeros": "all zero (a -inf fill leaves nothing to attend to)",
    "playground.steps_heading": "Step by step",
    "playground.breakdown_heading": "How one output row is made",
    "playground.breakdown_query": "Query to inspect",
    "playground.formula_heading": "The formulas with the current numbers",
    "playground.downloads_heading": "Download the matrices (CSV)",
    "playground.big_note": "Numbers are hidden in the cells above {limit} × {limit}; hover to read them.",
    # --- inputs ---
    "input.heading": "Inputs: queries, keys, values",
    "input.source": "Where the inputs come from",
    "input.source.edit": "Type, paste or edit",
    "input.source.upload": "Upload files",
    "input.source.random": "Random (seeded)",
    "input.preset": "Preset",
    "input.preset.textbook": "Textbook: one query, ten identical keys (d2l 11.3)",
    "input.preset.small": "Small example: 3 queries, 4 keys",
    "input.preset.tokens": "Self-attention: 4 tokens",
    "input.preset.apply": "Load preset",
    "input.self_attention": "Self-attention (keys = values = queries)",
    "input.self_attention.help": "Use the queries as keys and values too, as a self-attention layer does.",
    "input.queries": "Queries Q",
    "input.keys": "Keys K",
    "input.values": "Values V",
    "input.text_help": "One row per line (or separated by ';'); numbers separated by commas or spaces.",
    "input.grid": "Edit as a grid",
    "input.grid_too_big": "The grid editor shows matrices up to {limit} × {limit}; use the text box for this one.",
    "input.upload_help": "CSV (comma-separated numbers, no header) or .npy (a 2-D numeric array), at most {rows} rows and {cols} columns.",
    "input.uploaded": "Loaded {name}: {rows} × {cols}.",
    "input.n": "Queries n",
    "input.m": "Keys m",
    "input.d_q": "Query size d_q",
    "input.d_k": "Key size d_k",
    "input.d_v": "Value size d_v",
    "input.seed": "Seed",
    "input.new_seed": "New seed",
    "input.reset": "Reset to defaults",
    "input.random_note": "Entries drawn from N(0, 1) with seed {seed}: {n} queries, {m} keys.",
    "input.summary": "Q {n} × {d_q}, K {m} × {d_k}, V {m} × {d_v}.",
    # --- sidebar controls ---
    "controls.heading": "Attention",
    "controls.score": "Scoring function",
    "score.dot": "Dot product  q·k",
    "score.scaled_dot": "Scaled dot product  q·k / √d",
    "score.cosine": "Cosine similarity",
    "score.general": "General (bilinear)  qᵀ W k",
    "score.additive": "Additive  w_vᵀ tanh(W_q q + W_k k)",
    "score.gaussian": "Gaussian kernel  −‖q − k‖² / 2σ²",
    "controls.temperature": "Temperature",
    "controls.temperature.help": "Scores are divided by the temperature before the softmax.",
    "controls.sigma": "Kernel width σ",
    "controls.hidden": "Hidden size h",
    "controls.param_seed": "Parameter seed",
    "controls.param_seed.help": "W (general) or W_q, W_k, w_v (additive) are drawn from N(0, 1/fan_in) with this seed.",
    "controls.masks": "Masks",
    "controls.valid_lens": "Padding: valid keys per query",
    "controls.valid_lens.help": (
        "One number (the same for every query) or one per query, separated by commas. "
        "Keys at positions ≥ the valid length are masked. Leave empty for no padding."
    ),
    "controls.causal": "Causal (query i sees keys 0..i)",
    "controls.cells": "Mask hand-picked cells",
    "controls.cells.help": "Untick a cell to forbid that query from attending to that key.",
    "controls.cells_too_big": "Hand-picked cells are available up to {limit} × {limit}.",
    "controls.fill": "Fill value for masked scores",
    "controls.fill.help": "The textbook writes -1e6 into masked scores; -inf gives zero weights to a fully masked row.",
    # --- figures ---
    "fig.scores": "Raw scores",
    "fig.masked_scores": "Masked scores",
    "fig.weights": "Attention weights (softmax)",
    "fig.values": "Values V",
    "fig.output": "Outputs",
    "fig.queries": "Queries",
    "fig.keys": "Keys",
    "fig.dims": "Dimensions",
    "fig.masked": "masked",
    "fig.hover.query": "query",
    "fig.hover.key": "key",
    "fig.hover.score": "score",
    "fig.hover.weight": "weight",
    "fig.hover.value": "value",
    "fig.breakdown.title": "Query {query}: scores, weights and contributions",
    "fig.breakdown.scores": "Scores per key",
    "fig.breakdown.weights": "Weight per key",
    "fig.breakdown.contrib": "weight × value (rows sum to the output)",
    "fig.breakdown.raw": "raw score",
    "fig.breakdown.masked": "masked score",
    "fig.breakdown.weight": "weight",
    "fig.breakdown.output": "output",
    # --- formulas ---
    "formula.scores": "Scores",
    "formula.mask": "Mask",
    "formula.softmax": "Softmax",
    "formula.output": "Output",
    "formula.allowed": "if query i may attend key j",
    "formula.otherwise": "otherwise",
    # --- downloads ---
    "download.csv": "{name} (CSV)",
    # --- errors from attend and parsing ---
    "error.compute": "Cannot compute attention: {detail}",
    "error.input": "{what}: {detail}",
    "parse.empty": "The text is empty: enter at least one row of numbers.",
    "parse.ragged_rows": "Row {row} has {found} values but row 1 has {expected}: every row needs the same number of values.",
    "parse.not_a_number": "Row {row}, column {col}: {value!r} is not a number.",
    "parse.not_finite": "Row {row}, column {col}: {value!r} is not a finite number (NaN and infinity are not allowed).",
    "parse.too_large": "Row {row}, column {col}: {value!r} is beyond the float32 range (about ±3.4e38).",
    "parse.too_many_rows": "{found} rows: at most {limit} rows are allowed.",
    "parse.too_many_cols": "{found} columns: at most {limit} columns are allowed.",
    "parse.too_long": "The input has {found} characters: at most {limit} are allowed.",
    "parse.csv_header": "Row 1 of the CSV looks like a header ({value!r}): upload numbers only, without a header row.",
    "parse.csv_semicolon": "The CSV seems to use ';' between values and ',' as the decimal mark: save it with ',' between values and '.' as the decimal mark.",
    "parse.csv_unreadable": "The CSV file could not be read as text: {detail}",
    "parse.npy_unreadable": "The .npy file could not be read: {detail}",
    "parse.npy_dtype": "The .npy file holds {dtype} data: only numbers (integers, floats or booleans) are allowed.",
    "parse.npy_ndim": "The .npy file holds a {ndim}-D array of shape {shape}: a 2-D array (rows × columns) is needed.",
    "parse.file_too_big": "The file has {found} bytes: at most {limit} are allowed.",
    "parse.sizes": (
        "Keys have {d_k} columns but queries have {d_q}: {score} needs equal sizes "
        "(choose additive or general scoring for different sizes)."
    ),
    "parse.valid_lens": "Valid lengths {value!r}: enter whole numbers between 0 and {m}, one or {n} of them.",
}

CATALOGUES: dict[str, dict[str, str]] = {"en": EN}
LANGUAGES: tuple[str, ...] = tuple(CATALOGUES)

_language: ContextVar[str] = ContextVar("attnviz_language", default=DEFAULT_LANGUAGE)


def set_language(lang: str) -> str:
    """Make `lang` the language of `t` in this context; unknown languages fall back to English."""
    chosen = lang if lang in CATALOGUES else DEFAULT_LANGUAGE
    _language.set(chosen)
    return chosen


def get_language() -> str:
    """The language `t` uses in this context."""
    return _language.get()


def t(key: str, **values: object) -> str:
    """The string for `key` in the current language, formatted with `values`; English if missing."""
    catalogue = CATALOGUES.get(_language.get(), EN)
    template = catalogue.get(key, EN.get(key))
    if template is None:
        raise KeyError(f"no string for key {key!r}")
    return template.format(**values) if values else template
