"""The NLI page's evaluation files: an uploaded SNLI / MultiNLI file scored by the classifier
(one file at a time per server process, the others told their place, with a progress bar),
then its accuracy, the confusion matrix, accuracy per gold label and per hypothesis length, the
pairs it gets wrong (a click shows one's verdict and alignment below), and a CSV of every
pair's probabilities. The pasted batch's table (at most 64 pairs) is drawn here too, so both
read alike."""

from __future__ import annotations

import functools
import time
from typing import Any

import pandas as pd
import streamlit as st
import torch

from attnviz.app.cache import Kept
from attnviz.app.feedback import markdown_literal
from attnviz.app.plot import download_csv, pick_table, plot
from attnviz.app.turns import Turns
from attnviz.errors import InputError
from attnviz.i18n import catalogue, t
from attnviz.lessons.nli import figures
from attnviz.nli import batch
from attnviz.nli.classifier import Classifier
from attnviz.nli.data import LABEL_KEYS, LABELS

UPLOAD = "nli_score_upload"
WRONG = "nli_score_wrong"
GOLD = "nli_score_gold"
Pairs = list[tuple[str, str]]


@st.cache_resource(show_spinner=False)
def _scoring() -> tuple[Turns, Kept]:
    """The server's one scoring queue and the scored files it keeps (8, about 120 kB each)."""
    return Turns(), Kept(entries=8)


def _label(index: int | None) -> str:
    return "" if index is None else t(LABEL_KEYS[LABELS[index]])


def scored(classifier: Classifier, model: str, scoring: batch.ScoringFile) -> torch.Tensor:
    """Every pair's probabilities, kept for every session per (model, file); computed after
    the files ahead of it, with a bar that says how many pairs are done and how long is left."""
    turns, kept = _scoring()
    slot = st.empty()
    started = time.perf_counter()

    def waiting(ahead: int) -> None:
        slot.info(t("nli.score.waiting", ahead=ahead))

    def progress(done: int, total: int) -> None:
        seconds = (time.perf_counter() - started) * (total - done) / max(done, 1)
        text = t("nli.score.progress", done=f"{done:,}", total=f"{total:,}", left=round(seconds))
        slot.progress(done / total, text=text)

    def score() -> torch.Tensor:
        return classifier.predict(scoring.pairs, progress=progress)

    found = kept.in_turn((model, scoring.sha256), score, turns, waiting)
    slot.empty()
    return found


