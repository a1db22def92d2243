"""The training page below its title: the data (shipped or uploaded), the model's settings, a
job in the server's queue with its progress, live curves and the watched dev pair's alignment,
then the trained model for the NLI page and as a download; and a model saved earlier loaded
again."""

from __future__ import annotations

import json
import math
import time

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from attnviz.app import cache, controls, jobs, layers, links, loading
from attnviz.app.feedback import markdown_literal, show_error
from attnviz.app.model import encoder
from attnviz.app.plot import plot
from attnviz.app.state import init_state
from attnviz.errors import InputError
from attnviz.i18n import catalogue, t
from attnviz.lessons.train_nli import figures
from attnviz.lessons.train_nli.compute import (
    Prepared,
    job_config,
    row_entropy,
    sample,
    shipped,
    uploaded,
)
from attnviz.nli import jobs as nli_jobs
from attnviz.nli.data import LABELS

DATA = {"shipped": "train_nli.data.shipped", "upload": "train_nli.data.upload"}
SOURCES = {"static": "train_nli.source.static", "contextual": "train_nli.source.contextual"}
SCALES = {"none": "nli.scale.none", "sqrt_d": "nli.scale.sqrt_d"}
ALIGNS = {"cosine": "nli.align.cosine", "mlp": "nli.align.mlp"}
MINILM_LAYERS = 6
DATA_CHOICE = controls.choice_control("data", "train_data", "shipped", tuple(DATA))
SOURCE = controls.choice_control("source", "train_source", "static", tuple(SOURCES))
# An index into hidden_states (the trainer's --layer), linked and labelled as the model page
# numbers layers (`app.layers`): the default 3 is layer 2's output.
LAYER = layers.hidden_state_control("train_layer", 3)
SCALE = controls.choice_control("scale", "train_scale", "none", tuple(SCALES))
ALIGN = controls.choice_control("align", "train_align", "cosine", tuple(ALIGNS))
HIDDEN = controls.int_control("hidden", "train_hidden", 100, 8, nli_jobs.MAX_HIDDEN)
EPOCHS = controls.int_control("epochs", "train_epochs", 5, 1, nli_jobs.MAX_EPOCHS)
PAIRS = controls.int_control("pairs", "train_pairs", 2000, 20, nli_jobs.MAX_PAIRS)
# The watched dev pair: "A girl is leaping into the water." under "A teenage girl is jumping off a
# pier into the sea ...", a hypothesis that has to be aligned by meaning, not copied word for word.
WATCH = controls.int_control("watch", "train_watch", 33, 0, nli_jobs.MAX_DEV_PAIRS - 1)
LINK: tuple[controls.Control, ...] = (
    DATA_CHOICE, SOURCE, LAYER, ALIGN, SCALE, HIDDEN, EPOCHS, PAIRS, WATCH,
)  # fmt: skip
UPLOAD = "train_upload"
JOB = "train_job"  # this session's job id
EPOCH_SHOWN = "train_epoch_shown"
WATCH_CHOICES = 200  # dev pairs offered as the watched one


@cache.results(max_entries=4)
def shipped_data() -> Prepared:
    return shipped()


@cache.results(max_entries=4)
def uploaded_data(data: bytes, name: str) -> Prepared:
    return uploaded(data, name)


def choose_data() -> Prepared | None:
    """The shipped pairs or an uploaded file (None, with a message, when there is none yet or
    it cannot be read: the page keeps its settings)."""
    st.subheader(t("train_nli.data"))
    choice = controls.select(
        DATA_CHOICE, t("train_nli.data"), lambda d: t(DATA[d]), widget="segmented"
    )
    if choice == "shipped":
        return shipped_data()
    upload = st.file_uploader(
        t("train_nli.upload"),
        type=["jsonl", "json", "txt", "tsv", "csv"],
        key=UPLOAD,
        help=t("train_nli.upload_help"),
    )
    if upload is None:
        st.info(t("train_nli.need_upload"))
        return None
    try:
        prepared = uploaded_data(upload.getvalue(), upload.name)
    except InputError as err:
        show_error(err, what=upload.name)
        return None
    kept = len(prepared.train) + len(prepared.dev)
    st.success(
        markdown_literal(
            t("train_nli.read", name=upload.name, kept=kept, unlabelled=prepared.unlabelled)
        )
    )
    if prepared.bad:
        st.warning(
            markdown_literal(
                t("train_nli.bad_rows", count=prepared.bad, first=prepared.first_error)
            )
        )
    return prepared


def _pair_text(row: nli_jobs.Row, width: int = 50) -> str:
    return f"{row[0][:width]} ||| {row[1][:width]} ({LABELS[row[2]]})"


