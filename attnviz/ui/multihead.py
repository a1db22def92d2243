"""The multi-head page's widgets, computation and views (pages/6_Multi_head.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import plotly.graph_objects as go
import streamlit as st
import torch

from attnviz import figures, formulas, parsing
from attnviz.heads import MultiHeadResult, embed_tokens, multi_head_attention, positional_encoding
from attnviz.i18n import get_language, t
from attnviz.ui import links
from attnviz.ui.base import csv_download, init_state, plot

# Widget keys (the page prefix is "mh_").
SENTENCE = "mh_sentence"
D_MODEL = "mh_d_model"
HEADS = "mh_heads"
POSITIONAL = "mh_positional"
CAUSAL = "mh_causal"
SEED = "mh_seed"

DEFAULT_SENTENCE = "the cat sat on the mat"
MAX_TOKENS = 32
MAX_CHARS = 1000
# 12 and 3 are there so that a combination can fail: with powers of two alone, h always
# divides d_model and the rule d_head = d_model / h would never show.
D_MODELS: tuple[int, ...] = (8, 12, 16, 32, 64)
HEAD_COUNTS: tuple[int, ...] = (1, 2, 3, 4, 8)
DEFAULT_D_MODEL = 16
DEFAULT_HEADS = 4
SAME_ROWS = 1e-6  # rows of weights closer than this count as identical
DEFAULTS: dict[str, Any] = {
    SENTENCE: DEFAULT_SENTENCE,
    D_MODEL: DEFAULT_D_MODEL,
    HEADS: DEFAULT_HEADS,
    SEED: 0,
    POSITIONAL: True,
    CAUSAL: False,
}
# The page's settings in a link (ui.links): short names, the widgets' options and bounds.
MULTIHEAD_LINK: tuple[links.Param, ...] = (
    links.text_param("text", SENTENCE, DEFAULT_SENTENCE),
    links.choice_param("dmodel", D_MODEL, DEFAULT_D_MODEL, {str(d): d for d in D_MODELS}),
    links.choice_param("h", HEADS, DEFAULT_HEADS, {str(h): h for h in HEAD_COUNTS}),
    links.int_param("seed", SEED, DEFAULTS[SEED], 0, 2**31 - 1),
    links.bool_param("pe", POSITIONAL, DEFAULTS[POSITIONAL]),
    links.bool_param("causal", CAUSAL, DEFAULTS[CAUSAL]),
)


@dataclass(frozen=True)
class MultiHeadChoice:
    """What the controls hold."""

    text: str
    d_model: int
    heads: int
    positional: bool
    causal: bool
    seed: int


@dataclass(frozen=True)
class MultiHeadView:
    """The tokens, the inputs and the result of one run of the page."""

    tokens: list[str]
    found: int  # tokens in the text before truncation to MAX_TOKENS
    pe: torch.Tensor  # (T, d_model)
    x: torch.Tensor  # (T, d_model) embeddings (+ PE when positional)
    result: MultiHeadResult


def tokenize(text: str) -> tuple[list[str], int]:
    """Lower-cased whitespace tokens, at most MAX_TOKENS, and how many the text had."""
    tokens = text.lower().split()
    if not tokens:
        raise parsing.InputError("multihead_empty")
    return tokens[:MAX_TOKENS], len(tokens)


def controls() -> MultiHeadChoice:
    """The sentence, sizes, toggles and seed, in the main area above the figures."""
    # Defaults through the session state, not the widgets: a link may have set them (ui.links).
    for key, value in DEFAULTS.items():
        init_state(key, value)
    text = st.text_input(
        t("multihead.sentence"),
        key=SENTENCE,
        max_chars=MAX_CHARS,
        help=t("multihead.sentence.help", limit=MAX_TOKENS),
        persist_state="session",
    )
    row = st.columns([1, 1, 1, 1.2, 1.2], vertical_alignment="bottom")
    d_model = row[0].selectbox(
        t("multihead.d_model"), D_MODELS, key=D_MODEL, persist_state="session"
    )
    heads = row[1].selectbox(
        t("multihead.heads"),
        HEAD_COUNTS,
        key=HEADS,
        help=t("multihead.heads.help"),
        persist_state="session",
    )
    seed = row[2].number_input(
        t("multihead.seed"),
        0,
        2**31 - 1,
        step=1,
        key=SEED,
        help=t("multihead.seed.help"),
        persist_state="session",
    )
    positional = row[3].toggle(
        t("multihead.positional"),
        key=POSITIONAL,
        help=t("multihead.positional.help"),
        persist_state="session",
    )
    causal = row[4].toggle(
        t("multihead.causal"),
        key=CAUSAL,
        help=t("multihead.causal.help"),
        persist_state="session",
    )
    return MultiHeadChoice(
        text=text or "",
        d_model=int(d_model or DEFAULT_D_MODEL),
        heads=int(heads or DEFAULT_HEADS),
        positional=bool(positional),
        causal=bool(causal),
        seed=int(seed or 0),
    )


def run(
    tokens: list[str], d_model: int, heads: int, positional: bool, causal: bool, seed: int
) -> tuple[torch.Tensor, torch.Tensor, MultiHeadResult]:
    """(PE, X, result) exactly as the page computes them; tests call it as the reference."""
    pe = positional_encoding(len(tokens), d_model)  # (T, d_model)
    x = embed_tokens(tokens, d_model, seed)  # (T, d_model)
    if positional:
        x = x + pe
    return pe, x, multi_head_attention(x, num_heads=heads, seed=seed, causal=causal)


def compute(choice: MultiHeadChoice) -> MultiHeadView:
    """Tokens -> inputs -> multi-head attention; InputError for the page on bad input."""
    tokens, found = tokenize(choice.text)
    if choice.d_model % choice.heads:
        options = ", ".join(str(h) for h in HEAD_COUNTS if choice.d_model % h == 0)
        raise parsing.InputError(
            "multihead_heads", d_model=choice.d_model, heads=choice.heads, options=options
        )
    pe, x, result = run(
        tokens, choice.d_model, choice.heads, choice.positional, choice.causal, choice.seed
    )
    return MultiHeadView(tokens, found, pe, x, result)


def figures_for(choice: MultiHeadChoice) -> dict[str, go.Figure]:
    """The page's figures, cached per choice and language."""
    return _cached_figures(
        choice.text,
        choice.d_model,
        choice.heads,
        choice.positional,
        choice.causal,
        choice.seed,
        get_language(),
    )


