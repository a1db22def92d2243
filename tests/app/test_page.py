"""Fast first paint: a page's setup, title and intro import nothing heavy; every lesson is whole.

Each probe runs in a fresh interpreter, so modules other tests imported do not hide a heavy
import. Streamlit is imported first, as every page does: it loads plotly's lazy
`graph_objects` itself, so a probe counts the modules that attnviz adds on top of streamlit.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from attnviz import errors, i18n, parsing
from attnviz.app import page
from attnviz.lessons import Lesson, lessons
from tests.e2e import pages as e2e_pages

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("torch", "transformers", "pandas", "plotly")

PROBE = """
import json
import sys

import streamlit

before = set(sys.modules)
{code}
print(json.dumps(sorted(set(sys.modules) - before)))
"""
SETUP = """
import streamlit as st

from attnviz.app import feedback, loading, page, state
from attnviz.errors import InputError

page.setup("home")
page.setup("masking")
state.init_state("probe", 0)
state.bump("probe")
feedback.show_error(InputError("ragged_rows", row=3, found=2, expected=4))
feedback.show_error(ValueError("keys have 3 columns"))
page.show_tour()
page.LANG, page.LESSONS, page.APP_ROOT, loading.held()
"""


def imported_by(code: str) -> set[str]:
    """The top-level packages `code` imports in a fresh interpreter beyond streamlit's own."""
    probe = PROBE.format(code=code)
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return {name.partition(".")[0] for name in json.loads(done.stdout.splitlines()[-1])}


@pytest.mark.parametrize(
    "code",
    [
        "import attnviz.app",
        "import attnviz.app.page",
        "import attnviz.app.loading",
        "import attnviz.lessons",
        "import attnviz.errors",
        SETUP,
    ],
    ids=["app", "app.page", "app.loading", "lessons", "errors", "page setup"],
)
def test_page_setup_imports_nothing_heavy(code):
    assert imported_by(code).isdisjoint(HEAVY), sorted(imported_by(code) & set(HEAVY))


def test_no_lessons_view_imports_the_model():
    views = "\n".join(f"import attnviz.lessons.{lesson.name}.view" for lesson in lessons())
    loaded = imported_by(views)
    assert "torch" in loaded  # the probe sees what the views do import
    assert "transformers" not in loaded  # loaded with the model, only when a page asks


@pytest.mark.parametrize("lesson", lessons(), ids=lambda lesson: lesson.name)
def test_every_lesson_has_a_page_a_view_and_its_words(lesson: Lesson):
    script = ROOT / lesson.script
    assert script.exists(), lesson.script
    # The page is the three steps: setup by the lesson's name, its view under the lock, show.
    text = script.read_text()
    assert f'page.setup("{lesson.name}")' in text
    assert f"from attnviz.lessons.{lesson.name} import view" in text
    assert callable(importlib.import_module(f"attnviz.lessons.{lesson.name}.view").show)
    for key in (lesson.nav, lesson.title, lesson.intro, *([lesson.tour] if lesson.tour else [])):
        assert key in i18n.EN and key in i18n.KO, key
    assert (ROOT / "attnviz" / "strings" / f"{lesson.name}.py").exists()
    # The browser sweeps visit it (tests/e2e/pages.py): they wait for its charts.
    assert lesson.name in e2e_pages.CHARTS, f"add the charts {lesson.script} draws to CHARTS"


def test_the_sidebar_lists_every_page_in_order():
    scripts = [lesson.script for lesson in page.LESSONS]
    assert scripts[0] == "dashboard.py"
    assert scripts[1:] == sorted(
        (f"pages/{p.name}" for p in (ROOT / "pages").glob("*.py")),
        key=lambda s: int(s.split("/")[1].split("_")[0]),
    )


def test_parsing_reexports_the_one_input_error():
    assert parsing.InputError is errors.InputError
    with pytest.raises(errors.InputError, match=r"^Row 2 has 1 values"):
        parsing.parse_matrix("1 2\n3")
