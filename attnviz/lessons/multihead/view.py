"""The multi-head lesson below its title: a sentence's tokens with seeded embeddings and
sinusoidal positions, every head's weights as a thumbnail with one enlarged (and its Q, K, V on
request), the concatenated and projected output."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from attnviz.app import cache, controls, links
from attnviz.app.feedback import show_error
from attnviz.app.plot import csv_downloads, plot
from attnviz.app.selection import selected_head
from attnviz.figures import formulas
from attnviz.figures.labels import unique_labels
from attnviz.i18n import Catalogue, catalogue, t
from attnviz.lessons.multihead.compute import (
    D_MODELS,
    HEAD_COUNTS,
    MAX_TOKENS,
    MultiHeadChoice,
    MultiHeadView,
    compute,
    duplicate,
)
from attnviz.lessons.multihead.figures import (
    dims,
    head_figure,
    heads_figure,
    page_figures,
    slices_figure,
)

MAX_CHARS = 1000
SAME_ROWS = 1e-6  # rows of weights closer than this count as identical
SENTENCE = controls.text_control("text", "mh_sentence", "the cat sat on the mat")
D_MODEL = controls.choice_control("dmodel", "mh_d_model", 16, D_MODELS)
HEADS = controls.choice_control("h", "mh_heads", 4, HEAD_COUNTS)
SEED = controls.seed_control("seed", "mh_seed")
POSITIONAL = controls.bool_control("pe", "mh_positional", True)
CAUSAL = controls.bool_control("causal", "mh_causal", False)
# The enlarged head, 0..h-1; a link's head beyond the chosen h starts at head 0.
HEAD = controls.int_control("head", "mh_head", 0, 0, max(HEAD_COUNTS) - 1)
LINK: tuple[controls.Control, ...] = (SENTENCE, D_MODEL, HEADS, SEED, POSITIONAL, CAUSAL, HEAD)
# Chart keys, each a figure of panels: the encodings and the input; the thumbnails and the
# enlarged head; the head's Q, K and V; the concatenation and the output.
INPUTS_CHART = "mh_inputs"
HEADS_CHART = "mh_grid"
SLICES_CHART = "mh_slices"
OUTPUTS_CHART = "mh_outputs"
SLICES_OPEN = "mh_slices_open"


def choose() -> MultiHeadChoice:
    """The sentence, sizes, toggles and seed, in the main area above the figures."""
    text = controls.text_input(
        SENTENCE,
        t("multihead.sentence"),
        max_chars=MAX_CHARS,
        help=t("multihead.sentence.help", limit=MAX_TOKENS),
    )
    row = st.columns([1, 1, 1, 1.2, 1.2], vertical_alignment="bottom")
    d_model = controls.select(D_MODEL, t("multihead.d_model"), str, where=row[0])
    heads = controls.select(
        HEADS, t("multihead.heads"), str, where=row[1], help=t("multihead.heads.help")
    )
    seed = controls.number(SEED, t("multihead.seed"), where=row[2], help=t("multihead.seed.help"))
    positional = controls.toggle(
        POSITIONAL, t("multihead.positional"), where=row[3], help=t("multihead.positional.help")
    )
    causal = controls.toggle(
        CAUSAL, t("multihead.causal"), where=row[4], help=t("multihead.causal.help")
    )
    return MultiHeadChoice(
        text=text,
        d_model=int(d_model or D_MODEL.default),
        heads=int(heads or HEADS.default),
        positional=positional,
        causal=causal,
        seed=int(seed or 0),
    )


@cache.results
def computed(choice: MultiHeadChoice) -> MultiHeadView:
    """The tokens, inputs and result of one choice."""
    return compute(choice)


# Building the page's heatmaps costs far more than the attention itself.
@cache.figures
def figures_for(choice: MultiHeadChoice, text: Catalogue) -> dict[str, go.Figure]:
    """The charts that do not depend on the enlarged head, by name (`page_figures`)."""
    return page_figures(computed(choice), choice.positional, text)


@cache.figures
def heads_for(choice: MultiHeadChoice, head: int, text: Catalogue) -> go.Figure:
    """The thumbnails beside head `head` enlarged."""
    thumbnails = figures_for(choice, text)["heads"]
    return heads_figure(thumbnails, head_figure(computed(choice), head, text))


@cache.figures
def slices_for(choice: MultiHeadChoice, head: int, text: Catalogue) -> go.Figure:
    return slices_figure(computed(choice), head, text)


def _pick_head() -> None:
    """The thumbnails' on_select: the clicked head becomes the enlarged one."""
    picked = selected_head(st.session_state.get(HEADS_CHART))
    if picked is not None:
        st.session_state[HEAD.key] = picked[1]


def choose_head(heads: int) -> int:
    """The enlarged head, 0..h-1 (head 0 when a smaller h leaves the chosen one out)."""
    if not 0 <= int(st.session_state.get(HEAD.key) or 0) < heads:
        st.session_state[HEAD.key] = 0
    head = st.segmented_control(
        t("multihead.head"),
        range(heads),
        key=HEAD.key,
        required=True,
        help=t("multihead.head.help"),
        persist_state="session",
    )
    return int(head or 0)


def show_heads(choice: MultiHeadChoice) -> int:
    """Every head as a thumbnail (a click enlarges one) beside the enlarged head, one figure;
    the enlarged head's number."""
    head = choose_head(choice.heads)
    plot(heads_for(choice, head, catalogue()), key=HEADS_CHART, on_select=_pick_head)
    st.caption(t("multihead.heads_click", head=head))
    return head


