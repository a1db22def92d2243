"""The NLI lesson below its title: a premise and a hypothesis (or a batch of pairs), the trained
classifier's verdict, the alignment its F learned beside the untrained one, compare and
aggregate, a batch with its verdicts (and accuracy where it carries gold labels), and what the
model learned."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import streamlit as st
import torch

from attnviz import parsing
from attnviz.app import cache, controls, jobs, layers, links
from attnviz.app.feedback import markdown_literal, show_error, show_note
from attnviz.app.model import classifier, encoder
from attnviz.app.plot import plot, table
from attnviz.app.sentences import DEFAULT_PRESET, PRESETS, pair_boxes
from attnviz.app.state import init_state
from attnviz.i18n import Catalogue, catalogue, t
from attnviz.lessons.nli import figures
from attnviz.lessons.nli.compute import (
    NLIChoice,
    NLIResult,
    PairView,
    align,
    classify,
    pair_view,
    score,
)
from attnviz.lessons.nli_batch import view as file_view
from attnviz.lessons.nli_card import view as cards
from attnviz.nli import alignment as nli
from attnviz.nli import data as nli_data
from attnviz.nli.classifier import Classifier, Verdicts
from attnviz.transformer.encoder import MAX_TOKENS, Encoder

MODES = {"single": "nli.mode.single", "batch": "nli.mode.batch", "file": "nli.mode.file"}
SOURCES = {
    "contextual": "nli.source.contextual",
    "static": "nli.source.static",
    "random": "nli.source.random",
}
FS = {"identity": "nli.f.identity", "mlp": "nli.f.mlp"}
SCALES = {
    "none": "nli.scale.none",
    "sqrt_d": "nli.scale.sqrt_d",
    "temperature": "nli.scale.temperature",
}
UPLOAD_NOTE = "nli_upload_note"
LABELS_KEY = "nli_batch_labels"  # the gold labels of the batch, kept beside its text
_, _PREMISE, _HYPOTHESIS = PRESETS[DEFAULT_PRESET]
_PAIRS = "\n".join(f"{p} ||| {h}" for _, p, h in PRESETS.values())
MODE = controls.choice_control("mode", "nli_mode", "single", tuple(MODES))
PRESET = controls.choice_control("preset", "nli_preset", DEFAULT_PRESET, tuple(PRESETS))
PREMISE = controls.text_control("premise", "nli_premise", _PREMISE)
HYPOTHESIS = controls.text_control("hypothesis", "nli_hypothesis", _HYPOTHESIS)
BATCH = controls.text_control("pairs", "nli_batch", _PAIRS)
PAIR = controls.int_control("pair", "nli_choice", 0, 0, 10_000)
SOURCE = controls.choice_control("source", "nli_source", "contextual", tuple(SOURCES))


# The MiniLM output the untrained view reads, an index into hidden_states; links and labels
# number the layers as the model page does (`app.layers`). Default: the last layer's output.
LAYER = layers.hidden_state_control("nli_layer", 6)
F = controls.choice_control("f", "nli_f", "identity", tuple(FS))
SEED = controls.seed_control("seed", "nli_seed")
ROWS = controls.bool_control("rows", "nli_hypothesis_rows", True)
# The untrained view divides e by sqrt(d) by default: 384-wide dot products saturate the softmax.
SCALE = controls.choice_control("scale", "nli_scale", "sqrt_d", tuple(SCALES))
TEMPERATURE = controls.float_control("T", "nli_temperature", 10.0, 0.1, 100.0, step=0.1)
LINK: tuple[controls.Control, ...] = (
    MODE, PRESET, PREMISE, HYPOTHESIS, BATCH, PAIR, SOURCE, LAYER, F, SEED, ROWS, SCALE,
    TEMPERATURE,
)  # fmt: skip
# The alignment charts are one figure of panels (`figures.alignments_figure`); PANELS: each
# chart's panel, with a trained model and without.
ALIGNMENTS_CHART = "nli_alignments"
PANELS = {
    True: {f"nli_{name}": i for i, name in enumerate(figures.TRAINED_PANELS)},
    False: {f"nli_{name}": i for i, name in enumerate(figures.UNTRAINED_PANELS)},
}


def _pairs_upload(uploader_key: str) -> None:
    upload = st.session_state.get(uploader_key)
    if upload is None:
        st.session_state.pop(UPLOAD_NOTE, None)
        return
    try:
        pairs, labels, skipped = read_upload(upload.getvalue(), upload.name)
    except parsing.InputError as err:
        st.session_state[UPLOAD_NOTE] = ("error", f"{upload.name}: {err}")
        return
    lines = [
        f"{p} ||| {h}" + ("" if label is None else f" ||| {nli.LABELS[label]}")
        for (p, h), label in zip(pairs, labels, strict=True)
    ]
    st.session_state[BATCH.key] = "\n".join(lines)
    note = t("nli.batch_loaded", count=len(pairs), name=upload.name)
    if skipped:
        note += " " + t("nli.batch_skipped", count=skipped)
    st.session_state[UPLOAD_NOTE] = ("ok", note)


def read_upload(data: bytes, name: str) -> tuple[list[tuple[str, str]], list[int | None], int]:
    """A batch from an uploaded file: CSV as the page always read it (a label column optional),
    or SNLI / MultiNLI JSONL and tab-separated .txt through attnviz.nli.data; the pairs, their
    labels and how many rows without a gold label (-) were skipped. A bad row refuses the file
    with its line."""
    if name.lower().endswith(".csv"):
        return (*nli.load_labelled_pairs_csv(data), 0)
    examples, summary = nli_data.read_bytes(data, name, nli.MAX_PAIRS_BYTES)
    if summary.errors:
        line, err = summary.errors[0]
        raise parsing.InputError("nli_bad_row", line=line, detail=str(err))
    if not examples:
        raise parsing.InputError("pairs_empty")
    if len(examples) > nli.MAX_PAIRS:
        raise parsing.InputError("too_many_pairs", found=len(examples), limit=nli.MAX_PAIRS)
    pairs = [(e.premise, e.hypothesis) for e in examples]
    return pairs, [e.label for e in examples], summary.unlabelled


def _single_pair() -> list[tuple[str, str]]:
    pair_boxes(PRESET, PREMISE, HYPOTHESIS, t("nli.premise"), t("nli.hypothesis"))
    premise = st.session_state.get(PREMISE.key) or ""
    hypothesis = st.session_state.get(HYPOTHESIS.key) or ""
    for text, which in ((premise, "nli.premise"), (hypothesis, "nli.hypothesis")):
        if not text.strip():
            raise parsing.InputError("sentence_empty", which=t(which))
    return [(premise, hypothesis)]


def _batch() -> tuple[list[tuple[str, str]], list[int | None], int]:
    text = controls.text_input(BATCH, t("nli.batch_text"), area=150, help=t("nli.batch_help"))
    uploader_key = "nli_upload"
    st.file_uploader(
        t("nli.batch_upload"),
        type=["csv", "jsonl", "txt", "tsv"],
        key=uploader_key,
        on_change=_pairs_upload,
        args=(uploader_key,),
    )
    show_note(st.session_state.get(UPLOAD_NOTE))
    pairs, labels = nli.parse_labelled_pairs(text)
    if not 0 <= int(st.session_state.get(PAIR.key) or 0) < len(pairs):
        st.session_state[PAIR.key] = 0
    choice = st.selectbox(
        t("nli.batch_choice"),
        range(len(pairs)),
        key=PAIR.key,
        format_func=lambda i: f"{i}. {pairs[i][0][:60]} ||| {pairs[i][1][:60]}",
    )
    return pairs, labels, min(int(choice or 0), len(pairs) - 1)


def pair_inputs(
    trained: Classifier | None, path: str
) -> tuple[list[tuple[str, str]], list[int | None], int] | None:
    """One pair, a batch pasted / uploaded, or an evaluation file scored whole; the pairs, their
    gold labels (None where a pair has none) and the one to view. InputError for a batch that
    does not parse (the text stays as typed); None while the file view waits for a file."""
    init_state(PAIR.key, 0)  # the pair of a batch to view; a link may set it in single mode
    mode = controls.select(MODE, t("nli.mode"), lambda m: t(MODES[m]), widget="segmented")
    if mode == "file":
        return file_view.file_inputs(trained, path)
    if mode != "batch":
        return _single_pair(), [None], 0
    return _batch()


def _scale() -> float | str:
    """The untrained view's scale of e: none, sqrt(d), or a temperature."""
    scale = controls.select(SCALE, t("nli.scale"), lambda s: t(SCALES[s]), help=t("nli.scale.help"))
    if scale == "temperature":
        return float(controls.slider(TEMPERATURE, t("nli.temperature")))
    st.page_link("pages/4_Why_sqrt_d.py", label=t("nli.scale.why"), icon=":material/functions:")
    return str(scale)


