"""Work that runs one at a time per server process, the others waiting with their place shown:
a long reading (attnviz.app.long), a scored evaluation file (the NLI page).

Each session's script is a thread of the one server process; two such jobs at once would only
slow each other on the machine's cores and add up their memory. A lock lets one run; a ticket
list gives each waiting session its place, which `waiting(ahead)` reports while it waits.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
WAIT_POLL = 0.25  # s between looks at the queue while waiting


class Turns:
    """One job at a time; `take` waits its turn, then runs the work."""

    def __init__(self) -> None:
        self._running = threading.Lock()  # held while a job runs
        self._queue_lock = threading.Lock()
        self._waiting: list[object] = []  # tickets in arrival order, the running one first

    def take(self, work: Callable[[], T], waiting: Callable[[int], None] | None = None) -> T:
        """`work()` once no other job runs; `waiting(jobs ahead)` while it waits."""
        ticket = object()
        with self._queue_lock:
            self._waiting.append(ticket)
        try:
            while not self._running.acquire(timeout=WAIT_POLL):
                if waiting is not None:
                    with self._queue_lock:
                        ahead = self._waiting.index(ticket)
                    waiting(ahead)
            try:
                return work()
            finally:
                self._running.release()
        finally:
            with self._queue_lock:
                self._waiting.remove(ticket)