def show_truncation(view: MultiHeadView) -> None:
    if view.found > len(view.tokens):
        st.info(t("multihead.truncated", found=view.found, limit=MAX_TOKENS))


def _dims(count: int) -> list[str]:
    return [str(i) for i in range(count)]


def _rows_figure(matrix: torch.Tensor, tokens: list[str], title: str) -> go.Figure:
    """A (T, d) matrix of token rows and numbered dimensions."""
    return figures.heatmap(
        matrix,
        title=title,
        kind="values",
        row_labels=tokens,
        col_labels=_dims(matrix.shape[-1]),
        row_name=t("multihead.token"),
        col_name=t("fig.dims"),
        x_title=t("fig.dims"),
        y_title=t("multihead.tokens"),
    )


def build_figures(view: MultiHeadView, positional: bool) -> dict[str, go.Figure]:
    """Every heatmap of the page: "pe", "input", "head_0".., "concat", "output"."""
    result = view.result
    input_title = "multihead.input_title" if positional else "multihead.input_title_plain"
    figs = {
        "pe": _rows_figure(view.pe, view.tokens, t("multihead.pe_title")),
        "input": _rows_figure(view.x, view.tokens, t(input_title)),
    }
    weights = result.weights  # (h, T, T)
    for head in range(weights.shape[0]):
        figs[f"head_{head}"] = figures.heatmap(
            weights[head],
            title=t("multihead.head_title", head=head + 1),
            kind="weights",
            row_labels=view.tokens,
            col_labels=view.tokens,
            mask=None if result.mask is None else result.mask[head],
            hover={t("fig.hover.weight"): weights[head]},
        )
    d_model = result.concat.shape[-1]
    d_head = result.head_outputs.shape[-1]
    concat = _rows_figure(result.concat, view.tokens, t("multihead.concat_title"))
    concat.update_xaxes(title=figures.escape_label(t("multihead.concat_x", d_head=d_head)))
    for boundary in range(d_head, d_model, d_head):
        concat.add_vline(x=boundary - 0.5, line_color="black", line_width=2)
    figs["concat"] = concat
    figs["output"] = _rows_figure(result.output, view.tokens, t("multihead.output_title"))
    return figs


@st.cache_data(max_entries=16, show_spinner=False)
def _cached_figures(
    text: str, d_model: int, heads: int, positional: bool, causal: bool, seed: int, lang: str
) -> dict[str, go.Figure]:
    # Building eight Plotly figures costs far more than the attention itself. `lang` is only
    # part of the cache key: the titles are translated.
    del lang
    choice = MultiHeadChoice(text, d_model, heads, positional, causal, seed)
    return build_figures(compute(choice), positional)


def show_inputs(figs: dict[str, go.Figure], positional: bool) -> None:
    """The positional encodings and the input X the layer receives."""
    left, right = st.columns(2)
    with left:
        plot(figs["pe"], key="mh_pe")
    with right:
        plot(figs["input"], key="mh_input")
    if not positional:
        st.caption(t("multihead.pe_off"))


def show_heads(figs: dict[str, go.Figure], heads: int) -> None:
    """One weights heatmap per head, in a grid."""
    # Two across: at four, a 6 × 6 heatmap's cells are too narrow for their numbers.
    per_row = 2
    for start in range(0, heads, per_row):
        columns = st.columns(per_row)
        for head in range(start, min(start + per_row, heads)):
            with columns[head - start]:
                plot(figs[f"head_{head}"], key=f"mh_head_{head}")