def choose(num_layers: int) -> NLIChoice:
    """Sidebar: embedding source, layer, F, scale, seed, orientation (the untrained view)."""
    init_state(LAYER.key, num_layers)
    st.session_state[LAYER.key] = min(int(st.session_state[LAYER.key]), num_layers)
    with st.sidebar:
        st.subheader(t("nli.controls"))
        source = controls.select(SOURCE, t("nli.source"), lambda s: t(SOURCES[s]))
        layer = num_layers
        if source == "contextual":
            layer = st.select_slider(
                t("nli.layer"),
                range(num_layers + 1),
                format_func=lambda k: layers.output_label(k, num_layers),
                key=LAYER.key,
                help=t("nli.layer.help", last=num_layers - 1),
                persist_state="session",
            )
        f = controls.select(F, t("nli.f"), lambda x: t(FS[x]))
        scale = _scale()
        seed = controls.number(SEED, t("nli.seed"))
        rows = controls.toggle(ROWS, t("nli.hypothesis_rows"), help=t("nli.hypothesis_rows.help"))
    return NLIChoice(str(source), int(layer), str(f), int(seed), rows, scale)


@cache.results(max_entries=32)
def result(_encoder: Encoder, pairs: tuple[tuple[str, str], ...], choice: NLIChoice) -> NLIResult:
    """The untrained decomposable attention of every pair (cached on the texts and options)."""
    return align(_encoder, pairs, choice)


