"""The one way a lesson caches: its results, and the figures built from them.

A lesson's results are a pure function of its choice (a frozen dataclass of what its controls
hold): `@cache.results` keeps them per choice (`st.cache_data`: each hit is a copy, so a view may
not change what the next run sees). Figures that take long to build are kept per choice and
`Catalogue` with `@cache.figures` (`st.cache_resource`: the same objects, never changed after
they are built, with no unpickling); `@cache.readings` keeps large results the same way. All
are bounded; arguments with a leading underscore (a
model, a result the key already determines) are not hashed.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, TypeVar, cast

import streamlit as st

if TYPE_CHECKING:
    from attnviz.app.turns import Turns

T = TypeVar("T")

RESULT_ENTRIES = 16
FIGURE_ENTRIES = 16

results = functools.partial(st.cache_data, max_entries=RESULT_ENTRIES, show_spinner=False)
figures = functools.partial(st.cache_resource, max_entries=FIGURE_ENTRIES, show_spinner=False)
# Large readings that no view changes (a model's attention: SmolLM2's 512 tokens are 283 MB,
# which `results` unpickled again at every rerun, 0.33 s and a fresh copy per session): kept as
# the same objects, as figures are.
readings = figures


class Kept:
    """Results that show a progress bar while they are computed, kept for every session.

    `st.cache_data` replays the elements a cached function draws and cannot update a bar drawn
    outside it, so these results are kept here: a bounded store shared by every session (the
    same object for each, never changed after it is made), least recently used out first. Two
    sessions asking for the same missing key at once may both compute it; the last one kept.
    """

    def __init__(self, entries: int = RESULT_ENTRIES) -> None:
        self._entries = entries
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._items

    def find(self, key: Hashable) -> Any | None:
        """The result kept under `key`, or None: nothing is computed or kept."""
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        return None

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The result kept under `key`, or `compute()` kept under it."""
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return cast(T, self._items[key])
        value = compute()
        with self._lock:
            self._items[key] = value
            while len(self._items) > self._entries:
                self._items.popitem(last=False)
        return value

    def in_turn(
        self,
        key: Hashable,
        compute: Callable[[], T],
        turns: Turns,
        waiting: Callable[[int], None] | None = None,
    ) -> T:
        """The result kept under `key`, or `compute()` run in its turn of `turns` (one job at
        a time, `waiting(jobs ahead)` meanwhile) and kept. Looked up again when the turn
        comes: a session ahead in the queue may have computed the same key."""
        return self.get(key, lambda: turns.take(lambda: self.get(key, compute), waiting))
