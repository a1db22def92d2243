"""The across-layers lesson below its title: all-MiniLM-L6-v2's attention followed through the
layers (rollout and flow), what each head does in numbers (a grid per statistic, a click
enlarges the head), and gradient saliency beside rollout."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import TypeVar
from urllib.parse import urlencode

import pandas as pd
import streamlit as st
import torch

from attnviz.app import cache, controls, links
from attnviz.app.feedback import ProgressBar, markdown_literal, show_error
from attnviz.app.model import MODEL, classifier, pick_model
from attnviz.app.plot import csv_download, download_csv, plot, plot_row, table
from attnviz.app.selection import selected_cell, store_click
from attnviz.app.sentences import DEFAULT_PRESET, PRESETS, sentence_pair
from attnviz.app.state import init_state
from attnviz.figures.labels import unique_labels
from attnviz.figures.model import before_after_bars, head_heatmap, head_values
from attnviz.i18n import catalogue, t
from attnviz.lessons.across.compute import (
    BASELINES,
    CLOSE_GAP,
    STATISTICS,
    Saliency,
    closing_steps,
    completeness_gap,
    correlations,
    head_statistics,
    hide_first,
    spearman,
    step_ladder,
    token_saliency,
    without_first,
)
from attnviz.lessons.across.figures import (
    STATISTICS_A_ROW,
    row_by_layer,
    statistic_grid,
    token_bars,
    token_matrix,
)
from attnviz.nli.data import LABEL_KEYS, LABELS
from attnviz.rollout import HEAD_FUSIONS, MAX_FLOW_TOKENS, attention_flow, attention_rollout
from attnviz.saliency import MAX_STEPS
from attnviz.transformer import head_finder, interventions
from attnviz.transformer.encoder import MAX_TOKENS, Encoded, Encoder
from attnviz.transformer.views import alignment_caveat

VIEWS = {
    "rollout": "across.view.rollout",
    "flow": "across.view.flow",
    "heads": "across.view.heads",
    "saliency": "across.view.saliency",
    "finder": "across.view.finder",
}
FUSIONS = {"mean": "across.fusion.mean", "max": "across.fusion.max", "min": "across.fusion.min"}
STATISTIC_TITLES = {
    "entropy": "across.stat.entropy",
    "distance": "across.stat.distance",
    "broad": "across.stat.broad",
    "cls": "across.stat.cls",
    "sep": "across.stat.sep",
    "first": "across.stat.first",
    "previous": "across.stat.previous",
    "next": "across.stat.next",
    "diagonal": "across.stat.diagonal",
}
TARGET_NAMES = {
    "similarity": "across.target.similarity",
    "verdict": "across.target.verdict",
    "next": "across.target.next",
}
SALIENCY_TITLES = {
    "similarity": "across.saliency.title.similarity",
    "verdict": "across.saliency.title.verdict",
    "next": "across.saliency.title.next",
}
BASELINE_NAMES = {"zeros": "across.baseline.zeros", "pad": "across.baseline.pad"}
CORRELATIONS = {
    "gxi_ig": "across.rho.gxi_ig",
    "rollout_gxi": "across.rho.rollout_gxi",
    "rollout_ig": "across.rho.rollout_ig",
}
MAX_LAYERS = 48  # bounds for links; the page clamps to the model's own layer and head counts
MAX_ROW = 2 * MAX_TOKENS + 2  # the last position of a pair, [CLS] and both [SEP] included
STEP_CHOICES = (8, 16, 32, 64, 128, 256)
ENCODER_TARGETS = ("similarity", "verdict")  # a causal language model's is its next token
_, _A, _B = PRESETS[DEFAULT_PRESET]
PRESET = controls.choice_control("preset", "across_preset", DEFAULT_PRESET, tuple(PRESETS))
SENTENCE_A = controls.text_control("a", "across_sentence_a", _A)
SENTENCE_B = controls.text_control("b", "across_sentence_b", _B)
VIEW = controls.choice_control("view", "across_view", "rollout", tuple(VIEWS))
FUSION = controls.choice_control("fusion", "across_fusion", "mean", HEAD_FUSIONS)
# Rollout and flow through layers 0..LAYER; ALL_LAYERS (the default) through the last layer,
# whatever the model's depth.
ALL_LAYERS = -1
LAYER = controls.int_control("layer", "across_layer", ALL_LAYERS, ALL_LAYERS, MAX_LAYERS - 2)
# The row to attribute; AUTO_ROW (the default) is the model's own: [CLS] (position 0) for an
# encoder, the last position for a decoder (its position 0 can only attend to itself).
AUTO_ROW = -1
ROW = controls.int_control("row", "across_row", AUTO_ROW, AUTO_ROW, MAX_ROW)
# A decoder's first token (its attention sink) hidden, rows renormalised over the rest.
FIRST = controls.bool_control("first", "across_hide_first")
ONE_TOKEN = 0.9  # a shown row with this share on one token gets a caption saying so
FIND_STEPS = "across_find_steps"
HEAD_LAYER = controls.int_control("hlayer", "across_head_layer", 0, 0, MAX_LAYERS - 1)
HEAD = controls.int_control("head", "across_head", 0, 0, 63)
TARGET = controls.choice_control("target", "across_target", "similarity", ENCODER_TARGETS)
BASELINE = controls.choice_control("baseline", "across_baseline", "zeros", BASELINES)
STEPS = controls.ladder_control("steps", "across_steps", 32, STEP_CHOICES)
SCORE_NAMES = {
    "induction": "across.finder.score.induction",
    "duplicate": "across.finder.score.duplicate",
    "previous": "across.finder.score.previous",
    "first": "across.finder.score.first",
    "diagonal": "across.finder.score.diagonal",
}
SCORE = controls.choice_control("score", "across_finder_score", "induction", head_finder.SCORES)
MODE = controls.choice_control("ablation", "across_ablation", "zero", interventions.MODES)
MODE_NAMES = {"zero": "across.ablation.zero", "mean": "across.ablation.mean"}
ABLATE = "across_ablate"  # the heads taken out, as "layer.head" strings (the multiselect's)
# The same heads in the link: "18.6,17.3"; "none" for no head; "" (the default) for the five
# with the highest induction scores. The multiselect writes it when changed.
OUT = controls.text_control("out", "across_ablate_out", "", max_chars=600)
FINDER_GRID = "across_finder_grid"
RANKED = 10
LINK: tuple[controls.Control, ...] = (
    MODEL, PRESET, SENTENCE_A, SENTENCE_B, VIEW, FUSION, LAYER, ROW, FIRST, HEAD_LAYER, HEAD,
    TARGET, BASELINE, STEPS, SCORE, MODE, OUT,
)  # fmt: skip
KEPT = cache.Kept()  # flows and saliencies: they show a progress bar while they are computed
assert max(STEP_CHOICES) <= MAX_STEPS
T = TypeVar("T")


@cache.results
def read(model_path: str, _encoder: Encoder, text_a: str, text_b: str | None) -> Encoded:
    """The model's reading of a sentence or a pair, [CLS] A [SEP] B [SEP] for MiniLM, A, a
    newline, B for a decoder (cached on the model and the texts)."""
    return _encoder.encode(text_a, text_b)


@cache.results
def rollout_of(
    model_path: str, texts: tuple[str, ...], fusion: str, _attn: torch.Tensor
) -> torch.Tensor:
    """(L, T, T) rollout of the model's reading of `texts` (causal for a decoder: its
    attention is)."""
    return attention_rollout(_attn, fusion)


def clamp(control: controls.Control, count: int, fallback: int = 0) -> int:
    """The control's value, or `fallback` outside 0..count - 1 (a link may name any number)."""
    value = int(st.session_state.get(control.key, control.default) or 0)
    if not 0 <= value < count:
        st.session_state[control.key] = value = fallback
    return value


