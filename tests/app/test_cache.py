"""Results kept for every session (attnviz.app.cache.Kept) computed in turns: a session that
asks for a key another session is computing waits its turn and finds it kept."""

from __future__ import annotations

import threading

import pytest
from streamlit.runtime.scriptrunner_utils.exceptions import StopException

from attnviz.app.cache import Kept
from attnviz.app.turns import Turns


def test_the_same_key_asked_twice_at_once_is_computed_once():
    kept, turns = Kept(entries=4), Turns()
    started, told = threading.Event(), threading.Event()
    calls, found, ahead = [], [], []

    def slow() -> int:
        calls.append("slow")
        started.set()
        assert told.wait(5)  # it runs until the second session has been told it waits
        return 7

    def waiting(count: int) -> None:
        ahead.append(count)
        told.set()

    first = threading.Thread(
        target=lambda: found.append(kept.in_turn("k", slow, turns)), daemon=True
    )
    first.start()
    assert started.wait(5)
    # The second asks while the first computes: it waits, told how many are ahead of it.
    second = kept.in_turn("k", lambda: calls.append("again") or 8, turns, waiting)
    first.join(5)
    assert found == [7] and second == 7
    assert calls == ["slow"]
    assert ahead and set(ahead) == {1}
    # Another key is computed in its own turn; a kept one is not computed again.
    assert kept.in_turn("j", lambda: 3, turns) == 3
    assert kept.in_turn("k", lambda: 9, turns) == 7


def test_a_run_interrupted_keeps_nothing_and_frees_the_turn():
    kept, turns = Kept(entries=4), Turns()

    def interrupted() -> int:
        raise StopException  # what a Stop click raises in the running script (a BaseException)

    with pytest.raises(StopException):
        kept.in_turn("k", interrupted, turns)
    assert "k" not in kept
    found: list[int] = []
    after = threading.Thread(
        target=lambda: found.append(kept.in_turn("k", lambda: 5, turns)), daemon=True
    )
    after.start()
    after.join(5)  # a turn left taken would make it wait for ever
    assert found == [5]
