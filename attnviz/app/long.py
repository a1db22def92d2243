"""Long readings for the pages (Encoder.encode(lazy=True)): one at a time per process, the
others waiting with their place shown, and the finished ones kept under a byte cap.

A lazy reading of SmolLM2 at 4,096 tokens holds about 0.8 GB (attnviz.transformer.lazy) and takes
20 to 30 s on one core: two at once would only slow each other and double the memory. One
forward runs at a time per process, each waiting session told its place (attnviz.app.turns).
Finished readings stay in a least-recently-used store of at most LONG_CACHE_BYTES
(ATTNVIZ_LONG_CACHE_BYTES, 2 GB by default): Streamlit's own caches count entries, not bytes.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING

from attnviz.app.turns import Turns

if TYPE_CHECKING:
    from attnviz.transformer.encoder import Encoded, Encoder

CACHE_ENV = "ATTNVIZ_LONG_CACHE_BYTES"
DEFAULT_CACHE_BYTES = 2_000_000_000

_turns = Turns()  # one long forward at a time
_store_lock = threading.Lock()
_store: OrderedDict[tuple[str, str, int], Encoded] = OrderedDict()


def cache_bytes() -> int:
    """The store's cap: ATTNVIZ_LONG_CACHE_BYTES or 2 GB."""
    value = os.environ.get(CACHE_ENV, "").replace("_", "").strip()
    return int(value) if value.isdigit() else DEFAULT_CACHE_BYTES


def reading_bytes(encoded: Encoded) -> int:
    """What a reading keeps: its lazy q, k, v and pattern, hidden states and embeddings."""
    total = encoded.lazy.nbytes if encoded.lazy is not None else 0
    for tensor in (encoded.hidden_states, encoded.input_embeddings, encoded.attentions):
        if tensor is not None:
            total += tensor.numel() * tensor.element_size()
    return total


def stored_bytes() -> int:
    with _store_lock:
        return sum(reading_bytes(e) for e in _store.values())


def long_reading(
    model: Encoder,
    text: str,
    max_length: int,
    *,
    waiting: Callable[[int], None] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Encoded:
    """`model`'s lazy reading of `text` (at most `max_length` tokens), from the store or read
    now, after the readings ahead of it: `waiting(readings ahead)` while it waits,
    `progress(layers done)` while it reads."""
    key = (str(model.path), text, max_length)
    found = _stored(key)
    if found is not None:
        return found

    def read() -> Encoded:
        found = _stored(key)  # read by a session that was ahead with the same text
        if found is None:
            found = model.encode(text, max_length=max_length, lazy=True, progress=progress)
            _keep(key, found)
        return found

    return _turns.take(read, waiting)


def _stored(key: tuple[str, str, int]) -> Encoded | None:
    with _store_lock:
        found = _store.get(key)
        if found is not None:
            _store.move_to_end(key)
        return found


def _keep(key: tuple[str, str, int], encoded: Encoded) -> None:
    """Store a reading, dropping the least recently used until the store fits its cap (a
    reading larger than the cap is returned but not kept)."""
    cap = cache_bytes()
    if reading_bytes(encoded) > cap:
        return
    with _store_lock:
        _store[key] = encoded
        while sum(reading_bytes(e) for e in _store.values()) > cap:
            _store.popitem(last=False)


def clear() -> None:
    """Empty the store (tests)."""
    with _store_lock:
        _store.clear()
