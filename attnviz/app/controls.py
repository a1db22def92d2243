"""One declaration per control: its name in a link, its session-state key, its default and its
bounds, read both by the widget that shows it and by the shareable link that carries it.

A lesson declares its settings as `Control`s at the top of its view (`int_control("seed",
SEED, 0, 0, MAX_SEED)`), draws each with the widget function of its kind (`number(control,
label)`), and hands the same tuple to `attnviz.app.links`. A widget takes its value from the
session state (`init_state` with the control's default), never a default of its own: a link
or a state file may have set it before the widget is drawn.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import streamlit as st

from attnviz.app.state import init_state

MAX_SEED = 2**31 - 1  # the largest seed a widget or a link takes
URL_TEXT_LIMIT = 600  # characters of typed text a link carries; longer text needs a state file
_CONTROL_CHARS = {chr(c) for c in range(32)} - {"\n", "\t", "\r"}
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")

Kind = Literal["int", "float", "bool", "choice", "ladder", "text", "cells"]


@dataclass(frozen=True)
class Control:
    """One setting of a page: its name in the URL, its session-state key, default and bounds."""

    name: str
    key: str
    default: Any
    kind: Kind
    lo: float = -math.inf
    hi: float = math.inf
    step: float | None = None
    choices: Mapping[str, Any] = field(default_factory=dict)  # URL text -> value (or step)
    max_chars: int = URL_TEXT_LIMIT
    # An earlier URL name of the setting, and how its text becomes this name's (`renamed`).
    old_name: tuple[str, Callable[[str], str]] | None = None

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
        elif self.kind == "ladder":
            if len(raw) > 20 or not self.lo <= int(raw) <= self.hi:
                raise ValueError(raw)
            return self.nearest(int(raw))
        elif self.kind == "cells":
            return _parse_cells(raw, int(self.hi))
        else:
            if _CONTROL_CHARS & set(raw):
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

    @property
    def options(self) -> list[Any]:
        """The values a choice or a ladder offers, in order."""
        return list(self.choices.values())

    def nearest(self, value: int) -> int:
        """A ladder's step nearest `value` on a log scale (100 -> 128 among powers of two)."""
        return int(min(self.options, key=lambda step: abs(math.log(step / value))))


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


def cells_control(name: str, key: str, limit: int = 256) -> Control:
    """Hand-picked mask cells (a frozenset of (query, key) pairs), at most `limit` of them."""
    return Control(name, key, frozenset(), "cells", hi=limit)


def int_control(name: str, key: str, default: int, lo: int, hi: int, step: int = 1) -> Control:
    return Control(name, key, default, "int", lo=lo, hi=hi, step=step)


def seed_control(name: str, key: str, default: int = 0) -> Control:
    """A seed: any whole number from 0 to MAX_SEED."""
    return int_control(name, key, default, 0, MAX_SEED)


def float_control(
    name: str, key: str, default: float, lo: float, hi: float, step: float | None = None
) -> Control:
    return Control(name, key, default, "float", lo=lo, hi=hi, step=step)


def temperature_control(name: str, key: str) -> Control:
    """A softmax temperature tau, 0.05 to 5 in steps of 0.05 (1: the scores as they are)."""
    return float_control(name, key, 1.0, 0.05, 5.0, step=0.05)


def bool_control(name: str, key: str, default: bool = False) -> Control:
    return Control(name, key, default, "bool")


def choice_control(
    name: str, key: str, default: Any, choices: Sequence[Any] | Mapping[str, Any]
) -> Control:
    """A choice among `choices`: URL text -> value, or values written as themselves."""
    options = dict(choices) if isinstance(choices, Mapping) else {str(c): c for c in choices}
    return Control(name, key, default, "choice", choices=options)


def ladder_control(name: str, key: str, default: int, steps: Sequence[int]) -> Control:
    """A whole number among `steps` (positive, increasing, such as powers of two). A link may
    name any whole number from the first step to the last: it is read as the nearest step on a
    log scale, and `links.restore_link` says so."""
    if not steps or steps[0] < 1 or list(steps) != sorted(set(steps)) or default not in steps:
        raise ValueError(f"{name}: the steps must be increasing positive numbers with the default")
    return Control(
        name, key, default, "ladder", lo=steps[0], hi=steps[-1], choices={str(s): s for s in steps}
    )