def with_progress(
    key: tuple[object, ...], label: str, compute: Callable[[Callable[[float], None]], T]
) -> T:
    """A kept result, or `compute(progress)` under a progress bar that goes when it is done."""

    def run() -> T:
        bar = ProgressBar(label)
        try:
            return compute(bar)
        finally:
            bar.empty()

    return KEPT.get(key, run)


def token_names(tokens: list[str]) -> list[str]:
    """ "3 · sleep": a position and its token, for the row picker."""
    return [f"{i} · {token}" for i, token in enumerate(tokens)]


def row_options(encoded: Encoded, hide: bool) -> tuple[list[int], int]:
    """The rows the picker offers (AUTO_ROW in place of the position it stands for, the first
    token left out when it is hidden) and that position."""
    first = 1 if hide else 0
    count = len(encoded.tokens)
    auto = count - 1 if encoded.kind == "decoder" else first
    options = [AUTO_ROW if i == auto else i for i in range(first, count)]
    if int(st.session_state.get(ROW.key, AUTO_ROW)) not in options:
        st.session_state[ROW.key] = AUTO_ROW  # a link's number out of range, or a hidden row
    return options, auto


def hide_switch(encoded: Encoded, where: object = None) -> bool:
    """A decoder's "hide the first token" switch (an encoder has none); off for one token."""
    if encoded.kind != "decoder" or len(encoded.tokens) < 2:
        return False
    label, help_text = t("across.hide_first"), t("across.hide_first.help")
    return controls.toggle(FIRST, label, where=where, help=help_text)


