"""Figure export: safe file names, a standalone HTML page, a real PNG, made only on a click, and
the note when a PNG would lose its Korean to a server without a Korean font."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest
from plotly.subplots import make_subplots
from streamlit.testing.v1 import AppTest

from attnviz import i18n
from attnviz.figures import export
from tests.apptest import ROOT, TIMEOUT, open_page

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SQRT_D = "pages/4_Why_sqrt_d.py"
SQRT_D_CHARTS = ("sq_histogram", "sq_variance", "sq_saturation", "sq_gradient")
NOTO_CJK = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")


def three_heatmaps() -> go.Figure:
    fig = make_subplots(rows=1, cols=3)
    rng = np.random.default_rng(0)
    for col in range(3):
        fig.add_trace(go.Heatmap(z=rng.random((6, 8)), name=f"head {col}"), row=1, col=col + 1)
    return fig.update_layout(title="Scores &amp; <b>weights</b>", height=300)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("../../etc/passwd", "etc_passwd.png"),
        ("<script>alert(1)</script>", "script_alert_1_script.png"),
        ("a\x00b\nc\td\x1b[31m\x7f", "a_b_c_d_31m.png"),
        ("C:\\Windows\\win.ini", "C_Windows_win.ini.png"),
        ("어텐션 가중치", "어텐션_가중치.png"),
        ("", "figure.png"),
        ("...", "figure.png"),
        ("/", "figure.png"),
        ("weights.png", "weights.png"),
        ("Attention weights (softmax)", "Attention_weights_softmax.png"),
        ("a／b", "a_b.png"),  # full-width solidus
    ],
)
def test_safe_filename(name, expected):
    assert export.safe_filename(name, "png") == expected


@pytest.mark.parametrize(
    "name", ["../../etc/passwd", "\x00" * 10, "x" * 500, "한" * 200, ".hidden", "a/" * 100]
)
def test_safe_filename_rules(name):
    out = export.safe_filename(name, "html")
    assert out.endswith(".html") and 0 < len(out) <= export.FILENAME_LIMIT
    assert not out.startswith(".")
    assert re.fullmatch(r"[\w.-]+", out), out
    assert "/" not in out and "\\" not in out
    assert not any(ord(c) < 32 or ord(c) == 127 for c in out)


def test_safe_filename_fallback_and_extension():
    assert export.safe_filename("", "png", fallback="pg_weights") == "pg_weights.png"
    assert export.safe_filename("???", "csv", fallback="") == "figure.csv"
    with pytest.raises(ValueError, match="extension"):
        export.safe_filename("x", "p/ng")


def test_figure_title_is_plain_text():
    assert export.figure_title(three_heatmaps()) == "Scores & weights"
    assert export.figure_title(go.Figure()) == ""


def test_figure_html_is_standalone_and_holds_the_figure():
    fig = three_heatmaps()
    page = export.figure_html(fig).decode("utf-8")
    assert page.lstrip().lower().startswith("<html") or "<!doctype html>" in page.lower()
    assert "</html>" in page
    assert len(page) > 3_000_000  # plotly.js itself, inlined
    assert "Plotly.newPlot" in page and "plotly.js v" in page
    assert not re.search(r"<script[^>]*\ssrc\s*=", page, re.IGNORECASE)  # nothing loaded
    assert not re.search(r"mathjax[^\"']*\.js", page, re.IGNORECASE)
    assert "cdn.plot.ly/plotly" not in page
    assert '"displaylogo":false' in page.replace(" ", "")
    assert r"Scores &amp; \u003cb\u003eweights" in page  # the title, as plotly writes JSON
    for trace in json.loads(fig.to_json())["data"]:
        assert f'"name":"{trace["name"]}"' in page
        assert trace["z"]["bdata"].replace("/", r"\u002f") in page


def test_png_unavailable_names_the_missing_browser(monkeypatch):
    monkeypatch.setenv(export.BROWSER_ENV, "/nonexistent/chromium")
    assert export.find_browser() is None
    assert export.png_unavailable() == "no_browser"
    with pytest.raises(RuntimeError, match="Chromium or Chrome"):
        export.figure_png(three_heatmaps())


def test_png_unavailable_without_kaleido(monkeypatch):
    monkeypatch.setitem(sys.modules, "kaleido", None)
    assert export.png_unavailable() == "no_kaleido"


def test_find_browser_prefers_debian_chromium(monkeypatch):
    monkeypatch.delenv(export.BROWSER_ENV, raising=False)
    monkeypatch.setattr(export, "BROWSER_CANDIDATES", ("/nonexistent/chromium", "sh"))
    assert export.find_browser() is not None and export.find_browser().endswith("/sh")
    monkeypatch.setattr(export, "BROWSER_CANDIDATES", ("/nonexistent/chromium",))
    assert export.find_browser() is None


@pytest.mark.skipif(export.png_unavailable() is not None, reason="no kaleido or no Chromium")
def test_figure_png_is_a_real_png_of_the_asked_size():
    from PIL import Image

    fig = three_heatmaps()
    png = export.figure_png(fig, width=600, height=250, scale=2)
    assert png.startswith(PNG_MAGIC)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == (1200, 500)
    again = Image.open(io.BytesIO(export.figure_png(fig, scale=1)))  # the browser kept open
    assert again.size == (export.DEFAULT_WIDTH, 300)  # layout height, default width
    with pytest.raises(ValueError, match="positive"):
        export.figure_png(fig, scale=0)


def export_buttons(at, key: str) -> tuple:
    buttons = {b.proto.id.rsplit("-", 1)[-1]: b.proto for b in at.get("download_button")}
    return buttons[f"png_{key}"], buttons[f"html_{key}"]


def test_page_shows_the_export_menu_and_exports_nothing_on_a_rerun(monkeypatch):
    calls = []

    def counting(name):
        def record(*args, **kwargs):
            calls.append(name)
            return b""

        return record

    monkeypatch.setattr(export, "figure_png", counting("png"))
    monkeypatch.setattr(export, "figure_html", counting("html"))
    at = open_page(SQRT_D)
    at.run()  # a plain rerun
    for key in SQRT_D_CHARTS:
        png, html = export_buttons(at, key)
        assert not png.disabled and not html.disabled
        assert png.HasField("deferred_file_id") and html.HasField("deferred_file_id")
    assert calls == []


def test_without_a_browser_png_is_disabled_and_html_still_works(monkeypatch):
    monkeypatch.setenv(export.BROWSER_ENV, "/nonexistent/chromium")
    at = open_page(SQRT_D)
    png, html = export_buttons(at, "sq_variance")
    assert png.disabled and "Chromium" in png.help
    assert not html.disabled and html.HasField("deferred_file_id")
    assert any("Chromium" in c.value for c in at.caption)


def test_buttons_name_their_files_after_the_title_and_make_nothing(monkeypatch):
    from attnviz.app import export as export_ui

    drawn: dict[str, tuple] = {}

    def download_button(label, data, **kwargs):
        drawn[kwargs["key"]] = (data, kwargs)

    monkeypatch.setattr(export_ui.st, "download_button", download_button)
    monkeypatch.setattr(export, "figure_png", lambda *a, **kw: pytest.fail("a PNG was made"))
    fig = three_heatmaps().update_layout(title="../<i>Weights</i>: q0 / k1")
    export_ui.figure_exports(fig, "pg_weights")
    png_data, png = drawn["png_pg_weights"]
    html_data, html = drawn["html_pg_weights"]
    assert (png["file_name"], png["mime"]) == ("Weights_q0_k1.png", "image/png")
    assert (html["file_name"], html["mime"]) == ("Weights_q0_k1.html", "text/html")
    assert png["on_click"] == html["on_click"] == "ignore"
    assert callable(png_data) and callable(html_data)  # made on a click, not now
    export_ui.figure_exports(go.Figure(), "pg_output")
    assert drawn["html_pg_output"][1]["file_name"] == "pg_output.html"


@pytest.fixture
def font_probe():
    """`korean_font_installed` asked afresh in the test, and again after it."""
    export.korean_font_installed.cache_clear()
    yield export.korean_font_installed
    export.korean_font_installed.cache_clear()


def test_the_korean_font_probe_asks_fontconfig(font_probe, monkeypatch, tmp_path):
    conf = tmp_path / "fonts.conf"  # fontconfig with one folder of Latin fonts
    conf.write_text(
        "<?xml version='1.0'?><fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir>"
        f"<cachedir>{tmp_path}</cachedir></fontconfig>"
    )
    monkeypatch.setenv("FONTCONFIG_FILE", str(conf))
    assert font_probe() is False
    monkeypatch.delenv("FONTCONFIG_FILE")
    assert font_probe() is False  # asked once per process
    font_probe.cache_clear()
    if NOTO_CJK.exists():  # Debian's fonts-noto-cjk, which make test installs
        assert font_probe() is True
    font_probe.cache_clear()
    monkeypatch.setattr(export, "FC_LIST", "/nonexistent/fc-list")
    assert font_probe() is False


def test_a_png_lacks_a_font_only_for_hangul_on_a_machine_without_one(monkeypatch):
    english = three_heatmaps()
    titled = three_heatmaps().update_layout(title="어텐션 가중치")
    typed = go.Figure(go.Heatmap(z=[[0.5, 0.5]], x=np.array(["고양이", "cat"]), y=["q0"]))
    monkeypatch.setattr(export, "korean_font_installed", lambda: False)
    assert [export.png_lacks_korean_font(f) for f in (english, titled, typed)] == [0, 1, 1]
    monkeypatch.setattr(export, "korean_font_installed", lambda: True)
    assert not export.png_lacks_korean_font(titled)


def open_in_korean() -> AppTest:
    # AppTest formats widget options in the test's thread: the same language there.
    i18n.set_language("ko")
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=TIMEOUT)
    at.query_params["lang"] = "ko"
    at.run()
    at.switch_page(SQRT_D).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("installed", [False, True])
def test_the_menu_says_when_a_png_would_lose_its_korean(monkeypatch, installed):
    monkeypatch.setattr(export, "korean_font_installed", lambda: installed)
    try:
        korean = [c.value for c in open_in_korean().caption]
    finally:
        i18n.set_language("en")
    english = [c.value for c in open_page(SQRT_D).caption]
    expected = 0 if installed else len(SQRT_D_CHARTS)
    assert korean.count(i18n.KO["export.no_korean_font"]) == expected
    assert i18n.EN["export.no_korean_font"] not in english  # English charts have no Hangul
