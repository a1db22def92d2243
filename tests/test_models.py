"""attnviz.transformer.models: the roots, the one resolver from a model's name to a folder,
discovery, and the refusals before loading. Folders here hold real files (configs, safetensors
headers); nothing is downloaded."""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path

import pytest

from attnviz.errors import InputError
from attnviz.transformer import models
from attnviz.transformer.models import Root


def _safetensors(path: Path, shapes: dict[str, list[int]]) -> None:
    """A safetensors file whose header declares `shapes` (float32) and holds their zero bytes."""
    header: dict[str, object] = {}
    offset = 0
    for name, shape in shapes.items():
        size = 4
        for n in shape:
            size *= n
        header[name] = {"dtype": "F32", "shape": shape, "data_offsets": [offset, offset + size]}
        offset += size
    raw = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + bytes(offset))


def _folder(path: Path, config: dict[str, object] | None = None, weights: bool = True) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    config = {"model_type": "bert", "architectures": ["BertModel"]} if config is None else config
    (path / "config.json").write_text(json.dumps(config))
    if weights:
        _safetensors(path / "model.safetensors", {"a": [3, 4], "b": [5]})
    return path


@pytest.fixture
def root(tmp_path: Path) -> Root:
    base = tmp_path / "models"
    base.mkdir()
    return Root("work", base)


# --- roots ---------------------------------------------------------------------------------


def test_roots_default_to_the_hugging_face_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_CACHE", "/srv/hub")
    assert models.roots("") == [Root("hf", Path("/srv/hub"))]
    monkeypatch.delenv("HF_HUB_CACHE")
    monkeypatch.setenv("HF_HOME", "/srv/hf")
    assert models.roots("") == [Root("hf", Path("/srv/hf/hub"))]


def test_roots_from_the_variable_are_named_and_unique(monkeypatch: pytest.MonkeyPatch) -> None:
    value = os.pathsep.join(["lab=/data/models", "/srv/models", "/other/models", "minilm=/x"])
    assert models.roots(value) == [
        Root("lab", Path("/data/models")),
        Root("models", Path("/srv/models")),
        Root("models2", Path("/other/models")),
        Root("minilm_root", Path("/x")),  # the shipped model's name stays its own
    ]
    monkeypatch.setenv(models.ROOTS_VARIABLE, "/a")
    assert models.roots() == [Root("a", Path("/a"))]


def test_parameter_cap_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(models.MAX_PARAMS_VARIABLE, raising=False)
    assert models.max_parameters() == models.DEFAULT_MAX_PARAMS
    monkeypatch.setenv(models.MAX_PARAMS_VARIABLE, "120_000_000")
    assert models.max_parameters() == 120_000_000
    monkeypatch.setenv(models.MAX_PARAMS_VARIABLE, "lots")
    with pytest.raises(ValueError, match="positive whole number"):
        models.max_parameters()


# --- the resolver --------------------------------------------------------------------------


def test_resolve_a_name_and_back(root: Root) -> None:
    folder = _folder(root.path / "org" / "tiny-bert")
    assert models.resolve("work/org/tiny-bert", [root]) == folder.resolve()
    assert models.name_of(folder, [root]) == "work/org/tiny-bert"
    # An absolute path inside a root is the same model.
    assert models.resolve(str(folder), [root]) == folder.resolve()


def test_the_shipped_model_is_always_allowed(root: Root) -> None:
    path = models.resolve(models.MINILM, [root])
    assert (path / "config.json").is_file()
    assert models.name_of(path, [root]) == models.MINILM


@pytest.mark.parametrize(
    "name",
    ["work/../outside", "work/org/../../outside", "work/./org", "work/", "work/a\\..\\b"],
)
def test_resolve_refuses_names_that_climb(root: Root, name: str) -> None:
    _folder(root.path.parent / "outside")
    with pytest.raises(InputError) as err:
        models.resolve(name, [root])
    assert err.value.key == "model_outside"
    assert "outside the model folders" in str(err.value)


def test_resolve_refuses_an_absolute_path_elsewhere(root: Root, tmp_path: Path) -> None:
    elsewhere = _folder(tmp_path / "elsewhere")
    for name in (str(elsewhere), "/etc", "~"):
        with pytest.raises(InputError) as err:
            models.resolve(name, [root])
        assert err.value.key == "model_outside"


def test_resolve_refuses_a_link_that_leaves_its_root(root: Root, tmp_path: Path) -> None:
    elsewhere = _folder(tmp_path / "elsewhere")
    (root.path / "sneaky").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(InputError) as err:
        models.resolve("work/sneaky", [root])
    assert err.value.key == "model_outside"


def test_resolve_refuses_a_file_linked_out_of_its_root(root: Root, tmp_path: Path) -> None:
    folder = _folder(root.path / "half", weights=False)
    secret = tmp_path / "secret.safetensors"
    _safetensors(secret, {"w": [2]})
    (folder / "model.safetensors").symlink_to(secret)
    with pytest.raises(InputError) as err:
        models.resolve("work/half", [root])
    assert err.value.key == "model_outside"


def test_resolve_accepts_the_hub_cache_links_into_its_blobs(root: Root) -> None:
    repo = root.path / "models--org--tiny"
    blobs = repo / "blobs"
    blobs.mkdir(parents=True)
    (blobs / "c0nf1g").write_text(json.dumps({"model_type": "bert"}))
    _safetensors(blobs / "w31ght5", {"w": [2, 2]})
    snapshot = repo / "snapshots" / "0123456789abcdef"
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").symlink_to("../../blobs/c0nf1g")
    (snapshot / "model.safetensors").symlink_to("../../blobs/w31ght5")
    name = "work/models--org--tiny/snapshots/0123456789abcdef"
    assert models.resolve(name, [root]) == snapshot.resolve()
    assert models.check_folder(snapshot).parameters == 4
    assert models.discover([root]) == [models.Found(name, "org/tiny @ 0123456 (work)")]


