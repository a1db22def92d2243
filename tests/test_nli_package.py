"""The NLI wing as one package: its public names from `attnviz.nli`, and the old module paths
that notebooks import still working (the same modules, not copies)."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import attnviz.nli as nli

OLD_PATHS = {
    "attnviz.nli_model": "attnviz.nli.model",
    "attnviz.nli_data": "attnviz.nli.data",
    "attnviz.nli_checkpoint": "attnviz.nli.checkpoint",
    "attnviz.nli_jobs": "attnviz.nli.jobs",
}


@pytest.mark.parametrize(("old", "new"), OLD_PATHS.items())
def test_an_old_module_path_is_the_new_module(old, new):
    assert importlib.import_module(old) is importlib.import_module(new)


def test_the_old_trainer_path_has_the_store_the_trainer_and_the_command():
    from attnviz import nli_train
    from attnviz.nli import cli, store, training

    assert nli_train.SentenceStore is store.SentenceStore and nli_train.train is training.train
    assert nli_train.main is cli.main and nli_train.TrainConfig is training.TrainConfig


def test_every_public_name_resolves_and_the_readers_stay_light():
    for name in nli.__all__:
        assert getattr(nli, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        nli.nothing  # noqa: B018
    probe = "import sys, attnviz.nli.data, attnviz.nli.jobs; print('torch' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