def text_control(
    name: str, key: str, default: str = "", max_chars: int = URL_TEXT_LIMIT
) -> Control:
    return Control(name, key, default, "text", max_chars=max_chars)


def renamed(control: Control, old_name: str, convert: Callable[[str], str]) -> Control:
    """`control`, also read from links made when it was called `old_name`: `convert` turns the
    old text into this control's (ValueError for text it cannot use). A link that names both
    is read by the new name; the address bar then carries the new name only."""
    return dataclasses.replace(control, old_name=(old_name, convert))


# --- the widgets, one per kind of control ---
# `where` is a container (a column, the sidebar) or None for wherever the page is drawing.


def _host(where: Any) -> Any:
    return st if where is None else where


def _bound(control: Control, value: float) -> int | float:
    return int(value) if control.kind == "int" else value


def number(
    control: Control,
    label: str,
    *,
    where: Any = None,
    help: str | None = None,
    on_change: Callable[..., None] | None = None,
    args: tuple[Any, ...] = (),
) -> Any:
    """A number box within the control's bounds."""
    init_state(control.key, control.default)
    return _host(where).number_input(
        label,
        min_value=_bound(control, control.lo),
        max_value=_bound(control, control.hi),
        step=control.step,
        key=control.key,
        help=help,
        on_change=on_change,
        args=args,
        persist_state="session",
    )


def slider(control: Control, label: str, *, where: Any = None, help: str | None = None) -> Any:
    """A slider over the control's bounds, in its steps."""
    init_state(control.key, control.default)
    return _host(where).slider(
        label,
        _bound(control, control.lo),
        _bound(control, control.hi),
        step=control.step,
        key=control.key,
        help=help,
        persist_state="session",
    )


def ladder(control: Control, label: str, *, where: Any = None, help: str | None = None) -> int:
    """A slider over a ladder's steps, evenly spaced whatever their values."""
    init_state(control.key, control.default)
    return int(
        _host(where).select_slider(
            label, control.options, key=control.key, help=help, persist_state="session"
        )
    )


def toggle(control: Control, label: str, *, where: Any = None, help: str | None = None) -> bool:
    """An on/off switch."""
    init_state(control.key, control.default)
    return bool(_host(where).toggle(label, key=control.key, help=help, persist_state="session"))


def select(
    control: Control,
    label: str,
    format_func: Callable[[Any], str],
    *,
    where: Any = None,
    help: str | None = None,
    widget: Literal["selectbox", "radio", "segmented"] = "selectbox",
    on_change: Callable[..., None] | None = None,
) -> Any:
    """One of the control's choices, as a selectbox, horizontal radio buttons or segments."""
    init_state(control.key, control.default)
    host = _host(where)
    common: dict[str, Any] = {
        "key": control.key,
        "help": help,
        "persist_state": "session",
        "on_change": on_change,
    }
    if widget == "radio":
        return host.radio(
            label, control.options, format_func=format_func, horizontal=True, **common
        )
    if widget == "segmented":
        return host.segmented_control(
            label, control.options, format_func=format_func, required=True, **common
        )
    return host.selectbox(label, control.options, format_func=format_func, **common)


def text_input(
    control: Control,
    label: str,
    *,
    where: Any = None,
    help: str | None = None,
    area: int | None = None,
    max_chars: int | None = None,
    on_change: Callable[..., None] | None = None,
    args: tuple[Any, ...] = (),
) -> str:
    """A text box, or a text area `area` pixels tall."""
    init_state(control.key, control.default)
    host = _host(where)
    common: dict[str, Any] = {
        "key": control.key,
        "help": help,
        "max_chars": max_chars,
        "on_change": on_change,
        "args": args,
        "persist_state": "session",
    }
    if area is not None:
        return str(host.text_area(label, height=area, **common) or "")
    return str(host.text_input(label, **common) or "")
