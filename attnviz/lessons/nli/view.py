"""The NLI lesson below its title: a premise and a hypothesis (or a batch of pairs), each
embedded on its own by MiniLM, aligned by decomposable attention: e, both softmax directions,
the hard alignment, the aligned pairs, compare and aggregate, a batch table."""

from __future__ import annotations

import pandas as pd
import streamlit as st
import torch

from attnviz import nli, parsing
from attnviz.app import cache, controls, links
from attnviz.app.feedback import show_error, show_note
from attnviz.app.model import encoder
from attnviz.app.plot import plot, plot_row, table
from attnviz.app.sentences import DEFAULT_PRESET, PRESETS, pair_boxes
from attnviz.app.state import init_state
from attnviz.encoder import MAX_TOKENS, Encoder
from attnviz.i18n import catalogue, t
from attnviz.lessons.nli import figures
from attnviz.lessons.nli.compute import NLIChoice, NLIResult, align, pair_view

MODES = {"single": "nli.mode.single", "batch": "nli.mode.batch"}
SOURCES = {
    "contextual": "nli.source.contextual",
    "static": "nli.source.static",
    "random": "nli.source.random",
}
FS = {"identity": "nli.f.identity", "mlp": "nli.f.mlp"}
MAX_LAYERS = 48  # bounds for links; the page clamps to the model's own layer count
UPLOAD_NOTE = "nli_upload_note"
_, _PREMISE, _HYPOTHESIS = PRESETS[DEFAULT_PRESET]
_PAIRS = "\n".join(f"{p} ||| {h}" for _, p, h in PRESETS.values())
MODE = controls.choice_control("mode", "nli_mode", "single", tuple(MODES))
PRESET = controls.choice_control("preset", "nli_preset", DEFAULT_PRESET, tuple(PRESETS))
PREMISE = controls.text_control("premise", "nli_premise", _PREMISE)
HYPOTHESIS = controls.text_control("hypothesis", "nli_hypothesis", _HYPOTHESIS)
BATCH = controls.text_control("pairs", "nli_batch", _PAIRS)
PAIR = controls.int_control("pair", "nli_choice", 0, 0, 10_000)
SOURCE = controls.choice_control("source", "nli_source", "contextual", tuple(SOURCES))
LAYER = controls.int_control("layer", "nli_layer", 6, 0, MAX_LAYERS)
F = controls.choice_control("f", "nli_f", "identity", tuple(FS))
SEED = controls.seed_control("seed", "nli_seed")
ROWS = controls.bool_control("rows", "nli_hypothesis_rows", True)
LINK: tuple[controls.Control, ...] = (
    MODE, PRESET, PREMISE, HYPOTHESIS, BATCH, PAIR, SOURCE, LAYER, F, SEED, ROWS
)  # fmt: skip
CHARTS = ("nli_e", "nli_weights", "nli_hard", "nli_other")


def _pairs_upload(uploader_key: str) -> None:
    upload = st.session_state.get(uploader_key)
    if upload is None:
        st.session_state.pop(UPLOAD_NOTE, None)
        return
    try:
        pairs = nli.load_pairs_csv(upload.getvalue())
    except parsing.InputError as err:
        st.session_state[UPLOAD_NOTE] = ("error", f"{upload.name}: {err}")
        return
    st.session_state[BATCH.key] = "\n".join(f"{p} ||| {h}" for p, h in pairs)
    note = t("nli.batch_loaded", count=len(pairs), name=upload.name)
    st.session_state[UPLOAD_NOTE] = ("ok", note)


def _single_pair() -> list[tuple[str, str]]:
    pair_boxes(PRESET, PREMISE, HYPOTHESIS, t("nli.premise"), t("nli.hypothesis"))
    premise = st.session_state.get(PREMISE.key) or ""
    hypothesis = st.session_state.get(HYPOTHESIS.key) or ""
    for text, which in ((premise, "nli.premise"), (hypothesis, "nli.hypothesis")):
        if not text.strip():
            raise parsing.InputError("sentence_empty", which=t(which))
    return [(premise, hypothesis)]


def _batch() -> tuple[list[tuple[str, str]], int]:
    text = controls.text_input(BATCH, t("nli.batch_text"), area=150)
    uploader_key = "nli_upload"
    st.file_uploader(
        t("nli.batch_upload"),
        type=["csv"],
        key=uploader_key,
        on_change=_pairs_upload,
        args=(uploader_key,),
    )
    show_note(st.session_state.get(UPLOAD_NOTE))
    pairs = nli.parse_pairs(text)
    if not 0 <= int(st.session_state.get(PAIR.key) or 0) < len(pairs):
        st.session_state[PAIR.key] = 0
    choice = st.selectbox(
        t("nli.batch_choice"),
        range(len(pairs)),
        key=PAIR.key,
        format_func=lambda i: f"{i + 1}. {pairs[i][0][:60]} ||| {pairs[i][1][:60]}",
    )
    return pairs, min(int(choice or 0), len(pairs) - 1)


def pair_inputs() -> tuple[list[tuple[str, str]], int]:
    """One pair, or a batch pasted / uploaded; returns the pairs and the one to view.

    Raises InputError for a batch that does not parse (the text stays as typed).
    """
    init_state(PAIR.key, 0)  # the pair of a batch to view; a link may set it in single mode
    mode = controls.select(MODE, t("nli.mode"), lambda m: t(MODES[m]), widget="segmented")
    if mode != "batch":
        return _single_pair(), 0
    return _batch()


