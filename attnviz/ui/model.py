"""The pretrained model's pages: NLI alignment and model attention."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st
import torch

from attnviz import figures, parsing
from attnviz.i18n import get_language, t
from attnviz.ui import links
from attnviz.ui.base import init_state, markdown_literal, plot, table

if TYPE_CHECKING:  # the model stack is imported only when a page asks for the model
    from attnviz.encoder import Encoded, Encoder
    from attnviz.nli import AlignedPairs

NLI_MODE = "nli_mode"
NLI_PRESET = "nli_preset"
NLI_PREMISE = "nli_premise"
NLI_HYPOTHESIS = "nli_hypothesis"
NLI_BATCH = "nli_batch"
NLI_CHOICE = "nli_choice"
NLI_SOURCE = "nli_source"
NLI_LAYER = "nli_layer"
NLI_F = "nli_f"
NLI_SEED = "nli_seed"
NLI_ROWS = "nli_hypothesis_rows"
NLI_UPLOAD_NOTE = "nli_upload_note"
MODEL_A = "model_sentence_a"
MODEL_B = "model_sentence_b"
MODEL_PRESET = "model_preset"
MODEL_LAYER = "model_layer"
MODEL_HEAD = "model_head"
MODEL_HIDE = "model_hide_specials"
MODEL_MERGE = "model_merge"
MODEL_BLOCK = "model_block"

# (label key, premise, hypothesis): PML's NLI figure, then one pair of each SNLI label.
NLI_PRESETS: dict[str, tuple[str, str, str]] = {
    "sleep": ("nli.preset.sleep", "I do need sleep", "I am tired"),
    "entailment": (
        "nli.preset.entailment",
        "A man is playing a guitar on stage.",
        "A person is performing music.",
    ),
    "contradiction": (
        "nli.preset.contradiction",
        "A woman is sleeping on the couch.",
        "A woman is running in the park.",
    ),
    "neutral": (
        "nli.preset.neutral",
        "A dog runs across the grassy field.",
        "The dog is chasing a ball.",
    ),
}
NLI_MODES = {"single": "nli.mode.single", "batch": "nli.mode.batch"}
NLI_SOURCES = {
    "contextual": "nli.source.contextual",
    "static": "nli.source.static",
    "random": "nli.source.random",
}
NLI_FS = {"identity": "nli.f.identity", "mlp": "nli.f.mlp"}
BLOCKS = {
    "all": "model.block.all",
    "AA": "model.block.AA",
    "AB": "model.block.AB",
    "BA": "model.block.BA",
    "BB": "model.block.BB",
}
MAX_SENTENCE_CHARS = 10_000
MAX_LAYERS = 48  # bounds for links; the page clamps to the model's own layer and head counts

# The NLI and model pages' settings in a link (ui.links).
NLI_LINK: tuple[links.Param, ...] = (
    links.choice_param("mode", NLI_MODE, "single", tuple(NLI_MODES)),
    links.choice_param("preset", NLI_PRESET, "sleep", tuple(NLI_PRESETS)),
    links.text_param("premise", NLI_PREMISE, NLI_PRESETS["sleep"][1]),
    links.text_param("hypothesis", NLI_HYPOTHESIS, NLI_PRESETS["sleep"][2]),
    links.text_param(
        "pairs", NLI_BATCH, "\n".join(f"{p} ||| {h}" for _, p, h in NLI_PRESETS.values())
    ),
    links.int_param("pair", NLI_CHOICE, 0, 0, 10_000),
    links.choice_param("source", NLI_SOURCE, "contextual", tuple(NLI_SOURCES)),
    links.int_param("layer", NLI_LAYER, 6, 0, MAX_LAYERS),
    links.choice_param("f", NLI_F, "identity", tuple(NLI_FS)),
    links.int_param("seed", NLI_SEED, 0, 0, 2**31 - 1),
    links.bool_param("rows", NLI_ROWS, True),
)
MODEL_LINK: tuple[links.Param, ...] = (
    links.choice_param("preset", MODEL_PRESET, "sleep", tuple(NLI_PRESETS)),
    links.text_param("a", MODEL_A, NLI_PRESETS["sleep"][1]),
    links.text_param("b", MODEL_B, NLI_PRESETS["sleep"][2]),
    links.int_param("layer", MODEL_LAYER, 0, 0, MAX_LAYERS - 1),
    links.int_param("head", MODEL_HEAD, 0, 0, 63),
    links.bool_param("hide", MODEL_HIDE),
    links.bool_param("merge", MODEL_MERGE),
    links.choice_param("block", MODEL_BLOCK, "all", tuple(BLOCKS)),
)


@st.cache_resource(show_spinner=False)
def _load_encoder() -> Encoder:
    # Imported here: pages without the model must not pay for transformers.
    from attnviz.encoder import load_encoder

    return load_encoder()


# What a missing or broken model install raises: the package or transformers absent
# (ImportError), its files missing or unreadable (OSError), a config transformers rejects
# (ValueError), weights that do not fit the model (RuntimeError).
MODEL_FAULTS = (ImportError, OSError, ValueError, RuntimeError)


def encoder() -> Encoder:
    """The model and tokenizer, loaded once per server process.

    When it cannot be loaded, the page says why and how to install it, and stops; a failed
    load is not cached, so the next run tries again (after an install, a reload is enough).
    """
    try:
        with st.spinner(t("model.loading")):
            return _load_encoder()
    except MODEL_FAULTS as err:
        # Shown as code: a module path's underscores would otherwise turn into italics.
        detail = f"{type(err).__name__}: {err}".replace("`", "'")
        st.error(t("model.unavailable", detail=detail), icon=":material/error:")
        st.stop()


def _nli_preset(name: str, premise_key: str, hypothesis_key: str) -> None:
    _, premise, hypothesis = NLI_PRESETS[name]
    st.session_state[premise_key] = premise
    st.session_state[hypothesis_key] = hypothesis


def _pair_boxes(preset_key: str, a_key: str, b_key: str, a_label: str, b_label: str) -> None:
    """A preset picker and two sentence boxes (shared by the NLI and model pages)."""
    # Each on its own: a link may have set one of them already (ui.links).
    _, premise, hypothesis = NLI_PRESETS["sleep"]
    init_state(a_key, premise)
    init_state(b_key, hypothesis)
    row = st.columns([3, 1])
    preset = row[0].selectbox(
        t("nli.preset"),
        list(NLI_PRESETS),
        key=preset_key,
        format_func=lambda p: t(NLI_PRESETS[p][0]),
        persist_state="session",
    )
    row[1].button(
        t("nli.preset.apply"),
        key=f"{preset_key}_apply",
        on_click=_nli_preset,
        args=(preset, a_key, b_key),
    )
    left, right = st.columns(2)
    left.text_area(
        a_label, key=a_key, height=90, max_chars=MAX_SENTENCE_CHARS, persist_state="session"
    )
    right.text_area(
        b_label, key=b_key, height=90, max_chars=MAX_SENTENCE_CHARS, persist_state="session"
    )


def _pairs_upload(uploader_key: str) -> None:
    from attnviz.nli import load_pairs_csv

    upload = st.session_state.get(uploader_key)
    if upload is None:
        st.session_state.pop(NLI_UPLOAD_NOTE, None)
        return
    try:
        pairs = load_pairs_csv(upload.getvalue())
    except parsing.InputError as err:
        st.session_state[NLI_UPLOAD_NOTE] = ("error", f"{upload.name}: {err}")
        return
    st.session_state[NLI_BATCH] = "\n".join(f"{p} ||| {h}" for p, h in pairs)
    note = t("nli.batch_loaded", count=len(pairs), name=upload.name)
    st.session_state[NLI_UPLOAD_NOTE] = ("ok", note)


def nli_inputs() -> tuple[list[tuple[str, str]], int]:
    """One pair, or a batch pasted / uploaded; returns the pairs and the one to view.

    Raises InputError for a batch that does not parse (the text stays as typed).
    """
    from attnviz.nli import parse_pairs

    init_state(NLI_BATCH, "\n".join(f"{p} ||| {h}" for _, p, h in NLI_PRESETS.values()))
    init_state(NLI_MODE, "single")
    init_state(NLI_CHOICE, 0)  # the pair of a batch to view; a link may set it in single mode
    mode = st.segmented_control(
        t("nli.mode"),
        list(NLI_MODES),
        key=NLI_MODE,
        format_func=lambda m: t(NLI_MODES[m]),
        required=True,
        persist_state="session",
    )
    if mode != "batch":
        _pair_boxes(NLI_PRESET, NLI_PREMISE, NLI_HYPOTHESIS, t("nli.premise"), t("nli.hypothesis"))
        premise = st.session_state.get(NLI_PREMISE) or ""
        hypothesis = st.session_state.get(NLI_HYPOTHESIS) or ""
        for text, which in ((premise, "nli.premise"), (hypothesis, "nli.hypothesis")):
            if not text.strip():
                raise parsing.InputError("sentence_empty", which=t(which))
        return [(premise, hypothesis)], 0
    text = st.text_area(t("nli.batch_text"), key=NLI_BATCH, height=150, persist_state="session")
    uploader_key = "nli_upload"
    st.file_uploader(
        t("nli.batch_upload"),
        type=["csv"],
        key=uploader_key,
        on_change=_pairs_upload,
        args=(uploader_key,),
    )
    if NLI_UPLOAD_NOTE in st.session_state:
        status, message = st.session_state[NLI_UPLOAD_NOTE]
        # The note names the uploaded file: its name shows as it is, not as markdown.
        (st.error if status == "error" else st.success)(markdown_literal(message))
    pairs = parse_pairs(text or "")
    if not 0 <= int(st.session_state.get(NLI_CHOICE) or 0) < len(pairs):
        st.session_state[NLI_CHOICE] = 0
    choice = st.selectbox(
        t("nli.batch_choice"),
        range(len(pairs)),
        key=NLI_CHOICE,
        format_func=lambda i: f"{i + 1}. {pairs[i][0][:60]} ||| {pairs[i][1][:60]}",
    )
    return pairs, min(int(choice or 0), len(pairs) - 1)


@dataclass(frozen=True)
class NLIChoice:
    """The sidebar's alignment options."""

    source: str
    layer: int
    f: str
    seed: int
    hypothesis_rows: bool


