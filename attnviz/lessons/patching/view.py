"""The activation patching lesson below its title: an example, the clean and corrupted prompts
with their tokens aligned, the answer and the wrong answer, Run (a progress bar with the time
left and Stop), then the two logit differences, the heads grid (a click opens that head on the
Model attention page), the top heads, a layers x positions grid and every grid as CSV."""

from __future__ import annotations

import functools
import time

import pandas as pd
import streamlit as st

from attnviz.app import controls, links
from attnviz.app.cache import Kept
from attnviz.app.feedback import markdown_literal, progress_text, show_error
from attnviz.app.model import MODEL, decoder_page
from attnviz.app.plot import csv_downloads, plot, table
from attnviz.app.selection import selected_cell, store_click
from attnviz.app.turns import Turns
from attnviz.i18n import catalogue, t
from attnviz.lessons.patching.compute import (
    EXAMPLES,
    GRIDS,
    SITES,
    Example,
    Patched,
    bound,
    differing,
    patch_all,
    top_heads,
)
from attnviz.lessons.patching.figures import heads_figure, site_figure, tokens_figure
from attnviz.transformer.encoder import Encoder
from attnviz.transformer.tokens import readable

MODEL_PAGE = "pages/8_Model_attention.py"
EXAMPLE_NAMES = {"ioi": "patching.example.ioi", "paris": "patching.example.paris"}
LOOK = {"ioi": "patching.look.ioi", "paris": "patching.look.paris"}
SITE_NAMES = {
    "residual": "patching.site.residual",
    "attention": "patching.site.attention",
    "mlp": "patching.site.mlp",
}
SITE_TITLES = {
    "residual": "patching.title.residual",
    "attention": "patching.title.attention",
    "mlp": "patching.title.mlp",
}
GRID_NAMES = {"head": "patching.csv.heads", **SITE_NAMES}
MAX_PROMPT_CHARS = 1_000
_IOI = EXAMPLES["ioi"]

EXAMPLE = controls.choice_control("example", "patching_example", "ioi", tuple(EXAMPLES))
CLEAN = controls.text_control("clean", "patching_clean", _IOI.clean)
CORRUPTED = controls.text_control("corrupted", "patching_corrupted", _IOI.corrupted)
ANSWER = controls.text_control("answer", "patching_answer", _IOI.answer, max_chars=100)
WRONG = controls.text_control("wrong", "patching_wrong", _IOI.wrong, max_chars=100)
SITE = controls.choice_control("site", "patching_site", "residual", SITES)
TOP = controls.int_control("top", "patching_top", 10, 1, 50)
LINK: tuple[controls.Control, ...] = (MODEL, EXAMPLE, CLEAN, CORRUPTED, ANSWER, WRONG, SITE, TOP)
HEADS_GRID = "patching_heads"
SITE_GRID = "patching_site_grid"
CLICKED = ("patching_clicked_layer", "patching_clicked_head")  # a head clicked, to open
RESULT = "patching_result"  # (model path, Example) of this session's last finished run
PARTIAL = "patching_partial"  # ((model path, Example), Patched) of a run Stop cut short
GO = "patching_go"
REQUEST = "patching_request"  # Run pressed, not yet started
HALTED = "patching_halted"  # Stop pressed: the running patching keeps nothing


class Stopped(Exception):
    """Stop was pressed: the run ends; this session keeps the grids it finished."""


@st.cache_resource(show_spinner=False)
def _patching() -> tuple[Turns, Kept]:
    """The server's one patching queue (the hooks sit on the shared model) and the runs it
    keeps per (model, prompts, answers), for every session."""
    return Turns(), Kept(entries=16)


def _request() -> None:
    st.session_state[REQUEST] = True
    st.session_state[HALTED] = False


def _stop() -> None:
    st.session_state[HALTED] = True


def _use_example() -> None:
    example = EXAMPLES[st.session_state[EXAMPLE.key]]
    for control, value in zip(
        (CLEAN, CORRUPTED, ANSWER, WRONG),
        (example.clean, example.corrupted, example.answer, example.wrong),
        strict=True,
    ):
        st.session_state[control.key] = value