def embedding_settings(where: DeltaGenerator) -> tuple[str, int | None, str, str]:
    """The embeddings (a layer for the contextual ones) and the attend step (a scale for F's)."""
    source = controls.select(SOURCE, t("train_nli.source"), lambda s: t(SOURCES[s]), where=where)
    layer = None
    if source == "contextual":
        init_state(LAYER.key, LAYER.default)
        layer = int(
            where.select_slider(
                t("train_nli.layer"),
                range(MINILM_LAYERS + 1),
                format_func=lambda k: layers.output_label(k, MINILM_LAYERS),
                key=LAYER.key,
                persist_state="session",
            )
        )
    align = controls.select(ALIGN, t("train_nli.align"), lambda a: t(ALIGNS[a]), where=where)
    scale = "none"
    if align == "mlp":  # the cosine step has its own learned sharpness, no scale to choose
        scale = controls.select(SCALE, t("train_nli.scale"), lambda s: t(SCALES[s]), where=where)
    return str(source), layer, str(align), str(scale)


def settings(prepared: Prepared) -> tuple[nli_jobs.JobSpec, int]:
    """The job the settings describe, and how many training pairs it uses."""
    st.subheader(t("train_nli.settings"))
    left, right = st.columns(2)
    source, layer, align, scale = embedding_settings(left)
    hidden = int(controls.number(HIDDEN, t("train_nli.hidden"), where=right))
    epochs = int(controls.slider(EPOCHS, t("train_nli.epochs"), where=right))
    limit = nli_jobs.MAX_CONTEXTUAL_PAIRS if source == "contextual" else nli_jobs.MAX_PAIRS
    help_text = t(
        "train_nli.pairs_help",
        static=f"{nli_jobs.MAX_PAIRS:,}",
        contextual=f"{nli_jobs.MAX_CONTEXTUAL_PAIRS:,}",
    )
    pairs = int(controls.number(PAIRS, t("train_nli.pairs"), where=right, help=help_text))
    pairs = min(pairs, limit, len(prepared.train))
    dev = prepared.dev[: nli_jobs.MAX_DEV_PAIRS]
    offered = min(len(dev), WATCH_CHOICES)
    init_state(WATCH.key, WATCH.default)
    if int(st.session_state.get(WATCH.key) or 0) >= offered:  # an upload's smaller dev split
        st.session_state[WATCH.key] = 0
    watch = st.selectbox(
        t("train_nli.watch"),
        range(offered),
        key=WATCH.key,
        format_func=lambda i: f"{i + 1}. {_pair_text(dev[i])}",
    )
    st.caption(
        t(
            "train_nli.caps",
            pairs=f"{nli_jobs.MAX_PAIRS:,}",
            contextual=f"{nli_jobs.MAX_CONTEXTUAL_PAIRS:,}",
            epochs=nli_jobs.MAX_EPOCHS,
            hidden=nli_jobs.MAX_HIDDEN,
            minutes=nli_jobs.MAX_SECONDS // 60,
        )
    )
    with loading.lock():  # job_config imports the trainer (torch)
        config = job_config(source, layer, align, scale, hidden, epochs)
    train = sample(list(prepared.train), pairs)
    spec = nli_jobs.JobSpec(train, dev, config, int(watch or 0), prepared.data)
    return spec, len(train)


def start(spec: nli_jobs.JobSpec) -> None:
    try:
        job = jobs.queue().submit(jobs.session_id(), spec)
    except InputError as err:
        show_error(err)
        return
    st.session_state[JOB] = job.id
    st.session_state.pop(EPOCH_SHOWN, None)


def show_progress(job: nli_jobs.Job, position: int | None) -> None:
    """Where the job is: its place in the queue, or its stage with a progress bar."""
    if job.state == "queued":
        st.info(
            t("train_nli.queued", ahead=max((position or 1) - 1, 0)), icon=":material/hourglass:"
        )
        return
    epochs = job.spec.config.epochs
    if job.stage == "train" and job.total:
        share = (job.epoch + job.done / job.total) / epochs
        text = t(
            "train_nli.stage.train",
            epoch=min(job.epoch + 1, epochs),
            epochs=epochs,
            done=job.done,
            total=job.total,
        )
    elif job.stage == "encode" and job.total:
        share = 0.0
        text = t("train_nli.stage.encode", done=job.done, total=job.total)
    else:
        share = 0.0
        text = t("train_nli.stage.read" if job.stage == "read" else "train_nli.stage.start")
    st.progress(min(max(share, 0.0), 1.0), text=text)


def show_learning(job: nli_jobs.Job) -> None:
    """The curves so far, and the watched pair's alignment after the epoch shown."""
    text = catalogue()
    figure = figures.curves_figure(
        job.loss, job.train_accuracy, job.dev_accuracy, job.spec.config.epochs, text
    )
    plot(figure, "train_curves")
    premise, hypothesis, label = job.spec.dev[job.spec.watch]
    st.caption(
        markdown_literal(
            t("train_nli.watch_pair", premise=premise, hypothesis=hypothesis, label=LABELS[label])
        )
    )
    if not job.alignments:
        return
    epoch = len(job.alignments)
    if not job.active and epoch > 1:
        epoch = int(st.slider(t("train_nli.alignment_epoch"), 1, epoch, epoch, key=EPOCH_SHOWN))
    tokens_a, tokens_b = job.tokens
    figure = figures.alignment_figure(job.alignments[epoch - 1], tokens_b, tokens_a, epoch, text)
    plot(figure, "train_alignment")
    entropies = ", ".join(f"{row_entropy(weights):.2f}" for weights in job.alignments)
    uniform = math.log(max(len(tokens_a), 1))
    st.caption(t("train_nli.entropy", entropies=entropies, uniform=f"{uniform:.2f}"))