def nli_controls(num_layers: int) -> NLIChoice:
    """Sidebar: embedding source, layer, F, seed and the orientation."""
    init_state(NLI_LAYER, num_layers)
    init_state(NLI_SEED, 0)
    init_state(NLI_ROWS, True)
    st.session_state[NLI_LAYER] = min(int(st.session_state[NLI_LAYER]), num_layers)
    with st.sidebar:
        st.subheader(t("nli.controls"))
        source = st.selectbox(
            t("nli.source"),
            list(NLI_SOURCES),
            key=NLI_SOURCE,
            format_func=lambda s: t(NLI_SOURCES[s]),
            persist_state="session",
        )
        layer = num_layers
        if source == "contextual":
            layer = st.slider(t("nli.layer"), 0, num_layers, key=NLI_LAYER, persist_state="session")
        f = st.selectbox(
            t("nli.f"),
            list(NLI_FS),
            key=NLI_F,
            format_func=lambda x: t(NLI_FS[x]),
            persist_state="session",
        )
        seed = st.number_input(t("nli.seed"), 0, 2**31 - 1, key=NLI_SEED, persist_state="session")
        rows = st.toggle(
            t("nli.hypothesis_rows"),
            key=NLI_ROWS,
            help=t("nli.hypothesis_rows.help"),
            persist_state="session",
        )
    return NLIChoice(str(source), int(layer), str(f), int(seed), bool(rows))


