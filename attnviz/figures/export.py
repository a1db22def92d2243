"""Figure export: PNG through kaleido and a local headless Chromium, standalone HTML by plotly.

Nothing here runs until a person asks for a file: a PNG needs a browser (about 4 s to start) and
a standalone page carries the whole plotly.js (about 4 MB). Nothing is fetched at run time: the
browser is a Chromium or Chrome already on the machine (never downloaded), plotly.js is inlined
and MathJax is off in both (kaleido would otherwise load it from a CDN). A PNG is drawn with the
machine's fonts, not the page's: `png_lacks_korean_font` says when its Hangul would be boxes.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import functools
import html
import importlib.util
import os
import re
import shutil
import subprocess
import threading
import unicodedata
from collections.abc import Iterator
from typing import Any, Literal

import numpy as np
import plotly.graph_objects as go

from attnviz.i18n import HANGUL

# choreographer's own override, honoured first; then Debian's Chromium, then what is on PATH.
BROWSER_ENV = "BROWSER_PATH"
BROWSER_CANDIDATES: tuple[str, ...] = (
    "/usr/bin/chromium",
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
)
FILENAME_LIMIT = 80
DEFAULT_WIDTH = 1000  # PNG width when the figure sets none (on screen it fills the column)
DEFAULT_HEIGHT = 500
RENDER_TIMEOUT = 60.0  # seconds for one PNG, browser start included
CLOSE_TIMEOUT = 10.0
IDLE_SECONDS = 120.0  # the browser is closed after this long without an export
FC_LIST = "fc-list"  # fontconfig's lister: Chromium on Linux finds its fonts through fontconfig
FC_TIMEOUT = 10.0  # seconds; fc-list answers in about 20 ms from its cache

PngUnavailable = Literal["no_kaleido", "no_browser"]

_UNSAFE = re.compile(r"[^\w.-]")  # \w: Unicode letters and digits, and _
_TAG = re.compile(r"<[^>]*>")


def safe_filename(name: str, ext: str, *, fallback: str = "figure") -> str:
    """`name` as a download file name ending in `.ext`: letters, digits, `-`, `_`, `.` only.

    No path separators, control characters or leading dots; at most FILENAME_LIMIT characters;
    `fallback` when nothing is left of `name`.
    """
    ext = ext.lstrip(".")
    if not ext.isascii() or not ext.isalnum():
        raise ValueError(f"file extension {ext!r}: use letters and digits only, e.g. 'png'")
    stem = unicodedata.normalize("NFKC", name)  # full-width "／" becomes "/", then "_"
    stem = re.sub(r"_+", "_", _UNSAFE.sub("_", stem))
    stem = stem.strip("._-")
    if stem.lower().endswith(f".{ext.lower()}"):
        stem = stem[: -len(ext) - 1].rstrip("._-")
    stem = stem[: FILENAME_LIMIT - len(ext) - 1].rstrip("._-")
    if not stem:
        return safe_filename(fallback, ext) if fallback else f"figure.{ext}"
    return f"{stem}.{ext}"


def figure_title(fig: go.Figure) -> str:
    """The figure's title as plain text (labels reach Plotly HTML-escaped, maybe with tags)."""
    text = fig.layout.title.text
    return " ".join(html.unescape(_TAG.sub(" ", text)).split()) if text else ""


def find_browser() -> str | None:
    """The Chromium or Chrome executable PNG export uses, or None; never downloads one.

    `$BROWSER_PATH`, when set, is the only candidate: a wrong path says so instead of being
    silently replaced by another browser.
    """
    override = os.environ.get(BROWSER_ENV)
    for name in (override,) if override else BROWSER_CANDIDATES:
        path = shutil.which(name)
        if path is not None:
            return path
    return None


def png_unavailable() -> PngUnavailable | None:
    """Why PNG export cannot work here ("no_kaleido", "no_browser"), or None when it can.

    Cheap (about 0.1 ms, nothing started or imported), so it may run on every rerun.
    """
    if importlib.util.find_spec("kaleido") is None:
        return "no_kaleido"
    if find_browser() is None:
        return "no_browser"
    return None