def choose_path(encoded: Encoded, num_layers: int) -> tuple[str, int, int, bool]:
    """Sidebar: how heads are fused, through which layer, whether a decoder's first token is
    hidden, and the row to attribute."""
    if not ALL_LAYERS <= int(st.session_state[LAYER.key]) < num_layers - 1:
        st.session_state[LAYER.key] = ALL_LAYERS
    names = token_names(encoded.labels)
    last = num_layers - 1
    with st.sidebar:
        fusion = controls.select(
            FUSION,
            t("across.fusion"),
            lambda f: t(FUSIONS[f]),
            help=t("across.fusion.help"),
        )
        through = st.selectbox(
            t("across.layer"),
            [*range(last), ALL_LAYERS],
            format_func=lambda n: t("across.layer.option", layer=last if n == ALL_LAYERS else n),
            key=LAYER.key,
            persist_state="session",
        )
        hide = hide_switch(encoded)
        options, auto = row_options(encoded, hide)  # before the widget that holds it is drawn
        row = st.selectbox(
            t("across.row"),
            options,
            format_func=lambda i: names[auto if i == AUTO_ROW else i],
            key=ROW.key,
            help=t("across.row.help"),
            persist_state="session",
        )
    layer = last if through == ALL_LAYERS else int(through or 0)
    return str(fusion), layer, auto if row in (None, AUTO_ROW) else int(row), hide


def one_token_note(row: torch.Tensor, tokens: list[str], name: str, sink: bool) -> None:
    """A caption when a shown row puts nearly all its weight on one token, and why; `sink`:
    that token may be a decoder's first token, still shown."""
    share, where = float(row.max()), int(row.argmax())
    if share < ONE_TOKEN:
        return
    key = "across.one_token.first" if sink and where == 0 else "across.one_token"
    token = markdown_literal(tokens[where])
    st.caption(t(key, share=f"{share:.2f}", token=token, row=markdown_literal(name)))


def show_rollout(encoded: Encoded, rollout: torch.Tensor, layer: int, row: int, hide: bool) -> None:
    """The rollout through layers 0..layer, the row's attribution beside that layer's raw
    attention, and the row's attribution layer by layer (without a decoder's first token when
    `hide`, rows renormalised over the rest)."""
    text = catalogue()
    tokens = encoded.labels  # each piece as its text
    raw = encoded.every_attention()[layer].mean(dim=0)  # (T, T) the layer's heads averaged
    if hide:
        tokens, rollout, raw, row = tokens[1:], hide_first(rollout), hide_first(raw), row - 1
    st.markdown(t("across.rollout.explain"))
    if hide:
        st.caption(t("across.first_hidden"))
    left, right = st.columns(2)
    with left:
        plot(
            token_matrix(rollout[layer], tokens, t("across.rollout.title", layer=layer), text),
            key="across_rollout",
        )
    with right:
        plot(
            token_bars(
                tokens,
                [
                    {
                        t("across.series.rollout"): rollout[layer, row],
                        t("across.series.raw"): raw[row],
                    }
                ],
                title=t("across.row_title", token=tokens[row], layer=layer),
                y_titles=[t("across.share")],
                across=2,
            ),
            key="across_row_bars",
        )
    sink = encoded.kind == "decoder" and not hide
    one_token_note(rollout[layer, row], tokens, tokens[row], sink)
    plot(
        row_by_layer(rollout, row, tokens, t("across.by_layer_title", token=tokens[row]), text),
        key="across_by_layer",
    )
    labels = unique_labels(tokens)
    csv_download(t("across.rollout.csv", layer=layer), rollout[layer], labels, labels, "rollout")


