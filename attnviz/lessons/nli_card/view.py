"""The NLI page's trained model: its verdict with SNLI's convention beside it, its card (what
it is and what was measured on which data, read from the card: never written twice), the
models of this session side by side, and what it learned (the headline set first, attnviz's own
test split and hard set second and third)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from attnviz.app import jobs
from attnviz.app.feedback import markdown_literal
from attnviz.app.model import shipped_card
from attnviz.app.plot import plot, table
from attnviz.i18n import catalogue, t
from attnviz.lessons.nli import figures
from attnviz.lessons.nli.compute import ALIGN_KEYS, CARD_ROWS, card_values
from attnviz.nli import data as nli_data
from attnviz.nli.card import Card, Scores
from attnviz.nli.classifier import Classifier, Verdicts
from attnviz.nli.data import LABEL_KEYS, LABELS
from attnviz.transformer.encoder import MAX_TOKENS, model_layer

HEADLINE_KEYS = {"snli_test": "nli.data.snli_test", "own_test": "nli.data.own_test"}
LEARNED_KEYS = {"snli_test": "nli.learned.snli_test", "own_test": "nli.learned.own_test"}


def output_name(hidden_state: int, num_layers: int) -> str:
    """Hidden state `hidden_state` named in a card's words, numbered as the model page numbers
    layers ("MiniLM layer 3's contextual output")."""
    layer = model_layer(hidden_state, num_layers)
    if layer is None:
        return t("nli.card.embeddings")
    return t("nli.card.layer", layer=layer)


def source_name(card: Card, num_layers: int) -> str:
    """The token vectors a card's model reads, in words."""
    if card.source == "static":
        return t("nli.card.static")
    if card.source == "tuned" and card.tuned is not None:
        return t("nli.card.tuned", layers=int(card.tuned["layers"]))
    return output_name(-1 if card.layer is None else card.layer, num_layers)


def _number(value: float | None) -> str:
    return "?" if value is None else f"{value:.3f}"


def _trained_on(card: Card) -> str:
    if card.real is not None:
        return t("nli.card.real_data", pairs=f"{card.real.train_pairs:,}")
    pairs = "?" if card.train_pairs is None else f"{card.train_pairs:,}"
    return t("nli.card.own_data", pairs=pairs, file=markdown_literal(card.train_file))


def card_text(card: Card, num_layers: int) -> str:
    """What the classifier is, from its card: data, token vectors, sizes, and the headline
    accuracy named with the data it was measured on."""
    text = t("nli.card.text", hidden=card.hidden, data=_trained_on(card),
             source=source_name(card, num_layers))  # fmt: skip
    if card.attend == "minilm" and card.layer is not None:
        text += " " + t("nli.card.attend_minilm", source=output_name(card.layer, num_layers))
    headline = card.headline
    if headline is None:
        return text
    name, scores = headline
    low, high = scores.ci95 or (None, None)
    text += " " + t(
        "nli.card.headline", accuracy=_number(scores.accuracy), data=t(HEADLINE_KEYS[name]),
        pairs=f"{scores.pairs:,}", low=_number(low), high=_number(high),
        baseline=_number(scores.baseline),
    )  # fmt: skip
    if name == "snli_test" and card.own_test is not None:
        text += " " + t("nli.card.own_second", accuracy=_number(card.own_test.accuracy))
    return text


def show_verdict(
    read: Verdicts, index: int, trained: Classifier, who: str, num_layers: int
) -> None:
    """The three probabilities of the pair on view, SNLI's convention, which model gives them
    and whether they are calibrated, a sentence cut to the model's length, the card one click
    away."""
    probabilities = read.probabilities[index]
    best = LABELS[int(probabilities.argmax())]
    left, right = st.columns([3, 1], vertical_alignment="center")
    with left:
        plot(figures.verdict_figure(probabilities, catalogue()), key="nli_verdict")
    with right:
        share = f"{float(probabilities.max()):.0%}"
        st.metric(t("nli.verdict.metric"), t(LABEL_KEYS[best]), share, delta_color="off",
                  delta_arrow="off")  # fmt: skip
        with st.popover(t("nli.card.open"), icon=":material/info:"):
            st.markdown(card_text(trained.card, num_layers))
            st.caption(t("nli.card.minilm"))
    shipped = "nli.verdict.by_real" if trained.card.real is not None else "nli.verdict.by_shipped"
    by = t("nli.verdict.by_session", name=markdown_literal(who)) if who else t(shipped)
    notes = [t("nli.verdict.convention"), by]
    if trained.temperature:
        fitted = "nli.verdict.fitted_select" if trained.card.fitted_on == "select" else (
            "nli.verdict.fitted_dev")  # fmt: skip
        notes.append(t("nli.verdict.calibrated", temperature=f"{trained.temperature:.2f}",
                       on=t(fitted)))  # fmt: skip
    else:
        notes.append(t("nli.verdict.uncalibrated"))
    for tokens, which in ((read.premises[index], "nli.premise"),
                          (read.hypotheses[index], "nli.hypothesis")):  # fmt: skip
        if len(tokens) >= MAX_TOKENS:
            notes.append(t("nli.verdict.cut", which=t(which), limit=MAX_TOKENS))
    st.caption(" ".join(notes))