@dataclass(frozen=True)
class NLIResult:
    """A batch of aligned pairs and, per pair, whether its text is outside MiniLM's vocabulary."""

    batch: AlignedPairs
    caveats: list[bool]


@st.cache_data(max_entries=32, show_spinner=False)
def nli_result(
    _encoder: Encoder, pairs: tuple[tuple[str, str], ...], choice: NLIChoice
) -> NLIResult:
    """The decomposable attention of every pair (cached on the texts and options)."""
    from attnviz.encoder import tokens_caveat
    from attnviz.nli import align_pairs

    layer = choice.layer if choice.source == "contextual" else -1
    batch = align_pairs(
        _encoder, list(pairs), source=choice.source, layer=layer, f=choice.f, seed=choice.seed
    )
    caveats = [tokens_caveat(a + b) for a, b in zip(batch.premises, batch.hypotheses, strict=True)]
    return NLIResult(batch, caveats)


def show_nli_notes(result: NLIResult, index: int, pairs: list[tuple[str, str]]) -> None:
    """Truncation and vocabulary caveats for the pair on view."""
    from attnviz.encoder import MAX_TOKENS

    for tokens, which in (
        (result.batch.premises[index], "nli.premise"),
        (result.batch.hypotheses[index], "nli.hypothesis"),
    ):
        if len(tokens) >= MAX_TOKENS:
            st.info(t("nli.truncated", which=t(which), limit=MAX_TOKENS))
    if result.caveats[index]:
        st.warning(t("nli.caveat"))


