"""A real Streamlit server and Debian's Chromium for the browser tests (marked e2e)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("ATTNVIZ_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = ROOT / "docs" / "screenshots"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "/e2e/" in str(item.path):
            item.add_marker(pytest.mark.e2e)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def streamlit_command(script: str, port: int) -> list[str]:
    """`streamlit run script` headless on a loopback port, as the browser tests run it."""
    return [
        sys.executable, "-m", "streamlit", "run", script,
        "--server.headless", "true", "--server.address", "127.0.0.1",
        "--server.port", str(port), "--browser.gatherUsageStats", "false",
    ]  # fmt: skip


def wait_healthy(url: str, server: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    """Until the server at `url` answers its health check; RuntimeError with its log if not."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"streamlit did not start: {log.read_text()[-2000:]}")
        time.sleep(0.02)


PICKER_MODELS = ("gpt2", "t5")  # tiny random models (tests/families.py) in the server's picker


@pytest.fixture(scope="session")
def model_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of tiny models, the one root ATTNVIZ_MODEL_DIRS names for the server."""
    from tests import families

    root = tmp_path_factory.mktemp("e2e-models")
    families.make_all(root, PICKER_MODELS)
    return root


@pytest.fixture(scope="session")
def app_url(model_root: Path) -> Iterator[str]:
    """`streamlit run dashboard.py` headless on a free loopback port, until the session ends;
    its model picker reads `model_root` (as "tiny")."""
    port = free_port()
    log = (ROOT / ".pytest_cache").joinpath("streamlit-e2e.log")
    log.parent.mkdir(exist_ok=True)
    env = {**os.environ, "ATTNVIZ_MODEL_DIRS": f"tiny={model_root}"}
    with log.open("w") as out:
        command = streamlit_command("dashboard.py", port)
        server = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=env)
        url = f"http://127.0.0.1:{port}"
        try:
            try:
                wait_healthy(url, server, log, timeout=60)
            except RuntimeError as err:
                pytest.fail(str(err))
            yield url
        finally:
            server.terminate()
            server.wait(timeout=20)


def chromium() -> Iterator[object]:
    """Debian's Chromium through Playwright, until the generator is closed; skipped where it is
    missing (failed on CI). Session fixtures here and in tests/test_install.py yield from it."""
    if not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} is missing: install Debian's chromium (make test does, as root)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    yield from chromium()


@pytest.fixture
def page(browser: object) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1400, "height": 1500})  # type: ignore[attr-defined]
    page = context.new_page()
    yield page
    context.close()
