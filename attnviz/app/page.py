"""Every page's first call: the language, presenter mode, the page config, the sidebar and the
title.

A page script is three steps: `page.setup(<lesson>)` (this module), its lesson's view imported
under `attnviz.app.loading.lock()`, then `view.show()`. This module and what it imports are
light (no torch, pandas or plotly), so the title and intro are on screen before the heavy
imports start.
"""

from __future__ import annotations

import gc
import os
import sys

import streamlit as st

from attnviz.app import controls
from attnviz.app.feedback import markdown_literal
from attnviz.app.links import PRESENT, SETTING_KEYS, apply_values
from attnviz.app.state import init_state
from attnviz.i18n import DEFAULT_LANGUAGE, LANGUAGES, set_language, t
from attnviz.lessons import Lesson, lessons
from attnviz.paths import APP_ROOT

# The tab's icon: the browser draws an emoji into a data: URL itself, whereas a ":material/...:"
# icon is fetched from fonts.gstatic.com on every page (nothing offline). An image file would
# stay local too, but Streamlit then imports numpy and PIL before the title, outside the lock.
ICON = "👀"
LESSONS: tuple[Lesson, ...] = lessons()
_BY_NAME = {lesson.name: lesson for lesson in LESSONS}

# Session-state keys of the language switch.
LANG = "lang"
# Set on a session's first run, when the link it was opened with is read: later the address
# holds what `links.publish_link` wrote, which the sidebar's switches may have changed since.
LINK_READ = "link_read"
# Each language named in itself, as language menus do.
LANGUAGE_NAMES = {"en": "English", "ko": "한국어"}
# Presenter mode's text, for a projector: everything Streamlit draws is sized in rem, so a larger
# root font scales it all. Charts are sized in pixels: `attnviz.app.plot` draws them larger
# (PRESENT_CHART_SCALE, `attnviz.figures.scale`); CSS zoom would scale them too, but Chromium
# then places Plotly's hover and clicks off by the zoom factor.
PRESENT_SCALE = 1.375
PRESENT_CSS = f"<style>html {{ font-size: {PRESENT_SCALE * 100:g}%; }}</style>"


@st.cache_resource(max_entries=64, show_spinner=False)
def _freeze_imports(module_count: int) -> None:
    """Once per new count of loaded modules: everything alive now (torch, transformers, plotly,
    the model) leaves the garbage collector's view (`gc.freeze`).

    A full collection otherwise walks that whole heap, 0.23 s with the model loaded, holding
    the GIL while every other session waits (config.toml turns off Streamlit's collection after
    each run for the same reason). What a page imports in a run is frozen on the next run.
    """
    gc.freeze()


def setup(name: str) -> Lesson:
    """Language, presenter mode, page config, the translated sidebar, then the lesson's title
    and intro.

    A link's `?lang=` is read on the session's first run; after that the sidebar's switch
    decides, and `attnviz.app.links.publish_link` writes the language back into the URL on every
    page.
    """
    lesson = _BY_NAME[name]
    opened = not st.session_state.get(LINK_READ)
    st.session_state[LINK_READ] = True
    requested = st.query_params.get("lang") if opened else None
    unknown = False
    if requested:
        unknown = requested not in LANGUAGES
        st.session_state[LANG] = DEFAULT_LANGUAGE if unknown else requested
    lang = set_language(st.session_state.get(LANG, DEFAULT_LANGUAGE))
    _freeze_imports(len(sys.modules))
    presenting = _presenting(opened)
    st.set_page_config(
        page_title=f"{t(lesson.nav)} · {t('app.name')}",
        page_icon=ICON,
        layout="wide",
        initial_sidebar_state="collapsed" if presenting else "auto",
    )
    if presenting:
        st.html(PRESENT_CSS)  # style alone: Streamlit puts it where it takes no room
    if unknown:
        st.toast(markdown_literal(t("lang.notice_unknown", lang=str(requested)[:20])))
    st.session_state[LANG] = lang
    _sidebar()
    failover_notice()
    st.title(t(lesson.title))
    st.markdown(t(lesson.intro))
    return lesson


def _presenting(opened: bool) -> bool:
    """Presenter mode: a link's `?present=` is read on the session's first run (`opened`, on
    whichever page it opens); after that the sidebar's switch decides, and
    `links.publish_link` writes it back into the URL on every page."""
    raw = st.query_params.get(PRESENT.name) if opened else None
    if raw is not None and apply_values((PRESENT,), {PRESENT.name: raw}):
        st.toast(t("links.bad_values", names=f"`{PRESENT.name}`"))
    init_state(PRESENT.key, PRESENT.default)
    presenting = bool(st.session_state[PRESENT.key])
    # Set again before the switch is drawn: on another page the switch is another widget, which
    # would start from its default.
    st.session_state[PRESENT.key] = presenting
    return presenting


FAILOVER_SHOWN = "failover_shown"


def failover_notice() -> None:
    """Behind `make serve REPLICAS=N`: when the browser reconnected here with a session this
    replica never had (its replica stopped and HAProxy sent the browser on), say once what
    came back from the link and what was lost."""
    if not os.environ.get("ATTNVIZ_REPLICA") or st.session_state.get(FAILOVER_SHOWN):
        return
    st.session_state[FAILOVER_SHOWN] = True
    # Streamlit's client names the session it reconnects to as the third entry of the
    # websocket's subprotocol header; a first visit names none.
    entries = [
        e.strip() for e in (st.context.headers.get("Sec-Websocket-Protocol") or "").split(",")
    ]
    earlier = entries[2] if len(entries) >= 3 else ""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if earlier and ctx is not None and earlier != ctx.session_id:
        st.warning(t("app.failover"), icon=":material/sync_problem:")


def _sidebar() -> None:
    with st.sidebar:
        st.markdown(f"### {t('app.name')}")
        # The same label in every language, so switching keeps one widget.
        st.segmented_control(
            t("lang.label"),
            LANGUAGES,
            key=LANG,
            format_func=LANGUAGE_NAMES.__getitem__,
            required=True,
            label_visibility="collapsed",
            on_change=_language_changed,
        )
        controls.toggle(PRESENT, t("present.label"), help=t("present.help"))
        for lesson in LESSONS:
            if (APP_ROOT / lesson.script).exists():
                st.page_link(lesson.script, label=t(lesson.nav), icon=lesson.icon)
        st.divider()


def _language_changed() -> None:
    """Set the pages' settings again: a selectbox keeps showing its option in the old language
    otherwise (Streamlit redraws a chosen option only when its value is set)."""
    for key in st.session_state.get(SETTING_KEYS, ()):
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]


def show_tour() -> None:
    """A link and one line for every page but the landing page."""
    for lesson in LESSONS:
        if lesson.tour and (APP_ROOT / lesson.script).exists():
            st.page_link(lesson.script, label=t(lesson.nav), icon=lesson.icon)
            st.caption(t(lesson.tour))