@cache.results(max_entries=32)
def verdicts(_classifier: Classifier, path: str, pairs: tuple[tuple[str, str], ...]) -> Verdicts:
    """The trained classifier's reading of every pair (cached on its checkpoint and the texts)."""
    return classify(_classifier, pairs)


def show_notes(result: NLIResult, index: int, cut_notes: bool) -> None:
    """Vocabulary caveats for the pair on view, and truncation when no verdict says it."""
    for tokens, which in (
        (result.batch.premises[index], "nli.premise"),
        (result.batch.hypotheses[index], "nli.hypothesis"),
    ):
        if cut_notes and len(tokens) >= MAX_TOKENS:
            st.info(t("nli.truncated", which=t(which), limit=MAX_TOKENS))
    if result.caveats[index]:
        st.warning(t("nli.caveat"))


def _views(
    result: NLIResult, read: Verdicts | None, index: int, hypothesis_rows: bool
) -> tuple[PairView, PairView | None]:
    """The untrained and (None without a model) the trained view of pair `index`."""
    batch = result.batch
    untrained = pair_view(batch.alignment, batch.premises, batch.hypotheses, index, hypothesis_rows)
    if read is None:
        return untrained, None
    return untrained, pair_view(
        read.alignment, read.premises, read.hypotheses, index, hypothesis_rows
    )


def _names(hypothesis_rows: bool, text: Catalogue) -> tuple[str, str]:
    """What the rows and the columns are: the hypothesis's tokens and the premise's, or back."""
    hypothesis, premise = text("nli.hypothesis_tokens"), text("nli.premise_tokens")
    return (hypothesis, premise) if hypothesis_rows else (premise, hypothesis)


def show_alignments(
    result: NLIResult, read: Verdicts | None, index: int, choice: NLIChoice
) -> None:
    """e and both softmax directions, the hard alignment boxed on the row-wise weights: the
    trained model's (left) beside the untrained, one figure of panels."""
    if read is not None:
        left, right = st.columns(2)
        left.markdown(f"**{t('nli.trained_heading')}**")
        right.markdown(f"**{t('nli.untrained_heading')}**")
    text, rows = catalogue(), choice.hypothesis_rows
    untrained, trained = _views(result, read, index, rows)
    figure = figures.alignments_figure(untrained, trained, *_names(rows, text), text)
    plot(figure, ALIGNMENTS_CHART)
    _aligned_pairs(untrained if trained is None else trained, rows)
    similarity = f"{float(result.batch.similarity[index]):.3f}"
    st.metric(t("nli.similarity"), similarity, help=t("nli.similarity.help"))


def _aligned_pairs(view: PairView, hypothesis_rows: bool) -> None:
    row_name, col_name = _names(hypothesis_rows, catalogue())
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