@functools.cache
def korean_font_installed() -> bool:
    """Whether fontconfig knows a font with Korean in it: kaleido's Chromium draws a PNG with
    the machine's fonts, not the page's web font. Asked once per process; False without
    fc-list."""
    path = shutil.which(FC_LIST)
    if path is None:
        return False
    try:
        listed = subprocess.run(
            [path, ":lang=ko", "family"], capture_output=True, text=True, timeout=FC_TIMEOUT
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return bool(listed.stdout.strip())


def _texts(value: object) -> Iterator[str]:
    """Every string in a figure's JSON-like dict (number arrays skipped)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _texts(item)
    elif isinstance(value, np.ndarray) and value.dtype.kind in "OUS":
        yield from map(str, value.flat)


def png_lacks_korean_font(fig: go.Figure) -> bool:
    """Whether a PNG of `fig` would show boxes for its Hangul: the figure has some (titles,
    labels, typed tokens) and the machine has no Korean font. Where one is installed the
    figure is not read at all."""
    if korean_font_installed():
        return False
    return any(HANGUL.search(text) for text in _texts(fig.to_plotly_json()))


def figure_png(
    fig: go.Figure, *, width: int | None = None, height: int | None = None, scale: float = 2
) -> bytes:
    """The figure as a PNG of (width * scale) x (height * scale) pixels.

    Sizes default to the figure's layout, else DEFAULT_WIDTH x DEFAULT_HEIGHT. Raises
    RuntimeError when kaleido or the browser is missing, the export fails or takes longer than
    RENDER_TIMEOUT seconds; ValueError for sizes that are not positive.
    """
    reason = png_unavailable()
    if reason == "no_kaleido":
        raise RuntimeError("PNG export needs the kaleido package, which is not installed")
    browser = find_browser()
    if reason == "no_browser" or browser is None:
        raise RuntimeError(
            f"PNG export needs Chromium or Chrome: none found (set {BROWSER_ENV} to its path)"
        )
    width = width or fig.layout.width or DEFAULT_WIDTH
    height = height or fig.layout.height or DEFAULT_HEIGHT
    if min(width, height, scale) <= 0:
        raise ValueError(f"PNG size {width} x {height} at scale {scale}: all must be positive")
    opts = {"format": "png", "width": width, "height": height, "scale": scale}
    # A plain dict made on the caller's thread: the browser thread never reads the live figure.
    return _RENDERER.render(fig.to_dict(), opts, browser)


def figure_html(fig: go.Figure) -> bytes:
    """The figure as one standalone UTF-8 HTML page: plotly.js inlined, no CDN, no MathJax."""
    page = fig.to_html(
        include_plotlyjs=True,
        include_mathjax=False,
        full_html=True,
        config={"displaylogo": False},
    )
    return page.encode("utf-8")


class _Renderer:
    """One headless Chromium for PNG export, driven by one event-loop thread.

    Streamlit calls `render` from many threads at once (deferred downloads run in a thread
    pool). Every kaleido and browser object lives on this one loop and figures are drawn one
    at a time, so nothing of kaleido's is touched from two threads. (kaleido's own
    `start_sync_server` is not safe for that: its callers share one result queue.)
    The browser starts on the first export (about 4 s), is kept for the next ones (about
    0.6 s each), and is closed after IDLE_SECONDS without an export or after any failure.
    """

    def __init__(self) -> None:
        self._start_lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        # Touched only on the loop's thread:
        self._busy: asyncio.Lock | None = None
        self._browser: Any = None  # a kaleido.Kaleido, open
        self._browser_path: str | None = None
        self._idle: asyncio.TimerHandle | None = None
        self._idle_task: asyncio.Task[None] | None = None

    def render(self, fig_dict: dict[str, Any], opts: dict[str, Any], browser_path: str) -> bytes:
        """PNG bytes of `fig_dict`; blocks the calling thread, safe from any thread."""
        future = asyncio.run_coroutine_threadsafe(
            self._render(fig_dict, opts, browser_path), self._ensure_loop()
        )
        try:
            # Other exports may be queued before this one: wait for a few of them.
            return future.result(timeout=3 * RENDER_TIMEOUT)
        except (TimeoutError, concurrent.futures.TimeoutError):
            future.cancel()
            raise RuntimeError(
                f"PNG export took longer than {RENDER_TIMEOUT:.0f} s and was stopped"
            ) from None
        except Exception as err:  # kaleido's and choreographer's own errors
            raise RuntimeError(f"PNG export failed: {err}") from err

    def shutdown(self) -> None:
        """Close the browser (at interpreter exit)."""
        if self._loop is not None:
            future = asyncio.run_coroutine_threadsafe(self._close(), self._loop)
            with contextlib.suppress(Exception):
                future.result(timeout=CLOSE_TIMEOUT)

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        with self._start_lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(target=loop.run_forever, name="attnviz-png", daemon=True)
                thread.start()
                atexit.register(self.shutdown)
                self._loop = loop
            return self._loop

    async def _render(
        self, fig_dict: dict[str, Any], opts: dict[str, Any], browser_path: str
    ) -> bytes:
        if self._busy is None:
            self._busy = asyncio.Lock()
        async with self._busy:
            if self._idle is not None:
                self._idle.cancel()
            try:
                async with asyncio.timeout(RENDER_TIMEOUT):
                    browser = await self._open(browser_path)
                    png: bytes = await browser.calc_fig(fig_dict, opts=opts)
            except BaseException:
                await self._close()  # a browser that failed once is not trusted again
                raise
            self._idle = asyncio.get_running_loop().call_later(IDLE_SECONDS, self._on_idle)
            return png

    async def _open(self, browser_path: str) -> Any:
        if self._browser is not None and (
            self._browser_path != browser_path or self._browser.subprocess.poll() is not None
        ):
            await self._close()
        if self._browser is None:
            import kaleido  # 0.2 s to import: only when a PNG is asked for

            browser = kaleido.Kaleido(path=browser_path, mathjax=False, n=1, timeout=RENDER_TIMEOUT)
            try:
                await browser.open()
            except BaseException:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(browser.close(), CLOSE_TIMEOUT)
                raise
            self._browser, self._browser_path = browser, browser_path
        return self._browser

    def _on_idle(self) -> None:
        self._idle_task = asyncio.get_running_loop().create_task(self._close_when_free())

    async def _close_when_free(self) -> None:
        if self._busy is None:  # never: the render that scheduled this made it
            return
        async with self._busy:
            await self._close()

    async def _close(self) -> None:
        browser, self._browser = self._browser, None
        if browser is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(browser.close(), CLOSE_TIMEOUT)


# The one browser of this process (a module global because a browser is per process, not per
# session); it starts only when a PNG is asked for.
_RENDERER = _Renderer()
