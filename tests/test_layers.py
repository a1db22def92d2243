"""The layers of attnviz, read from the code's own imports (every import, nested ones too).

backend (attention, parsing, ... and each lesson's compute.py) -> figures kit (and each lesson's
figures.py) -> app shell -> each lesson's view.py -> pages. Arrows run one way: no module
imports one of a layer above it, and no two modules import each other in a circle. No
function is over 60 lines, no module over 400 (the string catalogues aside), and no module only
re-exports another.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "attnviz"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
LESSON_NAMES = {p.name for p in (PACKAGE / "lessons").iterdir() if (p / "__init__.py").exists()}
PAGES = {
    name
    for name in LESSON_NAMES
    if "LESSON =" in (PACKAGE / "lessons" / name / "__init__.py").read_text()
}


def page_of(lesson: str) -> str:
    """The page a lesson folder belongs to: itself, or for a part `<page>_<part>` its page."""
    if lesson in PAGES:
        return lesson
    owners = [page for page in PAGES if lesson.startswith(page + "_")]
    assert owners, f"{lesson}: a lesson folder declares a LESSON or is named <page>_<part>"
    return max(owners, key=len)


def imports_of(path: Path) -> set[str]:
    """Every module `path` imports, at its top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            # `from attnviz.figures import heatmap` imports the module attnviz.figures.heatmap.
            found |= {f"{node.module}.{a.name}" for a in node.names} & MODULES.keys()
    return found


def layer(name: str) -> str:
    parts = name.split(".")
    if parts[:2] == ["attnviz", "app"]:
        return "app"
    if parts[:2] == ["attnviz", "figures"]:
        return "figures"
    if parts[:2] == ["attnviz", "lessons"] and len(parts) == 4:
        # Only view.py is a view (a page's part has a folder of its own, with its view.py);
        # any other module of a lesson is backend, so Streamlit there fails the test below.
        return {"figures": "figures", "view": "view"}.get(parts[3], "backend")
    return "backend"  # attention, parsing, ..., strings, and the lessons' declarations


ORDER = ("backend", "figures", "app", "view")
FORBIDDEN = {
    "backend": ("streamlit", "plotly"),
    "figures": ("streamlit",),
    "app": (),
    "view": (),
}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_a_module_imports_nothing_of_a_layer_above_it(name):
    mine = ORDER.index(layer(name))
    for imported in imports_of(MODULES[name]):
        top = imported.partition(".")[0]
        assert top not in FORBIDDEN[layer(name)], (name, imported)
        if imported in MODULES and imported != "attnviz.lessons":
            assert ORDER.index(layer(imported)) <= mine, (name, imported)


def test_a_pages_part_is_a_folder_with_one_view_and_every_lesson_view_is_a_view_py():
    parts = LESSON_NAMES - PAGES
    assert {"model_heads", "across_finder", "nli_card"} <= parts
    for part in parts:
        page_of(part)
        modules = {p.name for p in (PACKAGE / "lessons" / part).glob("*.py")}
        assert modules == {"__init__.py", "view.py"}, (part, modules)
    streamlit = {
        n
        for n, path in MODULES.items()
        if "streamlit" in {i.split(".")[0] for i in imports_of(path)}
    }
    lessons = {n for n in streamlit if n.startswith("attnviz.lessons.")}
    assert lessons and all(n.endswith(".view") and n.count(".") == 3 for n in lessons), lessons


def test_lessons_do_not_import_each_other_and_the_rest_imports_none():
    for name, path in MODULES.items():
        parts = name.split(".")
        if parts[:2] != ["attnviz", "lessons"]:
            # Only the declarations (attnviz.lessons): the sidebar lists the lessons.
            lessons_code = {i for i in imports_of(path) if i.startswith("attnviz.lessons.")}
            assert lessons_code <= {f"attnviz.lessons.{n}" for n in LESSON_NAMES}, (
                name,
                lessons_code,
            )
            continue
        if parts[:2] != ["attnviz", "lessons"] or len(parts) < 3:
            continue
        for imported in imports_of(path) & MODULES.keys():
            other = imported.split(".")
            if other[:2] == ["attnviz", "lessons"] and len(other) > 2:
                # A page's parts import its compute, figures and each other; nothing else.
                assert page_of(other[2]) == page_of(parts[2]), (name, imported)


def test_figure_builders_never_read_the_current_language():
    for name, path in MODULES.items():
        if layer(name) == "figures":
            tree = ast.parse(path.read_text())
            names = {
                alias.name
                for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module == "attnviz.i18n"
                for alias in node.names
            }
            # LANGUAGES names the catalogues there are (the notebook API checks its argument);
            # HANGUL is a character class (PNG export asks whether a figure has Hangul).
            assert names <= {"Catalogue", "LANGUAGES", "HANGUL"}, (name, names)


def test_no_two_modules_import_each_other_in_a_circle():
    graph = {name: imports_of(path) & MODULES.keys() for name, path in MODULES.items()}
    state: dict[str, str] = {}

    def visit(name: str, trail: list[str]) -> None:
        state[name] = "open"
        for imported in sorted(graph[name]):
            # A package importing its own submodule (attnviz.lessons finds its lessons) is how
            # packages are made, not a circle.
            if imported.startswith(name + "."):
                continue
            assert state.get(imported) != "open", " -> ".join([*trail, name, imported])
            if imported not in state:
                visit(imported, [*trail, name])
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [])


LONGEST_FUNCTION = 60  # lines from `def` to the function's last line, decorators excluded
LONGEST_MODULE = 400  # lines of a module; the string catalogues (attnviz/strings/) are data


def test_no_function_in_attnviz_is_over_60_lines():
    too_long = [
        f"{path.relative_to(ROOT)}:{node.name} ({node.end_lineno - node.lineno + 1})"
        for path in MODULES.values()
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > LONGEST_FUNCTION
    ]
    assert not too_long, "\n".join(too_long)


def test_no_module_in_attnviz_is_over_400_lines():
    too_long = [
        f"{path.relative_to(ROOT)} ({lines})"
        for path in MODULES.values()
        if "strings" not in path.relative_to(PACKAGE).parts
        and (lines := len(path.read_text().splitlines())) > LONGEST_MODULE
    ]
    assert not too_long, "\n".join(too_long)


def is_main_guard(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and "__main__" in ast.unparse(node.test)


def test_no_module_only_re_exports_another():
    """One path per public name: no `sys.modules` swap, no star import, and no module whose body
    is only imports from attnviz (a name is imported from the module that defines it)."""
    aliases = []
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text())
        swaps = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign)
            and "sys.modules[" in ast.unparse(node)
        ]
        stars = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)
        ]
        code = [
            node
            for node in tree.body
            if not isinstance(node, ast.Import | ast.ImportFrom)
            and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
            and not (isinstance(node, ast.Assign) and ast.unparse(node).startswith("__all__"))
            and not is_main_guard(node)
        ]
        from_attnviz = any(i.startswith("attnviz.") for i in imports_of(path))
        if swaps or stars or (not code and from_attnviz):
            aliases.append(name)
    assert not aliases, aliases