def inputs() -> Example:
    """The example picker, both prompts side by side, the answer and the wrong answer; what to
    look for while they are the picked example's (not once a person has changed them)."""
    name = controls.select(
        EXAMPLE, t("patching.example"), lambda e: t(EXAMPLE_NAMES[e]), on_change=_use_example
    )
    look = st.empty()
    left, right = st.columns(2)
    clean = controls.text_input(CLEAN, t("patching.clean"), where=left, max_chars=MAX_PROMPT_CHARS)
    corrupted = controls.text_input(
        CORRUPTED, t("patching.corrupted"), where=right, max_chars=MAX_PROMPT_CHARS
    )
    answer = controls.text_input(ANSWER, t("patching.answer"), where=left, max_chars=100)
    wrong = controls.text_input(WRONG, t("patching.wrong"), where=right, max_chars=100)
    typed = Example(clean, corrupted, answer, wrong)
    if typed == EXAMPLES[str(name)]:
        look.caption(t(LOOK[str(name)]))
    return typed


def tokens_of(model: Encoder, text: str) -> tuple[list[int], list[str]]:
    """`text`'s token ids as the patching reads them, and each token as a reader reads it."""
    with model.tokenizer_lock:
        ids = list(model.tokenizer(text)["input_ids"])
    return ids, readable(model.tokenizer.convert_ids_to_tokens(ids), model.token_style)


def show_tokens(model: Encoder, example: Example) -> None:
    """Both prompts' tokens position by position, the differing ones boxed, and what differs."""
    (clean_ids, clean), (corrupted_ids, corrupted) = (
        tokens_of(model, example.clean), tokens_of(model, example.corrupted)
    )  # fmt: skip
    differ = differing(clean_ids, corrupted_ids)
    if clean and corrupted:
        plot(tokens_figure(clean, corrupted, differ, catalogue()), key="patching_tokens")
    if len(clean) != len(corrupted):
        st.caption(t("patching.other_count", clean=len(clean), corrupted=len(corrupted)))
    elif not differ:
        st.caption(t("patching.no_difference", count=len(clean)))
    else:
        positions = ", ".join(str(p) for p in differ)
        st.caption(t("patching.same_count", count=len(clean), positions=positions))


def run(model: Encoder, example: Example) -> bool:
    """Every grid of `example`, after the runs ahead of it, under a progress bar with the time
    left and a Stop button; kept for every session, and as this session's result (a run Stop
    cuts short: the grids it finished, for this session). False when the input was refused
    (the message shown)."""
    turns, kept = _patching()
    stop = st.empty()
    stop.button(t("patching.stop"), key="patching_stop", icon=":material/stop:", on_click=_stop)
    slot = st.empty()
    started = time.monotonic()

    def waiting(ahead: int) -> None:
        slot.info(t("patching.waiting", ahead=ahead))

    def progress(kind: str, share: float) -> None:
        label = t("patching.running", what=t(GRID_NAMES[kind]))
        slot.progress(share, text=progress_text(label, share, time.monotonic() - started))

    def stopped() -> bool:
        return bool(st.session_state.get(HALTED))

    key = (str(model.path), example)
    st.session_state.pop(PARTIAL, None)

    def finished(so_far: Patched) -> None:
        if not so_far.complete:
            st.session_state[PARTIAL] = (key, so_far)

    def compute() -> Patched:
        found = patch_all(model, example, progress=progress, stop=stopped, finished=finished)
        if found is None:
            raise Stopped
        return found

    try:
        kept.in_turn(key, compute, turns, waiting)
    except Stopped:
        return True
    except ValueError as err:
        show_error(err)
        return False
    finally:
        slot.empty()
        stop.empty()
    st.session_state.pop(PARTIAL, None)
    st.session_state[RESULT] = key
    return True


