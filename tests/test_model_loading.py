"""Models built in two threads at once come out whole: transformers builds each on the meta
device and then fills it, so attnviz builds one at a time (attnviz.transformer.loading)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
import torch

from attnviz.transformer import loading
from tests import families

NAMES = ("llama", "gpt2", "bert", "qwen2")


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return families.make_all(tmp_path_factory.mktemp("loading"), NAMES)


def test_models_loaded_in_threads_at_once_equal_the_ones_loaded_alone(folders):
    kinds = {"llama": "decoder", "gpt2": "decoder", "bert": "encoder", "qwen2": "decoder"}
    alone = {name: loading.load_model(folders[name], kinds[name]).state_dict() for name in NAMES}
    for _ in range(3):
        loaded: dict[str, torch.nn.Module] = {}
        threads = [
            threading.Thread(
                target=lambda n=name, into=loaded: into.__setitem__(
                    n, loading.load_model(folders[n], kinds[n])
                )
            )
            for name in NAMES
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for name in NAMES:
            for key, value in loaded[name].state_dict().items():
                assert value.device.type == "cpu", (name, key)
                torch.testing.assert_close(value, alone[name][key], msg=f"{name} {key}")


def test_one_model_is_built_at_a_time(folders, monkeypatch):
    from transformers import AutoModelForCausalLM

    building, most = [0], [0]
    real = AutoModelForCausalLM.from_pretrained

    def counted(*args, **kwargs):
        building[0] += 1
        most[0] = max(most[0], building[0])
        try:
            return real(*args, **kwargs)
        finally:
            building[0] -= 1

    monkeypatch.setattr(AutoModelForCausalLM, "from_pretrained", counted)
    threads = [
        threading.Thread(target=loading.load_model, args=(folders[name], "decoder"))
        for name in ("llama", "gpt2", "qwen2")
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most[0] == 1