def _compare_figure(
    al: nli.Alignment, premise: list[str], hypothesis: list[str], index: int
) -> go.Figure:
    la, lb = int(al.lens_a[index]), int(al.lens_b[index])
    aggregate = torch.stack([al.v_a[index], al.v_b[index]])  # (2, g)
    return figures.compare_figure(
        al.compare_a[index, :la], al.compare_b[index, :lb], aggregate, premise, hypothesis,
        catalogue(),
    )  # fmt: skip


def show_compare(result: NLIResult, read: Verdicts | None, index: int) -> None:
    """G's comparisons and the aggregated vectors: the trained model's, then the untrained."""
    if read is not None:
        st.caption(t("nli.compare_trained"))
        premise, hypothesis = read.premises[index], read.hypotheses[index]
        plot(_compare_figure(read.alignment, premise, hypothesis, index), "nli_trained_compare")
    # Lazy: a closed expander's chart is neither built nor sent (one chart fewer for Chromium
    # to redraw at each change while a trained model is shown).
    box = st.expander(t("nli.untrained_compare_heading"), expanded=read is None,
                      key="nli_untrained_open", on_change="rerun")  # fmt: skip
    with box:
        st.info(t("nli.untrained"))
        if box.open:
            batch = result.batch
            premise, hypothesis = batch.premises[index], batch.hypotheses[index]
            plot(_compare_figure(batch.alignment, premise, hypothesis, index), "nli_compare")


def show_batch(
    result: NLIResult,
    read: Verdicts | None,
    pairs: list[tuple[str, str]],
    labels: list[int | None],
) -> None:
    """Every pair of the batch with its verdict (read as the file view's table), token counts and
    similarity; the accuracy and a confusion matrix over the pairs that carry a gold label."""
    st.subheader(t("nli.batch_heading"))
    batch = result.batch
    if read is None:
        return
    frame = file_view.rows(pairs, labels, read.probabilities, list(range(len(pairs))))
    frame[t("nli.col.tokens")] = [
        f"{len(a)}, {len(b)}" for a, b in zip(batch.premises, batch.hypotheses, strict=True)
    ]
    frame[t("nli.col.similarity")] = [round(float(s), 4) for s in batch.similarity]
    table(frame, t("nli.batch_heading"), key="nli_batch")
    scored = score(read.probabilities, labels)
    if scored is None:
        return
    of = t("nli.batch_accuracy.of", correct=scored.correct, total=scored.labelled)
    accuracy = f"{scored.accuracy:.1%}"
    st.metric(t("nli.batch_accuracy"), accuracy, of, delta_color="off", delta_arrow="off")
    figure = figures.confusion_figure(scored.confusion, t("nli.batch_confusion"), catalogue())
    plot(figure, "nli_batch_confusion")
    st.caption(t("nli.confusion.caption"))


def choose_classifier() -> None:
    """Sidebar: the default checkpoint or a model this session trained or loaded (shown only
    when there is one; attnviz.app.jobs keeps them)."""
    models = list(jobs.session_models())
    if not models:
        return
    options = ["", *models]
    if st.session_state.get(jobs.MODEL_CHOICE) not in options:
        st.session_state[jobs.MODEL_CHOICE] = ""
    st.sidebar.selectbox(
        t("nli.classifier"),
        options,
        key=jobs.MODEL_CHOICE,
        format_func=lambda name: (
            t("nli.classifier.session", name=name) if name else t("nli.classifier.default")
        ),
    )


def show() -> None:
    links.restore_link(LINK, page="nli")
    model = encoder()
    choose_classifier()
    trained, path = classifier()
    choice = choose(model.num_layers)
    links.publish_link(LINK)
    try:
        inputs = pair_inputs(trained, path)
        if inputs is None:
            return
        pairs, labels, index = inputs
        with st.spinner(t("model.computing")):
            aligned = result(model, tuple(pairs), choice)
            read = verdicts(trained, path, tuple(pairs)) if trained is not None else None
    except ValueError as err:
        show_error(err)
        return
    show_notes(aligned, index, cut_notes=read is None)
    if read is not None and trained is not None:
        who = path.removeprefix("session:") if path.startswith("session:") else ""
        cards.show_verdict(read, index, trained, who, model.num_layers)
        cards.show_models()
    else:
        st.info(t("nli.verdict.missing", detail=markdown_literal(path)))
    show_alignments(aligned, read, index, choice)
    st.subheader(t("nli.compare_heading"))
    show_compare(aligned, read, index)
    if len(pairs) > 1:
        show_batch(aligned, read, pairs, labels)
    if trained is not None:
        cards.show_learned(trained.card)
    links.share_panel(LINK, key="nli")