def show_nli_pair(result: NLIResult, index: int, choice: NLIChoice, key: str) -> None:
    """e, both softmax directions, the hard alignment and the aligned pairs of one pair."""
    from attnviz import nli

    al = result.batch.alignment
    la, lb = int(al.lens_a[index]), int(al.lens_b[index])
    premise, hypothesis = result.batch.premises[index], result.batch.hypotheses[index]
    weights, e = nli.orient(al, hypothesis_rows=choice.hypothesis_rows)
    if choice.hypothesis_rows:
        rows, cols, n_rows, n_cols = hypothesis, premise, lb, la
        row_name, col_name = t("nli.hypothesis_tokens"), t("nli.premise_tokens")
        other = al.weights_beta[index, :la, :lb].T  # (lb, la): each column sums to 1
    else:
        rows, cols, n_rows, n_cols = premise, hypothesis, la, lb
        row_name, col_name = t("nli.premise_tokens"), t("nli.hypothesis_tokens")
        other = al.weights_alpha[index, :lb, :la].T  # (la, lb)
    main = weights[index, :n_rows, :n_cols]  # (rows, cols)
    labels: dict[str, Any] = {
        "row_labels": rows,
        "col_labels": cols,
        "row_name": row_name,
        "col_name": col_name,
        "y_title": row_name,
        "x_title": col_name,
    }
    hover = {t("fig.hover.score"): e[index, :n_rows, :n_cols], t("fig.hover.weight"): main}
    hard = nli.hard_alignment(main[None], torch.tensor([n_rows]), torch.tensor([n_cols]))[0]
    one_hot = torch.zeros_like(main)
    one_hot[torch.arange(n_rows), hard] = 1.0
    left, right = st.columns(2)
    with left:
        plot(
            figures.heatmap(
                e[index, :n_rows, :n_cols],
                title=t("nli.e_title"),
                kind="scores",
                hover=hover,
                **labels,
            ),
            key=f"{key}_e",
        )
        plot(
            figures.heatmap(
                main,
                title=t("nli.weights_rows_title", rows=row_name, cols=col_name),
                kind="weights",
                hover=hover,
                **labels,
            ),
            key=f"{key}_weights",
        )
    with right:
        plot(
            figures.heatmap(
                one_hot, title=t("nli.hard_title"), kind="weights", hover=hover, **labels
            ),
            key=f"{key}_hard",
        )
        plot(
            figures.heatmap(
                other,
                title=t("nli.weights_cols_title", rows=row_name, cols=col_name),
                kind="weights",
                **labels,
            ),
            key=f"{key}_other",
        )
    st.subheader(t("nli.pairs_heading"))
    frame = pd.DataFrame(
        nli.aligned_pairs(main, rows, cols),
        columns=[
            t("nli.col.row_token", rows=row_name),
            t("nli.col.col_token", cols=col_name),
            t("nli.col.weight"),
        ],
    )
    table(frame, t("nli.pairs_heading"), key=f"{key}_pairs")
    st.metric(
        t("nli.similarity"),
        f"{float(result.batch.similarity[index]):.3f}",
        help=t("nli.similarity.help"),
    )


def show_nli_compare(result: NLIResult, index: int, key: str) -> None:
    """G's comparisons and the aggregated vectors, labelled as untrained."""
    al = result.batch.alignment
    la, lb = int(al.lens_a[index]), int(al.lens_b[index])
    st.info(t("nli.untrained"))
    sides = (
        (al.compare_a[index, :la], "nli.compare_a", result.batch.premises[index], "compare_a"),
        (al.compare_b[index, :lb], "nli.compare_b", result.batch.hypotheses[index], "compare_b"),
    )
    for column, (vectors, title_key, tokens, name) in zip(st.columns(2), sides, strict=True):
        with column:
            fig = figures.vector_rows(
                vectors, title=t(title_key), row_labels=tokens, dim_label=t("nli.dims")
            )
            plot(fig, key=f"{key}_{name}")
    aggregate = torch.stack([al.v_a[index], al.v_b[index]])  # (2, g)
    plot(
        figures.vector_rows(
            aggregate, title=t("nli.aggregate"), row_labels=["v_A", "v_B"], dim_label=t("nli.dims")
        ),
        key=f"{key}_aggregate",
    )


def show_nli_batch(result: NLIResult, pairs: list[tuple[str, str]], key: str) -> None:
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
    table(frame, t("nli.batch_heading"), key=f"{key}_batch", hide_index=False)


def model_inputs() -> tuple[str, str | None]:
    """Sentence A and an optional sentence B, with the NLI examples as presets."""
    _pair_boxes(MODEL_PRESET, MODEL_A, MODEL_B, t("model.sentence_a"), t("model.sentence_b"))
    text_a = st.session_state.get(MODEL_A) or ""
    text_b = st.session_state.get(MODEL_B) or ""
    if not text_a.strip():
        raise parsing.InputError("sentence_empty", which=t("model.sentence_a"))
    return text_a, text_b if text_b.strip() else None