def show_flow(
    encoded: Encoded, rollout: torch.Tensor, fusion: str, layer: int, row: int, hide: bool
) -> None:
    """The attention flow through layers 0..layer (capped at MAX_FLOW_TOKENS), its row beside
    rollout's (without a decoder's first token when `hide`, rows renormalised over the rest)."""
    tokens = encoded.labels  # each piece as its text
    st.markdown(t("across.flow.explain", limit=MAX_FLOW_TOKENS))
    if len(tokens) > MAX_FLOW_TOKENS:
        st.info(t("across.flow.too_long", count=len(tokens), limit=MAX_FLOW_TOKENS))
        return
    attn = encoded.every_attention()[: layer + 1]
    flow = with_progress(
        ("flow", encoded.texts, fusion, layer),
        t("across.flow.computing", pairs=len(tokens) ** 2, layers=layer + 1),
        lambda progress: attention_flow(attn, fusion, progress=progress),
    )
    if hide:
        tokens, flow, rollout, row = tokens[1:], hide_first(flow), hide_first(rollout), row - 1
        st.caption(t("across.first_hidden"))
    left, right = st.columns(2)
    with left:
        title = t("across.flow.title", layer=layer)
        plot(token_matrix(flow, tokens, title, catalogue()), key="across_flow")
    with right:
        series = {  # rollout first: the same colour as on the rollout view
            t("across.series.rollout"): rollout[layer, row],
            t("across.series.flow"): flow[row],
        }
        plot(
            token_bars(
                tokens,
                [series],
                title=t("across.row_title", token=tokens[row], layer=layer),
                y_titles=[t("across.share")],
                across=2,
            ),
            key="across_flow_row",
        )
    rho = rho_text(spearman(flow[row], rollout[layer, row]))
    st.caption(t("across.flow.spearman", token=tokens[row], rho=rho))
    labels = unique_labels(tokens)
    csv_download(t("across.flow.csv", layer=layer), flow, labels, labels, "flow")


def rho_text(rho: float) -> str:
    return "—" if math.isnan(rho) else f"{rho:+.2f}"


def show_heads(encoded: Encoded, num_layers: int, num_heads: int) -> None:
    """Every statistic as a layers x heads grid, two a row; the clicked head enlarged."""
    st.markdown(t("across.heads.explain"))
    stats = head_statistics(encoded)
    layer = clamp(HEAD_LAYER, num_layers)
    head = clamp(HEAD, num_heads)
    text = catalogue()
    names = list(STATISTICS)
    for start in range(0, len(names), STATISTICS_A_ROW):
        row = names[start : start + STATISTICS_A_ROW]
        for column, name in zip(st.columns(STATISTICS_A_ROW), row, strict=False):
            key = f"across_stat_{name}"
            fig = statistic_grid(
                stats[name],
                title=t(STATISTIC_TITLES[name]),
                share=STATISTICS[name],
                text=text,
                selected=(layer, head),
            )
            on_click = functools.partial(
                store_click, key, (HEAD_LAYER.key, HEAD.key), selected_cell
            )
            with column:
                plot(fig, key=key, on_select=on_click, export=False)
    st.caption(t("across.heads.click", layer=layer, head=head))
    left, right = st.columns([3, 2])
    with left:
        plot(
            head_heatmap(
                encoded.every_attention(), layer, head, encoded.labels, encoded.labels, text
            ),
            key="across_head_view",
        )
    with right:
        frame = pd.DataFrame({
            t("across.col.statistic"): [t(STATISTIC_TITLES[name]) for name in names],
            t("across.col.value"): [float(stats[name][layer, head]) for name in names],
            t("across.col.rank"): [rank_of(stats[name], layer, head) for name in names],
        })  # fmt: skip
        st.markdown(t("across.heads.table", layer=layer, head=head))
        table(frame, t("across.heads.table_csv", layer=layer, head=head), key="across_head_stats")
    every = pd.DataFrame([
        {"layer": i, "head": h, **{name: float(stats[name][i, h]) for name in names}}
        for i in range(num_layers) for h in range(num_heads)
    ])  # fmt: skip
    download_csv(t("across.heads.csv"), every.to_csv(index=False).encode("utf-8"), "head_stats")


