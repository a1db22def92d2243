"""Hostile text stays text: figure labels, markdown messages and download file names."""

from __future__ import annotations

import html
import re

import numpy as np
import pytest

from attnviz.app.feedback import markdown_literal
from attnviz.figures import export, labels
from tests import english as en

# The issue's payloads, which the browser test types into every text input too.
ISSUE_PAYLOADS = (
    "<script>alert(1)</script>",
    "<img src=x onerror=window.__xss=1>",
    '<a href="javascript:alert(1)">x</a>',
    "<b>bold</b>",
    "%{z}",
    "&lt;b&gt;",
)
PAYLOADS = (
    *ISSUE_PAYLOADS,
    'it\'s "quoted"',
    "*em* `code` :red[x] $x$ :smile: [l](javascript:alert(1)) a\\b",
)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_escape_label_leaves_no_tag_or_template(payload):
    label = labels.escape_label(payload)
    assert "<" not in label and ">" not in label and "%{" not in label
    # Plotly decodes &lt; &gt; &amp; and numeric entities: it draws the text as typed.
    assert html.unescape(label) == payload


def test_escape_label_keeps_quotes_plotly_cannot_decode_named():
    # Plotly knows no "&quot;": an escaped quote would be drawn as those six characters.
    assert labels.escape_label('say "hi"') == 'say "hi"'
    assert "&quot;" not in labels.escape_label(PAYLOADS[2])


@pytest.mark.parametrize("payload", PAYLOADS)
def test_heatmap_labels_go_through_ticktext_and_customdata(payload):
    fig = en.heatmap(
        np.ones((2, 2)),
        title=payload,
        kind="scores",
        row_labels=[payload, "b"],
        col_labels=["c", "d"],
    )
    assert html.unescape(fig.layout.yaxis.ticktext[0]) == payload
    for trace in fig.data:
        template = trace.hovertemplate or ""
        # Labels reach the hover through customdata: a template would substitute "%{z}".
        assert labels.escape_label(payload) not in template


@pytest.mark.parametrize("payload", PAYLOADS)
def test_markdown_literal_escapes_what_markdown_reads(payload):
    escaped = markdown_literal(payload)
    # Every mark that could start markdown, HTML, an entity or a Streamlit code is escaped.
    assert re.fullmatch(r"(?:\\[\\`*_\[\]<>&$~|#:]|[^\\`*_\[\]<>&$~|#:])*", escaped)
    assert re.sub(r"\\(.)", r"\1", escaped) == payload
    assert markdown_literal("Row 2, 'x' is not a number.") == "Row 2, 'x' is not a number."


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("../../etc/passwd", "etc_passwd.png"),
        ("a/b\\c", "a_b_c.png"),
        ("C:\\Windows\\x", "C_Windows_x.png"),
        ("..", "fallback.png"),
        (".hidden", "hidden.png"),
        ("tab\there\nnew\rline", "tab_here_new_line.png"),
        ("nul\x00byte\x1f\x7f", "nul_byte.png"),
        ("<script>alert(1)</script>", "script_alert_1_script.png"),
        ("%{z}", "z.png"),
        ("&lt;b&gt;", "lt_b_gt.png"),
        ("full／width", "full_width.png"),
        ("", "fallback.png"),
        ("\u202eevil.exe", "evil.exe.png"),
    ],
)
def test_safe_filename(name, expected):
    assert export.safe_filename(name, "png", fallback="fallback") == expected


@pytest.mark.parametrize("name", [*PAYLOADS, "x" * 10_000, "é" * 500, "/" * 100, "\x00" * 5])
def test_safe_filename_is_short_and_plain(name):
    out = export.safe_filename(name, "html")
    stem = out.removesuffix(".html")
    assert out.endswith(".html") and len(out) <= export.FILENAME_LIMIT
    assert stem and not stem.startswith(".")
    assert all(ch.isalnum() or ch in "_-." for ch in stem)
    assert "/" not in out and "\\" not in out and ".." not in stem


def test_safe_filename_refuses_a_bad_extension():
    with pytest.raises(ValueError, match="extension"):
        export.safe_filename("a", "p/ng")