def _open_head(model_name: str, clean: str) -> None:
    """A clicked head: the Model attention page on it, reading the clean prompt."""
    layer, head = (st.session_state.pop(k, None) for k in CLICKED)
    if layer is not None and head is not None:
        values = {MODEL.name: model_name, "a": clean, "b": "", "layer": str(layer)}
        links.open_page(MODEL_PAGE, {**values, "head": str(head)})


def show_result(model: Encoder, example: Example, patched: Patched) -> None:
    """The logit differences, the heads grid and table, a layers x positions grid, the CSVs."""
    text = catalogue()
    st.markdown(
        t(
            "patching.lds", answer=markdown_literal(repr(example.answer)),
            wrong=markdown_literal(repr(example.wrong)), clean=f"{patched.ld_clean:+.2f}",
            corrupted=f"{patched.ld_corrupted:+.2f}",
        )
    )  # fmt: skip
    scale = bound(patched.heads, *patched.sites.values())
    left, right = st.columns([3, 2])
    with left:
        on_click = functools.partial(store_click, HEADS_GRID, CLICKED, selected_cell)
        plot(heads_figure(patched.heads, scale, None, text), key=HEADS_GRID, on_select=on_click)
        st.caption(t("patching.heads_click"))
    _open_head(str(st.session_state.get(MODEL.key, "")), example.clean)
    with right:
        count = int(controls.number(TOP, t("patching.top")))
        rows = [
            {t("patching.col.rank"): rank, t("patching.col.head"): f"{layer}.{head}",
             t("patching.share"): share}
            for rank, (layer, head, share) in enumerate(top_heads(patched.heads, count), 1)
        ]  # fmt: skip
        table(pd.DataFrame(rows), t("patching.table"), key="patching_top_table")
    site = str(
        controls.select(SITE, t("patching.site"), lambda s: t(SITE_NAMES[s]), widget="segmented")
    )
    _, tokens = tokens_of(model, example.clean)
    grid = patched.sites.get(site)
    if grid is None:
        st.info(t("patching.not_finished", what=t(SITE_NAMES[site])))
    else:
        plot(site_figure(grid, tokens, t(SITE_TITLES[site]), scale, text), key=SITE_GRID)
    st.caption(t("patching.csv"))
    layers = [str(layer) for layer in range(patched.heads.shape[0])]
    heads = [str(head) for head in range(patched.heads.shape[1])]
    csv_downloads(
        [(t("patching.csv.heads"), patched.heads, layers, heads, "patching_heads")]
        + [(t(SITE_NAMES[s]), patched.sites[s], layers, tokens, f"patching_{s}")
           for s in SITES if s in patched.sites]
    )  # fmt: skip


def _shown() -> tuple[tuple[str, Example], Patched] | None:
    """This session's run to show: the one Stop cut short, else its last finished run (None
    when there is none, or the server's store has let it go)."""
    partial: tuple[tuple[str, Example], Patched] | None = st.session_state.get(PARTIAL)
    if partial is not None:
        return partial
    key: tuple[str, Example] | None = st.session_state.get(RESULT)
    patched: Patched | None = _patching()[1].find(key) if key else None
    return (key, patched) if key and patched is not None else None


def show() -> None:
    model = decoder_page(LINK, "patching", "patching.needs_decoder")
    if model is None:
        return
    example = inputs()
    show_tokens(model, example)
    st.button(
        t("patching.run"), type="primary", icon=":material/play_arrow:", on_click=_request, key=GO
    )
    # Taken at once: a run that Stop interrupts does not leave a press behind to start again.
    refused = st.session_state.pop(REQUEST, False) and not run(model, example)
    shown = _shown()
    if shown is not None and shown[0][0] == str(model.path):
        (_, shown_example), patched = shown
        if shown_example != example:
            st.caption(t("patching.older"))
        if not patched.complete:
            st.info(t("patching.partial", done=1 + len(patched.sites), count=len(GRIDS)))
        show_result(model, shown_example, patched)
    elif st.session_state.get(HALTED):
        st.info(t("patching.stopped"))
    elif not refused:
        st.info(t("patching.press"))
    links.share_panel(LINK, key="patching")