def rank_of(values: torch.Tensor, layer: int, head: int) -> str:
    """ "3 / 72": the head's place among all heads, largest first."""
    flat = values.flatten()
    place = int((flat > values[layer, head]).sum()) + 1
    return f"{place} / {flat.numel()}"


def choose_saliency(has_classifier: bool, causal: bool) -> tuple[str, str, int]:
    """The target (a causal language model's is its next token), the baseline and the number
    of integration steps."""
    columns = st.columns([2, 2, 3])
    if causal:
        target = "next"
        columns[0].markdown(f"{t('across.target')}: {t(TARGET_NAMES['next'])}")
    else:
        target = controls.select(
            TARGET,
            t("across.target"),
            lambda k: t(TARGET_NAMES[k]),
            where=columns[0],
        )
    if target == "verdict" and not has_classifier:
        target = "similarity"
    baseline = controls.select(
        BASELINE,
        t("across.baseline"),
        lambda k: t(BASELINE_NAMES[k]),
        where=columns[1],
        help=t("across.baseline.help"),
    )
    steps = controls.ladder(STEPS, t("across.steps"), where=columns[2], help=t("across.steps.help"))
    return str(target), str(baseline), steps


def show_saliency(model: Encoder, encoded: Encoded, text_a: str, text_b: str | None) -> None:
    """Gradient x input and integrated gradients for the chosen target, beside rollout."""
    st.markdown(t("across.saliency.explain"))
    causal = model.kind == "decoder"
    if causal:
        st.caption(t("across.saliency.decoder"))
    elif text_b is None:
        st.info(t("across.saliency.needs_b"))
        return
    trained, name = classifier() if model.shipped else (None, model.name)
    usable = trained is not None and trained.source in ("contextual", "static", "tuned")
    target, baseline, steps = choose_saliency(usable, causal)
    if st.session_state.get(TARGET.key) == "verdict" and not usable:
        st.info(t("across.saliency.no_classifier", detail=name))
    hide = hide_switch(encoded)
    verdict = name if target == "verdict" else ""
    key = ("saliency", str(model.path), text_a, text_b, target, baseline, verdict)

    def attribute(count: int, progress: Callable[[float], None] | None) -> Saliency:
        return token_saliency(
            model, text_a, text_b, target=target, classifier=trained, baseline=baseline,
            steps=count, progress=progress,
        )  # fmt: skip

    result = with_progress(
        (*key, steps), t("across.saliency.computing", steps=steps), lambda p: attribute(steps, p)
    )
    show_saliency_result(result, model, hide)
    show_completeness(result, key, attribute)


def show_saliency_result(result: Saliency, model: Encoder, hide: bool) -> None:
    """The bars, the target's values, the rank correlations and a table (without a decoder's
    first token when `hide`, the rollout row renormalised over the rest)."""
    show_target(result, model)
    rollout_name = t(
        "across.series.rollout_last" if result.target == "next" else "across.series.rollout_cls"
    )
    shown = without_first(result) if hide else result
    if hide:
        st.caption(t("across.first_hidden"))
    show_saliency_bars(shown, rollout_name)
    if shown.rollout is not None and result.target == "next":  # the last position's row
        one_token_note(shown.rollout, shown.tokens, shown.tokens[-1], not hide)
    show_correlations(shown)
    show_token_table(shown, rollout_name)


