"""Shareable links: each page's small state in the URL, and a JSON state file for the rest.

A page declares its settings as `attnviz.app.controls.Control`s (URL name, session-state key,
default, allowed values), the same declarations its widgets read. `restore_link` reads them
from `st.query_params` once per session and page, before the widgets are drawn; a value the
page cannot use keeps its default and the page says which ones. `publish_link` writes the
current non-default values back after the widgets, so the address bar always holds a link that
opens the same view. Streamlit drops query parameters when the page changes; the language and
presenter mode are kept in the session (`attnviz.app.page.setup`) and written back here.
"""

from __future__ import annotations

import functools
import html
import json
import secrets
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

import streamlit as st

from attnviz.app.controls import URL_TEXT_LIMIT, Control, bool_control
from attnviz.app.feedback import Note, show_note
from attnviz.app.state import init_state
from attnviz.i18n import DEFAULT_LANGUAGE, get_language, t

RESTORED = "links_restored"  # the pages whose link was read in this session
SETTING_KEYS = "links_setting_keys"  # session-state keys of every setting seen this session
LANG_PARAM = "lang"
# Presenter mode, a setting of every page: `attnviz.app.page` reads it from a link and draws its
# switch in the sidebar; every page's link carries it.
PRESENT = bool_control("present", "present")
STATE_FILE_LIMIT = 2_000_000  # bytes of a state file
VIA = "via"  # a one-shot mark on a link `open_page` made: the page reads it even if seen before
OPENED = "links_opened"  # the marks read in this session
# Texts as a link or a state file set them (state key -> text): until a person changes one, it
# is not typed text, and a link too short for it is not worth a note (a head's matrices that the
# model page's link brought to the Playground).
ARRIVED = "links_arrived"


def apply_values(params: Sequence[Control], raw: Mapping[str, Any]) -> list[str]:
    """Set the session state from `raw` (name -> text, a setting's old name too); the names
    whose values were refused."""
    bad = []
    arrived = dict(st.session_state.get(ARRIVED, {}))
    for param in params:
        name, convert = param.name, None
        if name not in raw and param.old_name is not None and param.old_name[0] in raw:
            name, convert = param.old_name
        if name not in raw:
            continue
        try:
            text = raw[name] if convert is None else convert(str(raw[name]))
            st.session_state[param.key] = param.parse(text)
        except (ValueError, TypeError):
            bad.append(name)
            continue
        if param.kind == "text":
            arrived[param.key] = st.session_state[param.key]
    st.session_state[ARRIVED] = arrived
    return bad


def open_page(script: str, values: Mapping[str, str]) -> NoReturn:
    """Open the page `script` with `values` (its own link names -> text) as its link: it reads
    them as a link from outside opens it (every other setting at its default), even if it was
    read before in this session. How one page hands another its state, never its keys."""
    st.switch_page(script, query_params={**values, VIA: secrets.token_hex(4)})


def restore_link(params: Sequence[Control], page: str) -> None:
    """Read the page's settings from the URL, once per session and page (before the widgets),
    and again when another page opened it with `open_page`; a setting the URL does not set,
    and no earlier run did, starts at its default."""
    keys = frozenset(st.session_state.get(SETTING_KEYS, ()))
    st.session_state[SETTING_KEYS] = keys | {param.key for param in params}
    restored = set(st.session_state.get(RESTORED, ()))
    query = st.query_params.to_dict()
    seen = frozenset(st.session_state.get(OPENED, ()))
    via = query.get(VIA)
    opened = via is not None and via not in seen
    if page in restored and not opened:
        return
    if opened:  # read once: later runs of the page keep what its widgets then hold
        st.session_state[OPENED] = seen | {via}
        for param in params:
            st.session_state[param.key] = param.default
    for param in params:
        init_state(param.key, param.default)
    st.session_state[RESTORED] = frozenset(restored | {page})
    bad = apply_values(params, query)
    known = {param.name for param in params} | {LANG_PARAM, PRESENT.name, VIA}
    known |= {param.old_name[0] for param in params if param.old_name is not None}
    unknown = [name for name in query if name not in known]
    if bad:
        # Only our own names are shown, never the values: they may be anything.
        names = ", ".join(f"`{html.escape(name)}`" for name in bad)
        st.warning(t("links.bad_values", names=names), icon=":material/link_off:")
    if unknown:
        st.caption(t("links.unknown", count=len(unknown)))
    for name, given, used in moved_values(params, query, bad):
        st.info(t("links.moved", name=name, given=given, used=used), icon=":material/link:")