@dataclass(frozen=True)
class ModelChoice:
    """Which head to enlarge and how to filter the tokens."""

    layer: int
    head: int
    hide_specials: bool
    merge_words: bool
    block: str


def model_controls(num_layers: int, num_heads: int, is_pair: bool) -> ModelChoice:
    """Sidebar: layer and head to enlarge, [CLS]/[SEP], word merging and the pair's block."""
    for key, count in ((MODEL_LAYER, num_layers), (MODEL_HEAD, num_heads)):
        if not 0 <= int(st.session_state.get(key) or 0) < count:
            st.session_state[key] = 0
    with st.sidebar:
        layer = st.selectbox(
            t("model.layer"), range(num_layers), key=MODEL_LAYER, persist_state="session"
        )
        head = st.selectbox(
            t("model.head"), range(num_heads), key=MODEL_HEAD, persist_state="session"
        )
        hide = st.toggle(
            t("model.hide_specials"),
            key=MODEL_HIDE,
            help=t("model.hide_specials.help"),
            persist_state="session",
        )
        merge = st.toggle(
            t("model.merge"), key=MODEL_MERGE, help=t("model.merge.help"), persist_state="session"
        )
        block = "all"
        if is_pair:
            block = st.radio(
                t("model.block"),
                list(BLOCKS),
                key=MODEL_BLOCK,
                format_func=lambda b: t(BLOCKS[b]),
                persist_state="session",
            )
    return ModelChoice(int(layer or 0), int(head or 0), bool(hide), bool(merge), str(block))


@st.cache_data(max_entries=16, show_spinner=False)
def encode_pair(_encoder: Encoder, text_a: str, text_b: str | None) -> Encoded:
    """The model's reading of a sentence or a pair (cached on the texts)."""
    return _encoder.encode(text_a, text_b)


def show_model(encoded: Encoded, choice: ModelChoice, key: str) -> None:
    """Notes, the model view grid, the chosen head and the layer's average over heads."""
    from attnviz.encoder import MAX_TOKENS, alignment_caveat, attention_view

    for truncated, which in zip(encoded.truncated, ("A", "B"), strict=False):
        if truncated:
            st.info(t("model.truncated", which=which, limit=MAX_TOKENS))
    if alignment_caveat(encoded):
        st.warning(t("model.caveat"))
    attn, rows, cols = attention_view(
        encoded,
        hide_specials=choice.hide_specials,
        merge_words=choice.merge_words,
        block=choice.block,
    )  # (L, H, r, c)
    labels: dict[str, Any] = {
        "row_labels": rows,
        "col_labels": cols,
        "row_name": t("model.queries"),
        "col_name": t("model.keys"),
        "y_title": t("model.queries"),
        "x_title": t("model.keys"),
    }
    left, right = st.columns(2)
    with left:
        title = t("model.head_title", layer=choice.layer, head=choice.head)
        plot(
            figures.heatmap(attn[choice.layer, choice.head], title=title, kind="weights", **labels),
            key=f"{key}_head",
        )
    with right:
        heads = attn.shape[1]
        title = t("model.average_title", layer=choice.layer, heads=heads)
        plot(
            figures.heatmap(attn[choice.layer].mean(dim=0), title=title, kind="weights", **labels),
            key=f"{key}_average",
        )
    st.caption(t("model.tokens", count=len(encoded.tokens)))
    view = (encoded.texts, choice.hide_specials, choice.merge_words, choice.block)
    grid = f"{key}_grid"
    plot(
        _grid_figure(attn, view, (choice.layer, choice.head), get_language()),
        key=grid,
        on_select=functools.partial(_head_clicked, grid),
    )
    st.caption(t("model.grid_click"))


def _head_clicked(chart_key: str) -> None:
    """A thumbnail of the model view was clicked: enlarge that layer's head."""
    picked = figures.selected_head(st.session_state.get(chart_key))
    if picked is not None:
        st.session_state[MODEL_LAYER], st.session_state[MODEL_HEAD] = picked


@st.cache_data(max_entries=16, show_spinner=False)
def _grid_figure(
    _attn: torch.Tensor, view: tuple[Any, ...], selected: tuple[int, int], lang: str
) -> go.Figure:
    """The model view, cached on what `_attn` was made from: 72 subplots take 0.4 s to build."""
    return figures.head_grid(
        _attn,
        title=t("model.grid_title"),
        layer_label=t("fig.layer"),
        head_label=t("fig.head"),
        selected=selected,
        selectable=True,
    )