def show_target(result: Saliency, model: Encoder) -> None:
    """What the target is for this pair: the predicted next token, the similarity or the
    classifier's label, with its value."""
    if result.target == "next" and result.label is not None:
        token = markdown_literal(model.readable_piece(result.label))
        st.markdown(t("across.saliency.next", token=token, value=f"{result.value:.4f}"))
    elif result.label is None:
        st.markdown(t("across.saliency.similarity", value=f"{result.value:.4f}"))
    else:
        label = t(LABEL_KEYS[LABELS[result.label]])
        st.markdown(t("across.saliency.verdict", label=label, value=f"{result.value:.4f}"))


def show_saliency_bars(result: Saliency, rollout_name: str) -> None:
    """Rollout (when the target has one) above gradient x input and integrated gradients, a
    dashed line between the sentences."""
    panels = []
    y_titles = []
    if result.rollout is not None:
        panels.append({rollout_name: result.rollout})
        y_titles.append(t("across.share"))
    panels.append({
        t("across.series.gxi"): result.gradient_x_input,
        t("across.series.ig"): result.integrated,
    })  # fmt: skip
    y_titles.append(t("across.attribution"))
    # A dashed line where sentence B starts (a decoder's single text has none).
    boundaries = [result.sentence.index(1) - 0.5] if 1 in result.sentence else []
    fig = token_bars(
        result.tokens,
        panels,
        title=t(SALIENCY_TITLES[result.target]),
        y_titles=y_titles,
        boundaries=boundaries,
    )
    plot(fig, key="across_saliency")


def show_completeness(
    result: Saliency,
    key: tuple[object, ...],
    attribute: Callable[[int, Callable[[float], None] | None], Saliency],
) -> None:
    """How far integrated gradients' sum is from the target's change from the baseline; above
    CLOSE_GAP, a button measures how many steps close it (kept under `key`)."""
    total = float(result.integrated.sum())
    change = result.value - result.baseline_value
    gap = completeness_gap(result)
    steps = int(st.session_state.get(STEPS.key, STEPS.default))
    st.caption(
        t(
            "across.saliency.complete",
            total=f"{total:.4f}",
            value=f"{result.value:.4f}",
            baseline=f"{result.baseline_value:.4f}",
            change=f"{change:.4f}",
            gap="—" if math.isnan(gap) else f"{gap:.2%}",
            steps=steps,
        )
    )
    if not gap > CLOSE_GAP:
        return
    counts = step_ladder(steps, STEP_CHOICES)
    found_key = ("closing", *key, steps)
    limit = f"{CLOSE_GAP:.0%}"
    if found_key not in KEPT:
        st.caption(t("across.gap.advice", limit=limit, most=MAX_STEPS))
        if not counts or not st.button(t("across.gap.find"), key=FIND_STEPS):
            return
    found = with_progress(
        found_key,
        t("across.gap.finding", counts=", ".join(map(str, counts))),
        lambda progress: closing_steps(attribute, counts, progress),
    )
    if found is None:
        current = st.session_state.get(BASELINE.key)
        others = ", ".join(t(BASELINE_NAMES[b]) for b in BASELINES if b != current)
        st.caption(t("across.gap.none", limit=limit, most=MAX_STEPS, others=others))
    else:
        on_slider = found[0] in STEP_CHOICES
        st.caption(
            t(
                "across.gap.found" if on_slider else "across.gap.found_off",
                steps=found[0], gap=f"{found[1]:.2%}", limit=limit, top=max(STEP_CHOICES),
            )
        )  # fmt: skip


def show_correlations(result: Saliency) -> None:
    """Spearman's rank correlations of the two attributions with each other and with rollout
    (when the target has one), as a table."""
    found = correlations(result)
    rows = [(t(CORRELATIONS[name]), rho_text(rho)) for name, rho in found.items()]
    st.markdown(t("across.rho.heading"))
    table(
        pd.DataFrame(rows, columns=[t("across.col.pair"), t("across.col.rho")]),
        t("across.rho.heading"),
        key="across_rho",
    )