def show_slices(choice: MultiHeadChoice, head: int) -> None:
    """Head `head`'s Q, K and V, drawn only while their expander is open."""
    box = st.expander(t("multihead.slices_heading", head=head), key=SLICES_OPEN, on_change="rerun")
    with box:
        if not box.open:  # lazy: three charts fewer to build and redraw at each change
            return
        st.caption(t("multihead.slices_text", head=head))
        plot(slices_for(choice, head, catalogue()), key=SLICES_CHART)


def show_symmetry(view: MultiHeadView, choice: MultiHeadChoice) -> None:
    """What positional encodings change, measured on a repeated word of the sentence."""
    pair = duplicate(view.tokens)
    if pair is None:
        st.caption(t("multihead.symmetry_none"))
        return
    i, j = pair
    weights = view.result.weights  # (h, T, T)
    diff = float((weights[:, i, :] - weights[:, j, :]).abs().max())
    labels = unique_labels(view.tokens)
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


def show_formulas(view: MultiHeadView, head: int, causal: bool) -> None:
    """What attnviz.heads computes, biases included, then the current sizes and one row of the
    enlarged head's weights."""
    T, d_model = view.x.shape
    h = view.result.weights.shape[0]
    d_head = d_model // h
    st.latex(
        r"\mathrm{MultiHead}(X) = \mathrm{Concat}(\mathrm{head}_0, \dots, \mathrm{head}_{h-1})"
        r"\, W_o + b_o, \qquad \mathrm{head}_i = \mathrm{softmax}\!\left("
        r"\frac{Q_i K_i^\top}{\sqrt{d_{\mathrm{head}}}}\right) V_i"
    )
    st.latex(
        r"Q_i = X W_q^{(i)} + b_q^{(i)}, \quad K_i = X W_k^{(i)} + b_k^{(i)}, \quad"
        r" V_i = X W_v^{(i)} + b_v^{(i)}, \qquad i = 0, \dots, h-1"
    )
    st.markdown(t("multihead.formula_slices"))
    # A slot either way: the formulas below keep their places, so the causal switch leaves
    # them as they were drawn instead of drawing them again one place down.
    mask_note = st.empty()
    if causal:
        mask_note.markdown(t("multihead.formula_mask"))
    st.latex(
        r"PE_{t,2j} = \sin\!\left(\frac{t}{10000^{2j/d_{\mathrm{model}}}}\right),\ "
        r"PE_{t,2j+1} = \cos\!\left(\frac{t}{10000^{2j/d_{\mathrm{model}}}}\right)"
    )
    st.markdown(f"**{t('multihead.formula_sizes')}**")
    st.latex(
        rf"X \in \mathbb{{R}}^{{{T} \times {d_model}}}, \quad h = {h}, \quad "
        rf"d_{{\mathrm{{head}}}} = d_{{\mathrm{{model}}}} / h = {d_model} / {h} = {d_head}"
    )
    st.latex(
        rf"W_q^{{(i)}}, W_k^{{(i)}}, W_v^{{(i)}} \in \mathbb{{R}}^{{{d_model} \times {d_head}}},"
        rf" \quad b_q^{{(i)}}, b_k^{{(i)}}, b_v^{{(i)}} \in \mathbb{{R}}^{{{d_head}}}, \quad "
        rf"\mathrm{{head}}_i \in \mathbb{{R}}^{{{T} \times {d_head}}}, \quad "
        rf"\mathrm{{Concat}} \in \mathbb{{R}}^{{{T} \times {h} \cdot {d_head}}}, \quad "
        rf"W_o \in \mathbb{{R}}^{{{d_model} \times {d_model}}}, \quad "
        rf"b_o \in \mathbb{{R}}^{{{d_model}}}"
    )
    row = view.result.weights[head, T - 1].tolist()
    st.markdown(t("multihead.formula_row", head=head))
    st.latex(
        rf"\mathrm{{softmax}}\!\left(\frac{{(Q_{{{head}}})_{{{T - 1}}}\, K_{{{head}}}^\top}}"
        rf"{{\sqrt{{{d_head}}}}}\right) = {formulas.vector(row)}"
    )


def show_downloads(view: MultiHeadView) -> None:
    """The positional encodings, the input, the concatenation and the output as CSV."""
    rows = unique_labels(view.tokens)
    columns = dims(view.x.shape[-1])
    csv_downloads(
        [
            (t("multihead.pe_title"), view.pe, rows, columns, "mh_pe"),
            (t("multihead.input_title"), view.x, rows, columns, "mh_input"),
            (t("multihead.concat_title"), view.result.concat, rows, columns, "mh_concat"),
            (t("multihead.output_title"), view.result.output, rows, columns, "mh_output"),
        ]
    )


def show() -> None:
    links.restore_link(LINK, page="multihead")
    choice = choose()
    links.publish_link(LINK)
    try:
        view = computed(choice)
    except ValueError as err:
        show_error(err)
        return
    figs = figures_for(choice, catalogue())
    if view.found > len(view.tokens):
        st.info(t("multihead.truncated", found=view.found, limit=MAX_TOKENS))
    st.subheader(t("multihead.inputs_heading"))
    plot(figs["inputs"], key=INPUTS_CHART)
    if not choice.positional:
        st.caption(t("multihead.pe_off"))
    st.subheader(t("multihead.heads_heading"))
    show_symmetry(view, choice)
    head = show_heads(choice)
    show_slices(choice, head)
    st.subheader(t("multihead.output_heading"))
    plot(figs["outputs"], key=OUTPUTS_CHART)
    with st.expander(t("multihead.formula_heading"), expanded=True):
        show_formulas(view, head, choice.causal)
    st.subheader(t("multihead.downloads_heading"))
    show_downloads(view)
    links.share_panel(LINK, key="mh")