def _duplicate(tokens: list[str]) -> tuple[int, int] | None:
    """The positions of the first word that occurs twice."""
    seen: dict[str, int] = {}
    for j, token in enumerate(tokens):
        if token in seen:
            return seen[token], j
        seen[token] = j
    return None


def show_symmetry(view: MultiHeadView, choice: MultiHeadChoice) -> None:
    """What positional encodings change, measured on a repeated word of the sentence."""
    pair = _duplicate(view.tokens)
    if pair is None:
        st.caption(t("multihead.symmetry_none"))
        return
    i, j = pair
    weights = view.result.weights  # (h, T, T)
    diff = float((weights[:, i, :] - weights[:, j, :]).abs().max())
    labels = figures.unique_labels(view.tokens)
    values = {
        "a": labels[i],
        "b": labels[j],
        "i": i,
        "j": j,
        "diff": "0" if diff == 0 else f"{diff:.2g}",
    }
    if choice.positional:
        st.info(t("multihead.symmetry_positions", **values), icon=":material/pin_drop:")
    elif diff <= SAME_ROWS:
        st.warning(t("multihead.symmetry_same", **values), icon=":material/shuffle:")
    else:
        st.info(t("multihead.symmetry_causal", **values), icon=":material/pin_drop:")


def show_output(figs: dict[str, go.Figure]) -> None:
    """The heads side by side before W_o, and the layer's output after it."""
    left, right = st.columns(2)
    with left:
        plot(figs["concat"], key="mh_concat")
    with right:
        plot(figs["output"], key="mh_output")


def show_formulas(view: MultiHeadView) -> None:
    """The paper's formulas, then the current sizes and one row of head 1's weights."""
    T, d_model = view.x.shape
    h = view.result.weights.shape[0]
    d_head = d_model // h
    st.latex(
        r"\mathrm{MultiHead}(Q, K, V) = \mathrm{Concat}(\mathrm{head}_1, \dots, \mathrm{head}_h)"
        r"\, W_o, \qquad \mathrm{head}_i = \mathrm{Attention}(Q W_q^{i},\ K W_k^{i},\ V W_v^{i})"
    )
    st.latex(
        r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left("
        r"\frac{Q K^\top}{\sqrt{d_{\mathrm{head}}}}\right) V"
    )
    st.latex(
        r"PE_{t,2i} = \sin\!\left(\frac{t}{10000^{2i/d_{\mathrm{model}}}}\right),\ "
        r"PE_{t,2i+1} = \cos\!\left(\frac{t}{10000^{2i/d_{\mathrm{model}}}}\right)"
    )
    st.markdown(f"**{t('multihead.formula_sizes')}**")
    st.latex(
        rf"Q = K = V = X \in \mathbb{{R}}^{{{T} \times {d_model}}}, \quad h = {h}, \quad "
        rf"d_{{\mathrm{{head}}}} = d_{{\mathrm{{model}}}} / h = {d_model} / {h} = {d_head}"
    )
    st.latex(
        rf"W_q^{{i}}, W_k^{{i}}, W_v^{{i}} \in \mathbb{{R}}^{{{d_model} \times {d_head}}}, \quad "
        rf"\mathrm{{head}}_i \in \mathbb{{R}}^{{{T} \times {d_head}}}, \quad "
        rf"\mathrm{{Concat}} \in \mathbb{{R}}^{{{T} \times {h} \cdot {d_head}}}, \quad "
        rf"W_o \in \mathbb{{R}}^{{{d_model} \times {d_model}}}"
    )
    row = view.result.weights[0, T - 1].tolist()
    st.markdown(t("multihead.formula_row"))
    st.latex(
        rf"\mathrm{{softmax}}\!\left(\frac{{q^{{(1)}}_{{{T - 1}}} K^{{(1)\top}}}}"
        rf"{{\sqrt{{{d_head}}}}}\right) = {formulas.vector(row)}"
    )


def show_downloads(view: MultiHeadView) -> None:
    """The positional encodings, the input, the concatenation and the output as CSV."""
    rows = figures.unique_labels(view.tokens)
    d_model = view.x.shape[-1]
    dims = _dims(d_model)
    matrices = [
        ("multihead.pe_title", view.pe, dims, "mh_pe"),
        ("multihead.input_title", view.x, dims, "mh_input"),
        ("multihead.concat_title", view.result.concat, dims, "mh_concat"),
        ("multihead.output_title", view.result.output, dims, "mh_output"),
    ]
    for column, (label_key, matrix, cols, key) in zip(
        st.columns(len(matrices)), matrices, strict=True
    ):
        with column:
            csv_download(t(label_key), matrix, rows, cols, key=key)