def show_token_table(result: Saliency, rollout_name: str) -> None:
    """Each token's sentence and attributions (and rollout, when the target has one)."""
    per_token = {
        t("across.col.token"): result.tokens,
        t("across.col.sentence"): ["AB"[s] for s in result.sentence],
        t("across.series.gxi"): result.gradient_x_input.tolist(),
        t("across.series.ig"): result.integrated.tolist(),
    }
    if result.rollout is not None:
        per_token[rollout_name] = result.rollout.tolist()
    table(pd.DataFrame(per_token), t("across.saliency.csv"), key="across_saliency_table")


BASELINE_FOR = "across_baseline_for"  # the model kind whose default the baseline holds


def default_baseline(kind: str) -> None:
    """The baseline's default follows the model: a decoder's integrated gradients start from
    the pad token's rows (from zeros, which its RMSNorm never sees in text, SmolLM2's
    completeness gap stays over 20% up to 1024 steps), an encoder's from zeros. A baseline
    the person or a link chose stays."""

    def default(of: str) -> str:
        return "pad" if of == "decoder" else str(BASELINE.default)

    before = st.session_state.get(BASELINE_FOR)
    unset = BASELINE.key not in st.session_state
    if unset or (before not in (None, kind) and st.session_state[BASELINE.key] == default(before)):
        st.session_state[BASELINE.key] = default(kind)
    st.session_state[BASELINE_FOR] = kind


def show() -> None:
    links.restore_link(LINK, page="across")
    for control in LINK:  # every view's settings, whichever view draws its widgets
        if control is not BASELINE:
            init_state(control.key, control.default)
    model = pick_model()
    default_baseline(model.kind)
    links.publish_link(LINK)
    try:
        text_a, text_b = sentence_pair(PRESET, SENTENCE_A, SENTENCE_B)
        view = controls.select(VIEW, t("across.view"), lambda v: t(VIEWS[v]), widget="segmented")
        with st.spinner(t("model.computing")):
            encoded = read(str(model.path), model, text_a, text_b)
        for truncated, which in zip(encoded.truncated, ("A", "B"), strict=False):
            if truncated:
                st.info(t("model.truncated", which=which, limit=MAX_TOKENS))
        if alignment_caveat(encoded):
            st.warning(t("model.caveat"))
        show_view(str(view), model, encoded, text_a, text_b)
    except ValueError as err:  # every view's error ends here, as the page's own message
        show_error(err)
    links.share_panel(LINK, key="across")


def show_view(view: str, model: Encoder, encoded: Encoded, text_a: str, text_b: str | None) -> None:
    """The chosen view of the model's reading."""
    if view in ("rollout", "flow"):
        fusion, layer, row, hide = choose_path(encoded, model.num_layers)
        rollout = rollout_of(
            str(model.path), tuple(encoded.texts), fusion, encoded.every_attention()
        )
        if view == "rollout":
            show_rollout(encoded, rollout, layer, row, hide)
        else:
            show_flow(encoded, rollout, fusion, layer, row, hide)
    elif view == "heads":
        show_heads(encoded, model.num_layers, model.num_heads)
    elif view == "finder":
        text = text_a if text_b is None else f"{text_a}\n{text_b}"  # as a decoder reads a pair
        show_finder(model, text, HEAD_LAYER.key, HEAD.key)
    else:
        show_saliency(model, encoded, text_a, text_b)


# --- finder ---


@cache.results
def scores_of(model_path: str, _encoder: Encoder) -> dict[str, torch.Tensor]:
    """The finder's five (L, H) scores (cached on the model)."""
    return head_finder.head_scores(_encoder)


def head_name(layer: int, head: int) -> str:
    return f"{layer}.{head}"