def test_resolve_names_unknown_roots_and_missing_folders(root: Root) -> None:
    with pytest.raises(InputError) as err:
        models.resolve("lab/bert", [root])
    assert err.value.key == "model_root"
    assert "'lab'" in str(err.value) and "work" in str(err.value)
    with pytest.raises(InputError) as err:
        models.resolve("work/nothing-here", [root])
    assert err.value.key == "model_missing"
    with pytest.raises(InputError) as err:
        models.resolve("  ", [root])
    assert err.value.key == "model_name_empty"


# --- discovery -----------------------------------------------------------------------------


def test_discover_lists_model_folders_only(root: Root, tmp_path: Path) -> None:
    _folder(root.path / "a-bert")
    _folder(root.path / "group" / "b-gpt", {"model_type": "gpt2"})
    _folder(root.path / "no-weights", weights=False)
    (root.path / "no-config").mkdir()
    _folder(root.path / ".hidden")
    (root.path / "linked").symlink_to(_folder(tmp_path / "out"), target_is_directory=True)
    _folder(root.path / "a" / "b" / "c" / "d" / "too-deep")
    found = models.discover([root, Root("gone", tmp_path / "missing")])
    assert [f.name for f in found] == ["work/a-bert", "work/group/b-gpt"]
    assert found[0].label == "a-bert (work)"


# --- checks before loading -----------------------------------------------------------------


def test_check_folder_counts_parameters_from_the_headers(root: Root) -> None:
    folder = _folder(root.path / "m")
    _safetensors(folder / "model-00002-of-00002.safetensors", {"c": [10, 10]})
    info = models.check_folder(folder)
    assert (info.model_type, info.kind, info.parameters) == ("bert", "encoder", 12 + 5 + 100)


def test_check_folder_refuses_pickle_weights(root: Root) -> None:
    folder = _folder(root.path / "old", weights=False)
    (folder / "pytorch_model.bin").write_bytes(b"\x80\x04not really")
    with pytest.raises(InputError) as err:
        models.check_folder(folder)
    assert err.value.key == "model_pickle"
    assert "pytorch_model.bin" in str(err.value) and "safetensors" in str(err.value)


def test_check_folder_refuses_a_folder_without_weights(root: Root) -> None:
    with pytest.raises(InputError) as err:
        models.check_folder(_folder(root.path / "empty", weights=False))
    assert err.value.key == "model_no_weights"


@pytest.mark.parametrize(
    "config",
    [
        {"model_type": "bert", "auto_map": {"AutoModel": "modeling_custom.Custom"}},
        {"model_type": "my-own-family"},
    ],
)
def test_check_folder_refuses_remote_code(root: Root, config: dict[str, object]) -> None:
    with pytest.raises(InputError) as err:
        models.check_folder(_folder(root.path / "custom", config))
    assert err.value.key == "model_remote_code"
    assert "never a folder's" in str(err.value)


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", '{"hidden_size": 8}', "\xff\xfe"])
def test_check_folder_refuses_a_corrupt_config(root: Root, text: str) -> None:
    folder = _folder(root.path / "bad")
    (folder / "config.json").write_bytes(text.encode("latin-1"))
    with pytest.raises(InputError) as err:
        models.check_folder(folder)
    assert err.value.key == "model_bad_config"
    assert "config.json of bad cannot be read" in str(err.value)


def test_check_folder_refuses_a_missing_config(root: Root) -> None:
    folder = root.path / "bare"
    folder.mkdir()
    with pytest.raises(InputError) as err:
        models.check_folder(folder)
    assert err.value.key == "model_no_config"


def test_check_folder_refuses_a_corrupt_weights_header(root: Root) -> None:
    folder = _folder(root.path / "cut")
    (folder / "model.safetensors").write_bytes(struct.pack("<Q", 10**12) + b"{}")
    with pytest.raises(InputError) as err:
        models.check_folder(folder)
    assert err.value.key == "model_bad_weights"


def test_check_folder_refuses_too_many_parameters(root: Root) -> None:
    folder = _folder(root.path / "big")
    _safetensors(folder / "more.safetensors", {"w": [1000, 1000]})
    with pytest.raises(InputError) as err:
        models.check_folder(folder, max_params=999_999)
    assert err.value.key == "model_too_big"
    message = str(err.value)
    assert "1,000,017 parameters" in message and "999,999" in message
    assert models.MAX_PARAMS_VARIABLE in message


@pytest.mark.parametrize(
    ("config", "kind"),
    [
        ({"model_type": "bert", "architectures": ["BertModel"]}, "encoder"),
        ({"model_type": "roberta", "architectures": ["RobertaForMaskedLM"]}, "encoder"),
        ({"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"]}, "decoder"),
        ({"model_type": "llama", "architectures": ["LlamaModel"]}, "decoder"),
        ({"model_type": "qwen2"}, "decoder"),
        ({"model_type": "t5", "is_encoder_decoder": True}, "encoder-decoder"),
        ({"model_type": "distilbert"}, "encoder"),
    ],
)
def test_check_folder_reads_the_kind(root: Root, config: dict[str, object], kind: str) -> None:
    assert models.check_folder(_folder(root.path / "k", config)).kind == kind
