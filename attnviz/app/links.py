"""Shareable links: each page's small state in the URL, and a JSON state file for the rest.

A page declares its settings as `Param`s (URL name, session-state key, default, allowed
values). `restore_link` reads them from `st.query_params` once per session and page, before the
widgets are drawn; a value the page cannot use keeps its default and the page says which ones.
`publish_link` writes the current non-default values back after the widgets, so the address
bar always holds a link that opens the same view. Streamlit drops query parameters when the
page changes; the language is kept in the session (`ui.page_setup`) and written back here.
"""

from __future__ import annotations

import functools
import html
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import streamlit as st

from attnviz.i18n import DEFAULT_LANGUAGE, get_language, t

RESTORED = "links_restored"  # the pages whose link was read in this session
SETTING_KEYS = "links_setting_keys"  # session-state keys of every setting seen this session
LANG_PARAM = "lang"
URL_TEXT_LIMIT = 600  # characters of typed text a link carries; longer text needs a state file
STATE_FILE_LIMIT = 2_000_000  # bytes of a state file
_CONTROL = {chr(c) for c in range(32)} - {"\n", "\t", "\r"}
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")

Kind = Literal["int", "float", "bool", "choice", "text", "cells"]


@dataclass(frozen=True)
class Param:
    """One setting of a page: its name in the URL, its session-state key and allowed values."""

    name: str
    key: str
    default: Any
    kind: Kind
    lo: float = -math.inf
    hi: float = math.inf
    choices: Mapping[str, Any] = field(default_factory=dict)  # URL text -> value
    max_chars: int = URL_TEXT_LIMIT

    def parse(self, raw: str) -> Any:
        """The value of `raw` from a URL or state file; ValueError if the page cannot use it."""
        raw = str(raw).strip() if self.kind != "text" else str(raw)
        if self.kind == "int":
            if len(raw) > 20:
                raise ValueError(raw)
            value: Any = int(raw)
        elif self.kind == "float":
            if len(raw) > 40:
                raise ValueError(raw)
            value = float(raw)
            if not math.isfinite(value):
                raise ValueError(raw)
        elif self.kind == "bool":
            if raw.lower() not in _TRUE + _FALSE:
                raise ValueError(raw)
            return raw.lower() in _TRUE
        elif self.kind == "choice":
            if raw not in self.choices:
                raise ValueError(raw)
            return self.choices[raw]
        elif self.kind == "cells":
            return _parse_cells(raw, int(self.hi))
        else:
            if _CONTROL & set(raw):
                raise ValueError("control characters")
            return raw
        if not self.lo <= value <= self.hi:
            raise ValueError(raw)
        return value

    def format(self, value: Any) -> str:
        """`value` as URL text (the inverse of `parse`)."""
        if self.kind == "bool":
            return "1" if value else "0"
        if self.kind == "cells":
            return ",".join(f"{i}.{j}" for i, j in sorted(value))
        if self.kind == "choice":
            for text, option in self.choices.items():
                if option == value:
                    return text
            raise ValueError(f"{value!r} is not a choice of {self.name}")
        return str(value)


def _parse_cells(raw: str, limit: int) -> frozenset[tuple[int, int]]:
    """ "0.1,2.3" -> {(0, 1), (2, 3)}: hand-picked (query, key) cells."""
    if not raw:
        return frozenset()
    parts = raw.split(",")
    if len(parts) > limit:
        raise ValueError("too many cells")
    cells = set()
    for part in parts:
        row, _, col = part.partition(".")
        if not (row.isdigit() and col.isdigit() and len(row) < 6 and len(col) < 6):
            raise ValueError(part)
        cells.add((int(row), int(col)))
    return frozenset(cells)


def cells_param(name: str, key: str, limit: int = 256) -> Param:
    """Hand-picked mask cells (a frozenset of (query, key) pairs), at most `limit` of them."""
    return Param(name, key, frozenset(), "cells", hi=limit)


def int_param(name: str, key: str, default: int, lo: int, hi: int) -> Param:
    return Param(name, key, default, "int", lo=lo, hi=hi)