def choose(num_layers: int) -> NLIChoice:
    """Sidebar: embedding source, layer, F, seed and the orientation."""
    init_state(LAYER.key, num_layers)
    st.session_state[LAYER.key] = min(int(st.session_state[LAYER.key]), num_layers)
    with st.sidebar:
        st.subheader(t("nli.controls"))
        source = controls.select(SOURCE, t("nli.source"), lambda s: t(SOURCES[s]))
        layer = num_layers
        if source == "contextual":
            layer = st.slider(t("nli.layer"), 0, num_layers, key=LAYER.key, persist_state="session")
        f = controls.select(F, t("nli.f"), lambda x: t(FS[x]))
        seed = controls.number(SEED, t("nli.seed"))
        rows = controls.toggle(ROWS, t("nli.hypothesis_rows"), help=t("nli.hypothesis_rows.help"))
    return NLIChoice(str(source), int(layer), str(f), int(seed), rows)


@cache.results(max_entries=32)
def result(_encoder: Encoder, pairs: tuple[tuple[str, str], ...], choice: NLIChoice) -> NLIResult:
    """The decomposable attention of every pair (cached on the texts and options)."""
    return align(_encoder, pairs, choice)


def show_notes(result: NLIResult, index: int) -> None:
    """Truncation and vocabulary caveats for the pair on view."""
    for tokens, which in (
        (result.batch.premises[index], "nli.premise"),
        (result.batch.hypotheses[index], "nli.hypothesis"),
    ):
        if len(tokens) >= MAX_TOKENS:
            st.info(t("nli.truncated", which=t(which), limit=MAX_TOKENS))
    if result.caveats[index]:
        st.warning(t("nli.caveat"))


def show_pair(result: NLIResult, index: int, choice: NLIChoice) -> None:
    """e, both softmax directions, the hard alignment and the aligned pairs of one pair."""
    view = pair_view(result, index, choice.hypothesis_rows)
    hypothesis, premise = t("nli.hypothesis_tokens"), t("nli.premise_tokens")
    row_name, col_name = (hypothesis, premise) if choice.hypothesis_rows else (premise, hypothesis)
    figs = figures.alignment_figures(view, row_name, col_name, CHARTS, catalogue())
    # e above the row-wise weights on the left, the hard alignment above the other direction.
    plot_row({key: figs[key] for key in ("nli_e", "nli_hard")})
    plot_row({key: figs[key] for key in ("nli_weights", "nli_other")})
    st.subheader(t("nli.pairs_heading"))
    frame = pd.DataFrame(
        nli.aligned_pairs(view.weights, view.rows, view.cols),
        columns=[
            t("nli.col.row_token", rows=row_name),
            t("nli.col.col_token", cols=col_name),
            t("nli.col.weight"),
        ],
    )
    table(frame, t("nli.pairs_heading"), key="nli_pairs")
    st.metric(
        t("nli.similarity"),
        f"{float(result.batch.similarity[index]):.3f}",
        help=t("nli.similarity.help"),
    )


def show_compare(result: NLIResult, index: int) -> None:
    """G's comparisons and the aggregated vectors, labelled as untrained."""
    al = result.batch.alignment
    la, lb = int(al.lens_a[index]), int(al.lens_b[index])
    text = catalogue()
    st.info(t("nli.untrained"))
    a = figures.vectors_figure(
        al.compare_a[index, :la], t("nli.compare_a"), result.batch.premises[index], text
    )
    b = figures.vectors_figure(
        al.compare_b[index, :lb], t("nli.compare_b"), result.batch.hypotheses[index], text
    )
    plot_row({"nli_compare_a": a, "nli_compare_b": b})
    aggregate = torch.stack([al.v_a[index], al.v_b[index]])  # (2, g)
    plot(
        figures.vectors_figure(aggregate, t("nli.aggregate"), ["v_A", "v_B"], text), "nli_aggregate"
    )


def show_batch(result: NLIResult, pairs: list[tuple[str, str]]) -> None:
    """Every pair of the batch with its similarity, as a table and a CSV."""
    frame = pd.DataFrame(
        {
            t("nli.col.premise"): [p for p, _ in pairs],
            t("nli.col.hypothesis"): [h for _, h in pairs],
            t("nli.col.tokens"): [
                f"{len(a)}, {len(b)}"
                for a, b in zip(result.batch.premises, result.batch.hypotheses, strict=True)
            ],
            t("nli.col.similarity"): [round(float(s), 4) for s in result.batch.similarity],
        }
    )
    st.subheader(t("nli.batch_heading"))
    table(frame, t("nli.batch_heading"), key="nli_batch", hide_index=False)


def show() -> None:
    links.restore_link(LINK, page="nli")
    model = encoder()
    choice = choose(model.num_layers)
    links.publish_link(LINK)
    try:
        pairs, index = pair_inputs()
        with st.spinner(t("model.computing")):
            aligned = result(model, tuple(pairs), choice)
    except ValueError as err:
        show_error(err)
        return
    show_notes(aligned, index)
    show_pair(aligned, index, choice)
    st.subheader(t("nli.compare_heading"))
    show_compare(aligned, index)
    if len(pairs) > 1:
        show_batch(aligned, pairs)
    links.share_panel(LINK, key="nli")