def moved_values(
    params: Sequence[Control], raw: Mapping[str, Any], bad: Sequence[str] = ()
) -> list[tuple[str, int, int]]:
    """(name, the link's number, the step used) of each ladder setting that `raw` put between
    two steps: a link made before the control had steps (?d=100 on a powers-of-two ladder)."""
    moved = []
    for param in params:
        if param.kind != "ladder" or param.name not in raw or param.name in bad:
            continue
        given = int(str(raw[param.name]).strip())
        if given != param.nearest(given):
            moved.append((param.name, given, param.nearest(given)))
    return moved


def current_values(
    params: Sequence[Control], state: Mapping[Any, Any], *, limit: int | None = URL_TEXT_LIMIT
) -> dict[str, str]:
    """The settings that differ from their defaults, as text; texts longer than `limit` left out."""
    values: dict[str, str] = {}
    for param in params:
        if param.key not in state:
            continue
        value = state[param.key]
        if value is None or value == param.default:
            continue
        try:
            text = param.format(value)
        except ValueError:
            continue
        if limit is not None and param.kind == "text" and len(text) > min(limit, param.max_chars):
            continue
        values[param.name] = text
    return values


def typed_left_out(
    params: Sequence[Control], state: Mapping[Any, Any], values: Mapping[str, str]
) -> tuple[int, int] | None:
    """(characters, the link's limit for it) of the longest typed text that `values`, the
    link, leaves out; None when there is none. Texts that never go in a link (`max_chars` 0:
    the model page's edit, its long input) and texts as a link or a state file brought them
    are not typed."""
    arrived = state.get(ARRIVED, {})
    longest: tuple[int, int] | None = None
    for param in params:
        text = state.get(param.key)
        if param.kind != "text" or param.max_chars == 0 or param.name in values or not text:
            continue
        limit = min(URL_TEXT_LIMIT, param.max_chars)
        typed = text != param.default and text != arrived.get(param.key)
        if typed and len(text) > limit and (longest is None or len(text) > longest[0]):
            longest = (len(text), limit)
    return longest


def publish_link(params: Sequence[Control]) -> None:
    """Write the current settings into the URL, so the address bar opens the same view."""
    values = current_values((PRESENT, *params), st.session_state)
    lang = get_language()
    if lang != DEFAULT_LANGUAGE:
        values = {LANG_PARAM: lang, **values}
    left_out = typed_left_out(params, st.session_state, values)
    if left_out is not None:
        st.caption(t("links.too_long", chars=left_out[0], limit=left_out[1]))
    if st.query_params.to_dict() != values:
        st.query_params.from_dict(values)


def state_json(params: Sequence[Control], state: Mapping[Any, Any]) -> bytes:
    """Every setting of the page (texts of any length) as a JSON state file."""
    values = current_values(params, state, limit=None)
    return json.dumps({"attnviz": 1, **values}, ensure_ascii=False, indent=1).encode("utf-8")


def _load_state(params: Sequence[Control], uploader_key: str, note_key: str) -> None:
    upload = st.session_state.get(uploader_key)
    if upload is None:
        st.session_state.pop(note_key, None)
        return
    data = upload.getvalue()
    try:
        if len(data) > STATE_FILE_LIMIT:
            raise ValueError(t("links.load_too_big", size=len(data), limit=STATE_FILE_LIMIT))
        try:
            raw = json.loads(data.decode("utf-8-sig"))
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            raise ValueError(t("links.load_not_json", detail=err)) from None
        if not isinstance(raw, dict):
            raise ValueError(t("links.load_not_object"))
        # Settings are text, as in a URL; numbers written by hand are accepted too.
        texts = {k: v if isinstance(v, str) else json.dumps(v) for k, v in raw.items()}
        bad = apply_values(params, texts)
    except ValueError as err:
        note: Note = ("error", t("links.load_error", name=upload.name, detail=err))
        st.session_state[note_key] = note
        return
    if bad:
        detail = t("links.load_bad", names=", ".join(bad))
        st.session_state[note_key] = (
            "error",
            t("links.load_error", name=upload.name, detail=detail),
        )
    else:
        st.session_state[note_key] = ("ok", t("links.loaded", name=upload.name))


def share_panel(params: Sequence[Control], key: str) -> None:
    """Save and load the page's settings as a JSON state file (for what a link cannot carry)."""
    with st.expander(t("links.heading")):
        st.caption(t("links.help"))
        left, right = st.columns(2)
        left.download_button(
            t("links.save"),
            functools.partial(state_json, params, st.session_state.to_dict()),
            file_name=f"attnviz-{key}-state.json",
            mime="application/json",
            key=f"{key}_state_save",
            on_click="ignore",
        )
        uploader_key = f"{key}_state_load"
        note_key = f"{key}_state_note"
        right.file_uploader(
            t("links.load"),
            type=["json"],
            key=uploader_key,
            on_change=_load_state,
            args=(params, uploader_key, note_key),
        )
        show_note(st.session_state.get(note_key), right)