def float_param(name: str, key: str, default: float, lo: float, hi: float) -> Param:
    return Param(name, key, default, "float", lo=lo, hi=hi)


def bool_param(name: str, key: str, default: bool = False) -> Param:
    return Param(name, key, default, "bool")


def choice_param(
    name: str, key: str, default: Any, choices: Sequence[str] | Mapping[str, Any]
) -> Param:
    options = dict(choices) if isinstance(choices, Mapping) else {c: c for c in choices}
    return Param(name, key, default, "choice", choices=options)


def text_param(name: str, key: str, default: str = "", max_chars: int = URL_TEXT_LIMIT) -> Param:
    return Param(name, key, default, "text", max_chars=max_chars)


def apply_values(params: Sequence[Param], raw: Mapping[str, Any]) -> list[str]:
    """Set the session state from `raw` (name -> text); the names whose values were refused."""
    bad = []
    for param in params:
        if param.name not in raw:
            continue
        try:
            st.session_state[param.key] = param.parse(raw[param.name])
        except (ValueError, TypeError):
            bad.append(param.name)
    return bad


def restore_link(params: Sequence[Param], page: str) -> None:
    """Read the page's settings from the URL, once per session and page (before the widgets)."""
    keys = frozenset(st.session_state.get(SETTING_KEYS, ()))
    st.session_state[SETTING_KEYS] = keys | {param.key for param in params}
    restored = set(st.session_state.get(RESTORED, ()))
    if page in restored:
        return
    st.session_state[RESTORED] = frozenset(restored | {page})
    query = st.query_params.to_dict()
    bad = apply_values(params, query)
    known = {param.name for param in params} | {LANG_PARAM}
    unknown = [name for name in query if name not in known]
    if bad:
        # Only our own names are shown, never the values: they may be anything.
        names = ", ".join(f"`{html.escape(name)}`" for name in bad)
        st.warning(t("links.bad_values", names=names), icon=":material/link_off:")
    if unknown:
        st.caption(t("links.unknown", count=len(unknown)))


def current_values(
    params: Sequence[Param], state: Mapping[Any, Any], *, limit: int | None = URL_TEXT_LIMIT
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


def publish_link(params: Sequence[Param]) -> None:
    """Write the current settings into the URL, so the address bar opens the same view."""
    values = current_values(params, st.session_state)
    lang = get_language()
    if lang != DEFAULT_LANGUAGE:
        values = {LANG_PARAM: lang, **values}
    long_texts = [
        p
        for p in params
        if p.kind == "text"
        and p.name not in values
        and len(str(st.session_state.get(p.key) or "")) > p.max_chars
    ]
    if long_texts:
        chars = max(len(str(st.session_state.get(p.key) or "")) for p in long_texts)
        st.caption(t("links.too_long", chars=chars, limit=long_texts[0].max_chars))
    if st.query_params.to_dict() != values:
        st.query_params.from_dict(values)


def state_json(params: Sequence[Param], state: Mapping[Any, Any]) -> bytes:
    """Every setting of the page (texts of any length) as a JSON state file."""
    values = current_values(params, state, limit=None)
    return json.dumps({"attnviz": 1, **values}, ensure_ascii=False, indent=1).encode("utf-8")


def _load_state(params: Sequence[Param], uploader_key: str, note_key: str) -> None:
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
        st.session_state[note_key] = ("error", t("links.load_error", name=upload.name, detail=err))
        return
    if bad:
        detail = t("links.load_bad", names=", ".join(bad))
        st.session_state[note_key] = (
            "error",
            t("links.load_error", name=upload.name, detail=detail),
        )
    else:
        st.session_state[note_key] = ("ok", t("links.loaded", name=upload.name))


def share_panel(params: Sequence[Param], key: str) -> None:
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
        note = st.session_state.get(note_key)
        if note:
            from attnviz.ui.base import markdown_literal  # base imports this module

            status, message = note
            # The note names the uploaded file: its name shows as it is, not as markdown.
            (right.error if status == "error" else right.success)(markdown_literal(message))
