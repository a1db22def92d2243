"""The import lock: the one way a page imports what it needs after its title.

A page draws its title first (`attnviz.app.page.setup` imports nothing heavy), then imports its
lesson under `lock()`. Streamlit runs each session's script in a thread of its own, and when
first visits import torch, pandas, pyarrow or plotly at the same time, Python's per-module
import locks can meet in a cycle (one thread inside pandas waiting for pyarrow, another inside
pyarrow waiting for pandas). Python breaks such a deadlock by handing one thread the other's
module half made: "partially initialized module 'pandas' has no attribute 'Series' (most likely
due to a circular import)". Under the lock one thread at a time imports; the first also loads
what Streamlit and Plotly would otherwise import lazily in the middle of a run (`warm`), so
that nothing is left to import outside it. Later visits find every module loaded and pass
through the lock at once. Imports deferred further (the model's transformers) take it too.

The first pass through the lock also sets torch's intra-op threads (`TORCH_THREADS`): the app
runs every session's script in a thread of its own, and torch's default of one intra-op thread
a core makes each op's threads spin against the other sessions' threads and other processes (a
saliency run took 64 s that way next to a busy process, 0.9 s with one thread).

No Streamlit, torch or plotly at this module's top: tests import it in a bare interpreter.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

# What the app's pages import lazily during a run: Streamlit's charts and tables import pyarrow,
# pandas, plotly.io and plotly.tools on their first call. One fixed order, under the lock.
# (Plotly also imports each property class on its first use: small modules whose own imports
# are loaded by then, so two threads importing one never wait on each other.)
WARM = (
    "numpy",
    "pandas",
    "pyarrow",
    "torch",
    # What unpickling a tensor imports on its first call (st.cache_data hands out a copy of
    # each cached result through pickle): imported here by name, nothing is unpickled.
    "torch.utils.serialization",
    "plotly.graph_objects",
    "plotly.subplots",
    "plotly.colors",
    "plotly.io",
    "plotly.tools",
)

# torch's intra-op threads in an app process: one, unless ATTNVIZ_TORCH_THREADS says otherwise.
THREADS_ENV = "ATTNVIZ_TORCH_THREADS"
TORCH_THREADS = 1

# The model stack, imported in the background a moment after a served app's first pass through
# the lock, then the shipped encoder and NLI classifier loaded into the app's caches (about
# 120 MB, which any model page would load anyway): transformers' BERT module pulls in
# torch._dynamo and scipy, about 2 s, and the weights about 0.5 s more, that the first visit of
# a model page would otherwise wait for. ATTNVIZ_PRELOAD=0 turns it off.
PRELOAD = ("transformers", "transformers.models.bert.modeling_bert", "attnviz.transformer.encoder")
PRELOAD_THEN = ("attnviz.app.model", "shipped_card")  # loads the shipped encoder and classifier
PRELOAD_ENV = "ATTNVIZ_PRELOAD"
PRELOAD_DELAY = 2.0  # s: the first page draws its charts before the imports take the lock

_LOCK = threading.RLock()
_held = threading.local()  # how deep this thread is inside lock()
_warmed = False


@contextmanager
def lock() -> Iterator[None]:
    """Import inside this block, one thread at a time (re-entrant within a thread)."""
    global _warmed
    with _LOCK:
        _held.depth = getattr(_held, "depth", 0) + 1
        try:
            if not _warmed:
                warm()
                _warmed = True
                if preloading():
                    threading.Thread(target=preload, name="attnviz-preload", daemon=True).start()
            yield
        finally:
            _held.depth -= 1


def preloading() -> bool:
    """Whether to import the model stack in the background: in a served app (a Streamlit
    runtime exists; not under AppTest or in a notebook), unless ATTNVIZ_PRELOAD is 0."""
    if os.environ.get(PRELOAD_ENV, "1") == "0":
        return False
    from streamlit import runtime

    return runtime.exists()


def preload(delay: float = PRELOAD_DELAY) -> None:
    """After `delay` seconds, import PRELOAD under the lock, then load the shipped encoder and
    NLI classifier into the app's caches (attnviz.app.model.shipped_card), so that a model
    page's first visit finds them; a missing model stack is left for the pages to explain."""
    time.sleep(delay)
    module, function = PRELOAD_THEN
    with lock():
        for name in [*PRELOAD, module]:
            try:
                importlib.import_module(name)
            except ImportError:
                return
    # By name, as the modules above: this module stays below everything it warms. The weights
    # load outside the lock: another page's imports need not wait for them.
    getattr(sys.modules[module], function)()  # None when nothing can be read


def torch_threads() -> int:
    """The app's intra-op thread count: ATTNVIZ_TORCH_THREADS when it is a number >= 1."""
    named = os.environ.get(THREADS_ENV, "")
    return int(named) if named.isdigit() and int(named) >= 1 else TORCH_THREADS


def held() -> bool:
    """Whether this thread is inside `lock()`."""
    return getattr(_held, "depth", 0) > 0


def warm() -> None:
    """Import WARM, then run once what imports more on its first call: numpy's lazy `char`
    (hover text), a table to CSV and to Arrow (st.dataframe and its download), a figure of every
    trace kind to JSON."""
    modules = {name: importlib.import_module(name) for name in WARM}
    modules["torch"].set_num_threads(torch_threads())
    np, pd = modules["numpy"], modules["pandas"]
    go = modules["plotly.graph_objects"]
    np.char.mod("%.4g", np.zeros(1))
    frame = pd.DataFrame({"a": [0.0], "b": ["b"]})
    frame.to_csv()
    modules["pyarrow"].Table.from_pandas(frame)
    traces = [
        go.Heatmap(z=np.zeros((1, 1))),  # an array goes through narwhals, a list does not
        go.Scatter(x=[0], y=[0]),
        go.Bar(x=[0], y=[0]),
        go.Histogram(x=[0.0]),
        go.Image(source="data:image/png;base64,"),
    ]
    go.Figure(traces, layout={"title": {"text": ""}}).to_json()