def show_result(job: nli_jobs.Job) -> None:
    """The finished job: what it reached, the model kept for the NLI page, the downloads."""
    if job.state == "cancelled":
        st.info(t("train_nli.cancelled"))
        return
    if job.state == "failed":
        st.error(markdown_literal(t("train_nli.failed", detail=job.error)), icon=":material/error:")
        return
    assert job.weights is not None and job.card is not None
    card = json.dumps(job.card, indent=1, ensure_ascii=False).encode("utf-8")
    name = f"trained-{job.id[:6]}"
    if name not in jobs.session_models():
        jobs.add_session_model(name, job.weights, card)
    best = job.card["training"]["best_epoch"]
    seconds = round(job.finished - job.started)
    dev = job.dev_accuracy[best] if best < len(job.dev_accuracy) else None
    st.success(
        t(
            "train_nli.done",
            seconds=seconds,
            dev="?" if dev is None else f"{dev:.3f}",
            epoch=best + 1,
        )
    )
    st.subheader(t("train_nli.result"))
    using = st.session_state.get(jobs.MODEL_CHOICE) == name
    if using:
        st.caption(t("train_nli.using"))
    elif st.button(t("train_nli.use"), key="train_use"):
        st.session_state[jobs.MODEL_CHOICE] = name
        st.rerun()
    left, middle, right = st.columns(3)
    left.download_button(
        t("train_nli.download_weights"),
        job.weights,
        f"{name}.safetensors",
        "application/octet-stream",
        key="train_download_weights",
    )
    middle.download_button(
        t("train_nli.download_card"),
        card,
        f"{name}.json",
        "application/json",
        key="train_download_card",
    )
    right.page_link(
        "pages/7_NLI_alignment.py", label=t("train_nli.page_link"), icon=":material/compare_arrows:"
    )


def show_job() -> None:
    """This session's job, redrawn every second while it waits or runs."""
    job_id = st.session_state.get(JOB)
    job = jobs.queue().get(job_id) if job_id else None
    if job is None:
        return
    every = 1.0 if job.active else None

    @st.fragment(run_every=every)
    def live() -> None:
        current = jobs.queue().get(job.id)
        if current is None:
            return
        if current.active:
            show_progress(current, jobs.queue().position(current.id))
            if st.button(t("train_nli.cancel"), key="train_cancel", icon=":material/stop:"):
                jobs.queue().cancel(current.id)
                time.sleep(0.3)
                st.rerun(scope="app")
        show_learning(current)
        if every is not None and not current.active:
            st.rerun(scope="app")  # the timer stops; the result section appears

    live()
    if not job.active:
        show_result(job)


def reload_model() -> None:
    """A model saved earlier: its weights and card uploaded again, checked, kept for the NLI
    page (only safetensors and JSON are read)."""
    with st.expander(t("train_nli.reupload")):
        left, right = st.columns(2)
        weights = left.file_uploader(
            t("train_nli.reupload_weights"), type=["safetensors"], key="train_reupload_weights"
        )
        card = right.file_uploader(
            t("train_nli.reupload_card"), type=["json"], key="train_reupload_card"
        )
        if weights is None or card is None:
            if weights is not None or card is not None:
                st.info(t("train_nli.reupload_need_both"))
            return
        from attnviz.app.model import _load_encoder

        with st.spinner(t("nli.verdict.loading")):
            try:
                with loading.lock():
                    from attnviz.nli.checkpoint import classifier_from_bytes

                classifier_from_bytes(weights.getvalue(), card.getvalue(), _load_encoder())
            except InputError as err:
                show_error(err, what=weights.name)
                return
        name = weights.name.removesuffix(".safetensors")[:60]
        if name not in jobs.session_models():
            jobs.add_session_model(name, weights.getvalue(), card.getvalue())
        st.success(markdown_literal(t("train_nli.reupload_done", name=name)))


def show() -> None:
    links.restore_link(LINK, page="train_nli")
    encoder()  # the worker loads the same model: without it, say why and how to install it
    prepared = choose_data()
    if prepared is not None:
        spec, _ = settings(prepared)
        active = (job := jobs.queue().get(st.session_state.get(JOB, ""))) is not None and job.active
        if st.button(
            t("train_nli.start"),
            type="primary",
            key="train_start",
            disabled=active,
            icon=":material/play_arrow:",
        ):
            start(spec)
    links.publish_link(LINK)
    show_job()
    reload_model()
    links.share_panel(LINK, key="train_nli")
