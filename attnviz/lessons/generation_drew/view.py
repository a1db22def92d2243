"""The Generation page's "what each new token drew on": the attribution matrix beside the
chosen head's rows, computed one at a time per server under a progress bar with a Stop button,
resumed from its rows done when a rerun interrupts it.

A part of the `generation` lesson's view: its only module is `view.py`, which
`generation/view.py` composes. It declares no page (no LESSON)."""

from __future__ import annotations

import functools

import numpy as np
import streamlit as st

from attnviz.app import cache, controls
from attnviz.app.feedback import ProgressBar, show_error
from attnviz.app.plot import plot
from attnviz.app.selection import store_panel_click
from attnviz.app.turns import Turns
from attnviz.figures.panels import panel_cells
from attnviz.i18n import catalogue, t
from attnviz.lessons.generation.compute import head_rows, normalise_rows
from attnviz.lessons.generation.figures import drew_on_figure
from attnviz.transformer.attribution import ATTRIBUTION_METHODS, attribution_matrix, rows_done
from attnviz.transformer.encoder import Encoder
from attnviz.transformer.generation import Generation

DREW = controls.bool_control("drew", "generation_drew")  # what each new token drew on, shown
METHOD = controls.choice_control(
    "method", "generation_method", "gradient_x_input", ATTRIBUTION_METHODS
)
NORMALISE = controls.bool_control("normalise", "generation_normalise")
METHODS = {
    "gradient_x_input": "generation.method.gxi",
    "integrated_gradients": "generation.method.ig",
}
DREW_CHART = "generation_drew_chart"
DREW_ROW = "generation_drew_row"  # the row a click on the chart picked: the next run's step
KEPT = cache.Kept()  # attributions, computed under a progress bar, shared by every session
# One attribution at a time per server: integrated gradients hold the cores for minutes, and
# a class switching the view on at once would add up its memory.
TURNS = Turns()
# Attributions under way, filled row by row: a rerun that interrupts one (a slider moved, the
# head changed) resumes it from the rows done instead of starting again.
STARTED = cache.Kept(entries=4)
DREW_STOPPED = "generation_drew_stopped"  # Stop pressed while attributing: the switch went off


def _stop_drew() -> None:
    """Stop while attributing: the view switched off, which keeps the page from starting the
    same attribution again on the rerun the click makes."""
    st.session_state[DREW.key] = False
    st.session_state[DREW_STOPPED] = True


def attribution(model: Encoder, made: Generation, method: str) -> np.ndarray:
    """The kept generation's attribution matrix (the ids as they stand, a Stop included), kept
    per model, ids and method for every session. Computed after the attributions ahead of it,
    under a progress bar with a Stop button (which switches the view off); a run a rerun
    interrupts resumes from its rows done (`STARTED`)."""
    key = (str(model.path), tuple(made.prompt_ids), tuple(made.ids), method)
    stop, slot = st.empty(), st.empty()
    if key not in KEPT:
        stop.button(
            t("generation.stop"), key="generation_drew_stop", icon=":material/stop:",
            on_click=_stop_drew,
        )  # fmt: skip

    def waiting(ahead: int) -> None:
        slot.info(t("generation.drew_waiting", ahead=ahead))

    def compute() -> np.ndarray:
        prompt, new = len(made.prompt_ids), len(made.ids)
        rows = STARTED.get(key, lambda: np.full((new, prompt + new - 1), np.nan))
        before = int(rows_done(rows).sum())  # rows an interrupted run finished
        label = (
            t("generation.drew_resuming", left=new - before, count=new)
            if before
            else t("generation.drew_computing", count=new)
        )
        with slot:
            bar = ProgressBar(label)  # this run's share: its time left at its own pace
        return attribution_matrix(
            model, [*made.prompt_ids, *made.ids], prompt, method=method,
            progress=lambda done, count: bar((done - before) / (count - before)), into=rows,
        )  # fmt: skip

    try:
        return KEPT.in_turn(key, compute, TURNS, waiting)
    finally:
        slot.empty()
        stop.empty()


def show_drew_on(
    model: Encoder, made: Generation, labels: list[str], step: int, selected: tuple[int, int]
) -> None:
    """What each new token drew on beside the chosen head's rows, when switched on; a click on
    a row moves the step slider there (in the next run, before the slider is drawn)."""
    if not controls.toggle(DREW, t("generation.drew"), help=t("generation.drew.help")):
        if st.session_state.pop(DREW_STOPPED, False):
            st.info(t("generation.drew_stopped"))
        return
    st.markdown(t("generation.drew_explain"))
    left, right = st.columns(2)
    method = controls.select(METHOD, t("generation.method"), lambda m: t(METHODS[m]), where=left)
    normalise = controls.toggle(
        NORMALISE, t("generation.normalise"), where=right, help=t("generation.normalise.help")
    )
    try:
        matrix = attribution(model, made, str(method))
    except ValueError as err:
        show_error(err)
        return
    layer, head = selected
    attention = head_rows([s.attention[layer, head].numpy() for s in made.steps], matrix.shape[1])
    name = t(METHODS[str(method)])
    titles = (
        t(
            "generation.drew_title_normalised" if normalise else "generation.drew_title",
            method=name,
        ),
        t("generation.drew_attention_title", layer=layer, head=head),
    )
    shown = normalise_rows(matrix) if normalise else matrix
    figure = drew_on_figure(
        shown, attention, labels[len(made.prompt_ids) :], labels[: matrix.shape[1]], step, titles,
        normalise, catalogue(),
    )  # fmt: skip
    on_click = functools.partial(
        store_panel_click, DREW_CHART, panel_cells(figure), [(DREW_ROW, None)] * 2
    )
    plot(figure, key=DREW_CHART, on_select=on_click)
    st.caption(t("generation.drew_note", step=step))
