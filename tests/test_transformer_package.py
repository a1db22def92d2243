"""The transformer wing as one package: its public names from `attnviz.transformer`, loaded on
first use (importing the package loads neither torch nor transformers), and one path per module
(the old top-level aliases are gone)."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import attnviz.transformer as transformer

# The old paths and their homes: CHANGELOG.md, "One path per public name (issue 40)".
GONE = ("encoder", "models", "neurons", "generation", "interventions", "head_finder")


@pytest.mark.parametrize("old", [f"attnviz.{name}" for name in GONE])
def test_an_old_module_path_is_gone(old):
    with pytest.raises(ModuleNotFoundError, match=old):
        importlib.import_module(old)


def test_importing_the_package_loads_no_model_stack():
    heavy = "{'torch', 'transformers'}"
    probe = f"import sys, attnviz.transformer; print(sorted({heavy} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_every_public_name_resolves_from_its_one_home():
    for name in transformer.__all__:
        value = getattr(transformer, name)
        home = importlib.import_module(value.__module__)
        assert home.__name__.startswith("attnviz.transformer.") and getattr(home, name) is value
    modules = {path.stem for path in Path(transformer.__file__).parent.glob("*.py")}
    assert not modules & set(transformer.__all__)  # no public name hides a module
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        transformer.nothing  # noqa: B018


def public_names(path: Path) -> set[str]:
    """The public names a module defines at its top (functions, classes, constants), not the
    ones it imports."""
    names = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {name for name in names if not name.startswith("_")}


def test_no_two_transformer_modules_define_the_same_public_name():
    homes: dict[str, list[str]] = {}
    for path in sorted(Path(transformer.__file__).parent.glob("*.py")):
        for name in public_names(path) - {"__all__"}:
            homes.setdefault(name, []).append(path.stem)
    assert {name: where for name, where in homes.items() if len(where) > 1} == {}
