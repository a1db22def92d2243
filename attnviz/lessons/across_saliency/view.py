"""The saliency view of the across-layers page: gradient x input and integrated gradients for
a target, beside rollout, with how complete integrated gradients' sum is."""

from __future__ import annotations

import math
from collections.abc import Callable

import pandas as pd
import streamlit as st

from attnviz.app import controls
from attnviz.app.feedback import markdown_literal
from attnviz.app.model import classifier
from attnviz.app.plot import plot, table
from attnviz.i18n import t
from attnviz.lessons.across.compute import (
    BASELINES,
    CLOSE_GAP,
    Saliency,
    closing_steps,
    completeness_gap,
    correlations,
    step_ladder,
    token_saliency,
    without_first,
)
from attnviz.lessons.across.figures import token_bars
from attnviz.lessons.across_common.view import (
    KEPT,
    hide_switch,
    one_token_note,
    rho_text,
    with_progress,
)
from attnviz.nli.data import LABEL_KEYS, LABELS
from attnviz.saliency import MAX_STEPS
from attnviz.transformer.encoder import Encoded, Encoder

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
STEP_CHOICES = (8, 16, 32, 64, 128, 256)
ENCODER_TARGETS = ("similarity", "verdict")  # a causal language model's is its next token
FIND_STEPS = "across_find_steps"
TARGET = controls.choice_control("target", "across_target", "similarity", ENCODER_TARGETS)
BASELINE = controls.choice_control("baseline", "across_baseline", "zeros", BASELINES)
STEPS = controls.ladder_control("steps", "across_steps", 32, STEP_CHOICES)
assert max(STEP_CHOICES) <= MAX_STEPS


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