def show_finder(model: Encoder, text: str, layer_key: str, head_key: str) -> None:
    """The finder's grid and table, then the ablation of the chosen heads on `text`."""
    st.markdown(t("across.finder.explain"))
    if model.kind != "decoder":
        st.info(t("across.finder.needs_decoder", name=model.name))
        return
    with st.spinner(t("across.finder.computing")):
        scores = scores_of(str(model.path), model)
    name = controls.select(
        SCORE, t("across.finder.score"), lambda s: t(SCORE_NAMES[s]), widget="segmented"
    )
    values = scores[str(name)]
    layer = int(st.session_state.get(layer_key) or 0) % model.num_layers
    head = int(st.session_state.get(head_key) or 0) % model.num_heads
    text_of = catalogue()
    grid = head_values(
        values, title=t(SCORE_NAMES[str(name)]), text=text_of, selectable=True,
        selected=(layer, head), across=5 / 3,
    )  # fmt: skip
    on_click = functools.partial(store_click, FINDER_GRID, (layer_key, head_key), selected_cell)
    left, right = st.columns([3, 2])
    with left:
        plot(grid, key=FINDER_GRID, on_select=on_click)
    with right:
        query = urlencode(
            {MODEL.name: st.session_state.get(MODEL.key, ""), "layer": layer, "head": head}
        )
        st.markdown(
            t("across.finder.open", layer=layer, head=head, heads=f"Model_attention?{query}",
              neuron=f"Model_attention?{query}&view=neuron")
        )  # fmt: skip
    order = values.flatten().argsort(descending=True)[:RANKED].tolist()
    rows = [divmod(int(i), model.num_heads) for i in order]
    frame = pd.DataFrame(
        [
            {
                t("across.col.head"): head_name(r, h),
                **{t(SCORE_NAMES[s]): float(scores[s][r, h]) for s in head_finder.SCORES},
            }
            for r, h in rows
        ]
    )
    table(
        frame, t("across.finder.table", score=t(SCORE_NAMES[str(name)])), key="across_finder_table"
    )
    show_ablation(model, text, scores)


def _ablate_changed() -> None:
    st.session_state[OUT.key] = ",".join(st.session_state[ABLATE]) or "none"


def show_ablation(model: Encoder, text: str, scores: dict[str, torch.Tensor]) -> None:
    """Heads out: the next token before and after, KL, the loss on the text."""
    st.subheader(t("across.ablation"))
    options = [head_name(r, h) for r in range(model.num_layers) for h in range(model.num_heads)]
    given = str(st.session_state.get(OUT.key) or "")
    if given:  # from the link, or the multiselect's last change
        st.session_state[ABLATE] = [h for h in given.split(",") if h in options]
    elif ABLATE not in st.session_state:  # the five strongest induction heads to start with
        strongest = scores["induction"].flatten().argsort(descending=True)[:5].tolist()
        st.session_state[ABLATE] = [head_name(*divmod(int(i), model.num_heads)) for i in strongest]
    columns = st.columns([3, 1])
    picked = columns[0].multiselect(
        t("across.ablation.heads"), options, key=ABLATE, on_change=_ablate_changed
    )
    mode = controls.select(
        MODE, t("across.ablation.mode"), lambda m: t(MODE_NAMES[m]), where=columns[1]
    )
    heads = [(int(p.split(".")[0]), int(p.split(".")[1])) for p in picked]
    try:
        ids, before = interventions.logits_with(model, text)
        _, after = interventions.logits_with(model, text, ablate=heads, mode=str(mode))
    except ValueError as err:
        show_error(err)
        return
    p_before, p_after = torch.softmax(before[-1], -1), torch.softmax(after[-1], -1)
    titles = (t("across.ablation.before"), t("across.ablation.after", count=len(heads)))
    bars = before_after_bars(p_before, p_after, model.readable_piece, titles, catalogue())
    plot_row(dict(zip(("across_ablation_before", "across_ablation_after"), bars, strict=True)))
    first, top = int(p_before.argmax()), int(p_after.argmax())
    token = markdown_literal(model.readable_piece(first))
    st.markdown(
        t(
            "across.ablation.summary_same" if top == first else "across.ablation.summary",
            token=token,
            before=f"{float(p_before[first]):.1%}",
            after=f"{float(p_after[first]):.1%}",
            kl=f"{interventions.kl_divergence(p_before, p_after):.4f}",
            loss_before=f"{interventions.prompt_loss(ids, before):.3f}",
            loss_after=f"{interventions.prompt_loss(ids, after):.3f}",
            top=markdown_literal(model.readable_piece(top)),
        )
    )
