"""Fast first paint: a page's setup, title and intro import nothing heavy.

Each probe runs in a fresh interpreter, so modules other tests imported do not hide a heavy
import. Streamlit is imported first, as every page does: it loads plotly's lazy
`graph_objects` itself, so a probe counts the modules that attnviz adds on top of streamlit.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from attnviz import errors, parsing, ui

ROOT = Path(__file__).resolve().parent.parent
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

from attnviz import ui
from attnviz.errors import InputError
from attnviz.i18n import t
from attnviz.ui import base

ui.page_setup("nav.home")
st.title(t("home.title"))
st.markdown(t("home.intro"))
base.page_setup("nav.masking")
ui.init_state("probe", 0)
ui.bump("probe")
ui.show_error(InputError("ragged_rows", row=3, found=2, expected=4))
ui.show_error(ValueError("keys have 3 columns"))
ui.show_tour()
ui.LANG, ui.PAGES, ui.APP_ROOT
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
        "import attnviz.ui",
        "import attnviz.ui.base",
        "import attnviz.errors",
        SETUP,
    ],
    ids=["ui", "ui.base", "errors", "page setup"],
)
def test_page_setup_imports_nothing_heavy(code):
    assert imported_by(code).isdisjoint(HEAVY), sorted(imported_by(code) & set(HEAVY))


def test_the_attention_widgets_do_not_import_the_model():
    loaded = imported_by("import attnviz.ui.qkv")
    assert "torch" in loaded  # the probe sees what qkv does import
    assert "transformers" not in loaded


def test_every_exported_name_resolves():
    for name in ui.__all__:
        assert getattr(ui, name) is not None, name
    assert set(ui.__all__) <= set(dir(ui))
    assert ui.masking.__name__ == "attnviz.ui.masking"
    assert ui.figures.__name__ == "attnviz.figures"
    assert ui.qkv_input is ui.qkv.qkv_input
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        _ = ui.no_such_name


def test_all_names_what_the_type_checker_sees():
    """Adding a name means adding it in three places in ui/__init__.py: this keeps them equal."""
    tree = ast.parse(Path(ui.__file__).read_text(encoding="utf-8"))
    checked = next(
        node
        for node in tree.body
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
    )
    imports = [node for node in checked.body if isinstance(node, ast.ImportFrom)]
    names = {alias.asname or alias.name for node in imports for alias in node.names}
    submodules = {
        alias.name for node in imports if node.module == "attnviz.ui" for alias in node.names
    }
    assert names - submodules == set(ui.__all__)
    for name in submodules:
        assert getattr(ui, name).__name__ == f"attnviz.ui.{name}"


def test_parsing_reexports_the_one_input_error():
    assert parsing.InputError is errors.InputError
    with pytest.raises(errors.InputError, match=r"^Row 2 has 1 values"):
        parsing.parse_matrix("1 2\n3")