def show_models() -> None:
    """The shipped model's card beside each model of this session, folded until opened."""
    models = jobs.session_models()
    if not models:
        return
    box = st.expander(t("nli.cards.heading"), key="nli_cards_open", on_change="rerun")
    with box:
        if not box.open:
            return
        st.caption(t("nli.cards.intro"))
        shipped = shipped_card()
        cards = {t("nli.cards.shipped"): shipped} if shipped is not None else {}
        for name, (_, card) in models.items():
            cards[name] = Card.from_json(card)
        columns = {name: card_values(card) for name, card in cards.items()}
        for values in columns.values():
            values["align"] = t(ALIGN_KEYS.get(values["align"], "nli.align.mlp"))
            measured = values["measured"]
            values["measured"] = t(HEADLINE_KEYS[measured]) if measured in HEADLINE_KEYS else "–"
        frame = pd.DataFrame(
            {t("nli.cards.setting"): [t(key) for key in CARD_ROWS.values()]}
            | {name: [values[row] for row in CARD_ROWS] for name, values in columns.items()}
        )
        table(frame, t("nli.cards.heading"), key="nli_cards")


def _scores_text(key: str, scores: Scores) -> str:
    """A set's accuracy, interval, per label, calibration and baseline, as one paragraph."""
    low, high = scores.ci95 or (float("nan"), float("nan"))
    per_label = ", ".join(
        f"{t(LABEL_KEYS[label])} {scores.per_label[label]:.1%}"
        for label in LABELS
        if label in scores.per_label
    )
    return t(
        key, pairs=f"{scores.pairs:,}", accuracy=f"{scores.accuracy:.1%}", low=f"{low:.1%}",
        high=f"{high:.1%}", per_label=per_label or "–",
        ece="–" if scores.ece is None else f"{scores.ece:.3f}",
        baseline="–" if scores.baseline is None else f"{scores.baseline:.1%}",
        gap="–" if scores.gap is None else f"{scores.gap * 100:.1f}",
    )  # fmt: skip


def show_learned(card: Card) -> None:
    """What the model learned, each figure named with its data: the headline set and its
    confusion matrix, attnviz's own test split with the checks, the hard set by phenomenon, and
    attnviz's own test pairs it gets wrong."""
    headline = card.headline
    if headline is None:
        return
    box = st.expander(t("nli.learned_heading"), key="nli_learned_open", on_change="rerun")
    with box:
        if not box.open:  # lazy: drawn when opened
            return
        name, scores = headline
        st.markdown(_scores_text(LEARNED_KEYS[name], scores))
        if card.real is not None and card.real.mnli_select is not None:
            st.markdown(_scores_text("nli.learned.mnli_select", card.real.mnli_select))
        if scores.confusion is not None:
            title = t("nli.learned_confusion", data=t(HEADLINE_KEYS[name]))
            plot(figures.confusion_figure(scores.confusion, title, catalogue()),
                 "nli_learned_confusion")  # fmt: skip
            st.caption(t("nli.confusion.caption"))
        if name == "snli_test" and card.own_test is not None:
            st.markdown(_scores_text("nli.learned.own_second", card.own_test))
        show_checks(card)
        show_hard(card)
        show_mistakes(card)


def show_checks(card: Card) -> None:
    """Alignment hits and the premise swap, when the card has them."""
    if card.alignment is None or card.swap is None:
        return
    untrained = card.alignment.untrained_rate
    st.markdown(
        t(
            "nli.learned_checks",
            rate=f"{card.alignment.rate:.0%}",
            marked=card.alignment.marked,
            untrained="–" if untrained is None else f"{untrained:.0%}",
            own=f"{card.swap[0]:.0%}",
            swapped=f"{card.swap[1]:.0%}",
        )
    )


def show_hard(card: Card) -> None:
    """The hard set's accuracy per phenomenon, each with why decomposable attention fails it."""
    if card.hard is None:
        return
    st.markdown(f"**{t('nli.hard_heading')}**")
    ordinary = card.own_test.accuracy if card.own_test is not None else float("nan")
    st.markdown(t("nli.hard_text", pairs=f"{card.hard.pairs:,}",
                  accuracy=f"{card.hard.accuracy:.0%}", test=f"{ordinary:.0%}"))  # fmt: skip
    why = nli_data.TAG_KEYS
    rows = card.hard.by_tag
    frame = pd.DataFrame(
        {
            t("nli.col.tag"): [tag for tag, _, _ in rows],
            t("nli.col.accuracy"): [f"{accuracy:.0%}" for _, accuracy, _ in rows],
            t("nli.col.pairs"): [pairs for _, _, pairs in rows],
            t("nli.col.why"): [t(why[tag]) if tag in why else "" for tag, _, _ in rows],
        }
    )
    table(frame, t("nli.hard_heading"), key="nli_hard")


def show_mistakes(card: Card) -> None:
    """attnviz's own test pairs the model gets wrong (a card holds no sentence of a real set)."""
    mistakes = pd.DataFrame(card.mistakes)
    if mistakes.empty:
        return
    names = {
        "premise": t("nli.col.premise"),
        "hypothesis": t("nli.col.hypothesis"),
        "label": t("nli.col.gold"),
        "predicted": t("nli.col.verdict"),
        "probabilities": t("nli.col.probabilities"),
    }
    st.markdown(f"**{t('nli.learned_mistakes')}**")
    table(mistakes.rename(columns=names), t("nli.learned_mistakes"), key="nli_mistakes")
