"""An unexpected error under the app's settings: a short notice in the page, the detail in the
server's log (client.showErrorDetails = "none", client.showErrorLinks = "false")."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from attnviz import serve
from tests.e2e.conftest import free_port, streamlit_command, wait_healthy

pytestmark = pytest.mark.e2e
BOOM = """
import streamlit as st
st.write("before the error")
raise RuntimeError("secret detail at /srv/attnviz/private.py")
"""


def test_an_unexpected_error_shows_no_detail_paths_or_search_buttons(page, tmp_path: Path) -> None:
    script, log, port = tmp_path / "boom.py", tmp_path / "server.log", free_port()
    script.write_text(BOOM, encoding="utf-8")
    flags = serve.config_flags()
    for own in ("--server.port", "--server.address", "--theme.fontFaces"):
        flags.pop(own, None)
    command = [*streamlit_command(str(script), port), *(p for f in flags.items() for p in f)]
    with log.open("w") as out:
        server = subprocess.Popen(command, cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, server, log, timeout=60)
        page.goto(url)
        page.get_by_text("before the error").wait_for(timeout=60_000)
        notice = page.locator('[data-testid="stException"]')
        notice.first.wait_for(timeout=60_000)
        shown = page.locator("body").inner_text()
        assert "secret detail" not in shown and "/srv/" not in shown and str(tmp_path) not in shown
        assert "Traceback" not in shown and "Ask Google" not in shown and "ChatGPT" not in shown
        assert notice.first.inner_text().strip()  # a notice is there, short
        assert len(notice.first.inner_text()) < 400
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert "secret detail at /srv/attnviz/private.py" in log.read_text()  # the log keeps it
