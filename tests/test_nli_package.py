"""The NLI wing as one package: its public names from `attnviz.nli`, one path per module (the
old top-level aliases are gone), and the trainer run as `python -m attnviz.nli.cli`."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import attnviz.nli as nli

# The old paths and their homes: CHANGELOG.md, "One path per public name (issue 40)".
GONE = ("nli_model", "nli_data", "nli_checkpoint", "nli_jobs", "nli_train")


@pytest.mark.parametrize("old", [f"attnviz.{name}" for name in GONE])
def test_an_old_module_path_is_gone(old):
    with pytest.raises(ModuleNotFoundError, match=old):
        importlib.import_module(old)


def test_the_trainer_runs_from_its_home_and_not_from_the_old_path():
    done = subprocess.run(
        [sys.executable, "-m", "attnviz.nli.cli", "--help"], capture_output=True, text=True
    )
    assert done.returncode == 0 and "attnviz train-nli" in done.stdout, done.stderr
    old = subprocess.run(
        [sys.executable, "-m", "attnviz.nli_train", "--help"], capture_output=True, text=True
    )
    assert old.returncode != 0 and "No module named attnviz.nli_train" in old.stderr


def test_every_public_name_resolves_and_the_readers_stay_light():
    for name in nli.__all__:
        assert getattr(nli, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        nli.nothing  # noqa: B018
    probe = "import sys, attnviz.nli.data, attnviz.nli.jobs; print('torch' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