def file_inputs(
    classifier: Classifier | None, model: str
) -> tuple[Pairs, list[int | None], int] | None:
    """The uploader, the scored file's report, and the pair to show below: the one clicked in
    the table of pairs it gets wrong (the first of them before any click); None before a file
    is uploaded. InputError for a file that cannot be read."""
    st.file_uploader(
        t("nli.score.upload"), type=["jsonl", "json", "txt", "tsv", "csv"], key=UPLOAD,
        max_upload_size=batch.MAX_SCORE_BYTES // (1024 * 1024),
    )  # fmt: skip
    st.caption(t("nli.score.accepted", pairs=f"{batch.MAX_SCORE_PAIRS:,}",
                 mb=batch.MAX_SCORE_BYTES // (1024 * 1024)))  # fmt: skip
    upload = st.session_state.get(UPLOAD)
    if upload is None:
        st.info(t("nli.score.none"))
        return None
    scoring = batch.read_scoring_file(upload.getvalue(), upload.name)
    if classifier is None:
        raise InputError("nli_score_no_model")
    probabilities = scored(classifier, model, scoring)
    found = batch.report(probabilities, scoring.labels, scoring.pairs)
    show_report(scoring, found)
    index = show_pairs(scoring, probabilities, found)
    return [scoring.pairs[index]], [scoring.labels[index]], 0


def show_report(scoring: batch.ScoringFile, found: batch.Report | None) -> None:
    """Accuracy with its interval, the confusion matrix, per label and per length."""
    dropped = t("nli.score.dropped", count=scoring.unlabelled) if scoring.unlabelled else ""
    name = markdown_literal(scoring.name)
    st.markdown(t("nli.score.read", name=name, pairs=f"{len(scoring.pairs):,}") + " " + dropped)
    if found is None:
        st.info(t("nli.score.no_labels"))
        return
    low, high = found.ci95
    of = t("nli.batch_accuracy.of", correct=f"{found.correct:,}", total=f"{found.labelled:,}")
    interval = t("nli.score.ci", low=f"{low:.1%}", high=f"{high:.1%}")
    st.metric(t("nli.batch_accuracy"), f"{found.accuracy:.1%}", of, delta_color="off",
              delta_arrow="off", help=interval)  # fmt: skip
    text = catalogue()
    labels = [text(LABEL_KEYS[label]) for label in LABELS]
    lengths = [f"{lo}–{hi}" if hi else f"{lo}+" for lo, hi in batch.LENGTH_BINS]
    left, right = st.columns(2)
    with left:
        confusion = figures.confusion_figure(found.confusion, t("nli.batch_confusion"), text, 2)
        plot(confusion, "nli_score_confusion")
    with right:  # the two bar charts one above the other, each half the page wide
        plot(figures.accuracy_bars(labels, found.per_label, t("nli.score.per_label"),
                                   t("nli.confusion.gold"), text), "nli_score_labels")  # fmt: skip
        plot(figures.accuracy_bars(lengths, found.per_length, t("nli.score.per_length"),
                                   t("nli.score.words"), text), "nli_score_lengths")  # fmt: skip
    st.caption(t("nli.confusion.caption"))


def rows(
    pairs: Pairs, labels: list[int | None], probabilities: torch.Tensor, indices: list[int]
) -> pd.DataFrame:
    """The batch table of `indices`: pair number, gold label, verdict and its probability first
    (so they stay in view on a narrow screen), the three probabilities, then the texts."""
    chosen = probabilities[indices]  # (K, 3)
    columns: dict[str, list[Any]] = {
        t("nli.col.pair"): indices,
        t("nli.col.gold"): [_label(labels[i]) for i in indices],
        t("nli.col.verdict"): [_label(int(v)) for v in chosen.argmax(-1)],
        t("nli.col.confidence"): chosen.max(-1).values.tolist(),
    }
    for k, label in enumerate(LABELS):
        name = t("nli.col.probability", label=t(LABEL_KEYS[label]))
        columns[name] = [float(probabilities[i, k]) for i in indices]
    columns[t("nli.col.premise")] = [pairs[i][0] for i in indices]
    columns[t("nli.col.hypothesis")] = [pairs[i][1] for i in indices]
    return pd.DataFrame(columns)


def column_config() -> dict[str, Any]:
    """Probabilities as bars with two decimals, the texts wide."""
    config: dict[str, Any] = {
        t("nli.col.confidence"): st.column_config.ProgressColumn(
            format="%.2f", min_value=0.0, max_value=1.0, width="small"
        ),
        t("nli.col.premise"): st.column_config.TextColumn(width="large"),
        t("nli.col.hypothesis"): st.column_config.TextColumn(width="medium"),
    }
    for label in LABELS:
        name = t("nli.col.probability", label=t(LABEL_KEYS[label]))
        config[name] = st.column_config.NumberColumn(format="%.2f", width="small")
    return config


def show_pairs(
    scoring: batch.ScoringFile, probabilities: torch.Tensor, found: batch.Report | None
) -> int:
    """The pairs it gets wrong (every pair when the file has no labels), filtered by gold label;
    the index of the clicked one, else the table's first. The CSV of every pair below."""
    indices = found.wrong if found is not None else list(range(len(scoring.pairs)))
    if found is not None:
        st.subheader(t("nli.score.wrong", count=f"{len(found.wrong):,}"))
        chosen = st.pills(t("nli.score.filter"), LABELS, selection_mode="multi", default=LABELS,
                          format_func=lambda label: t(LABEL_KEYS[label]), key=GOLD)  # fmt: skip
        keep = {LABELS.index(label) for label in chosen or ()}
        indices = [i for i in indices if scoring.labels[i] in keep]
    frame = rows(scoring.pairs, scoring.labels, probabilities, indices)
    picked = pick_table(frame, WRONG, column_config())
    st.caption(t("nli.score.click"))
    data = functools.partial(
        batch.probabilities_csv, scoring.pairs, scoring.labels, probabilities
    )  # written on a click only
    download_csv(t("nli.score.csv"), data, "nli_probabilities")
    if picked is not None:
        return indices[picked]
    return indices[0] if indices else 0
