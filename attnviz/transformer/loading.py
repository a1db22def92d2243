"""A model folder loaded as `Encoder` reads it: its fast tokenizer, its model with eager attention
(of the Auto class of its kind), and how many tokens it reads at most.

Each failure is an InputError with the reason (no fast tokenizer, weights cut short or not this
config's), not a traceback. transformers is imported inside the functions, so importing this
module stays cheap.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attnviz.errors import InputError

if TYPE_CHECKING:
    from transformers import PreTrainedModel, PreTrainedTokenizerBase

# Families whose position table starts after the padding index (RoBERTa's offset of 2).
# One model built at a time: transformers builds a model on the meta device, then fills it,
# and a build in another thread at that moment could be left there (SmolLM2's lm_head, while
# the preload built MiniLM).
_LOADING = threading.Lock()
_OFFSET_POSITIONS = ("roberta", "xlm-roberta", "camembert", "data2vec-text", "xmod")


def load_tokenizer(folder: Path) -> PreTrainedTokenizerBase:
    """The folder's tokenizer; InputError if it has none or only a slow (Python) one."""
    from transformers import AutoTokenizer

    try:
        tokenizer = AutoTokenizer.from_pretrained(
            folder, local_files_only=True, trust_remote_code=False
        )
    except (OSError, ValueError, ImportError, TypeError, KeyError, AttributeError) as err:
        raise InputError("model_no_tokenizer", name=folder.name, detail=short(err)) from err
    if not getattr(tokenizer, "is_fast", False):
        raise InputError(
            "model_no_tokenizer", name=folder.name, detail="no tokenizers (Rust) version"
        )
    return tokenizer


def load_model(folder: Path, kind: str) -> Any:
    """The folder's model (`kind`: encoder, decoder or encoder-decoder) with eager attention, in
    inference behaviour and without grads; InputError for weights it cannot read. (Any, as
    transformers' own `train` returns it: callers reach into each family's modules.)"""
    from safetensors import SafetensorError
    from transformers import AutoModel, AutoModelForCausalLM, AutoModelForSeq2SeqLM

    classes = {"encoder": AutoModel, "decoder": AutoModelForCausalLM}
    auto = classes.get(kind, AutoModelForSeq2SeqLM)
    try:
        # The default SDPA implementation returns no attention weights at all.
        with _LOADING:
            model: PreTrainedModel = auto.from_pretrained(
                folder,
                attn_implementation="eager",
                local_files_only=True,
                use_safetensors=True,
                trust_remote_code=False,
            )
    except (OSError, ValueError, RuntimeError, KeyError, TypeError, SafetensorError) as err:
        # Weights cut short or not this config's: the reason, not a traceback.
        raise InputError("model_load_failed", name=folder.name, detail=short(err)) from err
    # Never trained here: without grads, layers also accept the inference-mode tensors
    # of an Encoded outside inference mode (as recompute_attention's callers may do).
    return model.train(False).requires_grad_(False)  # inference behaviour (dropout off)


def positions(config: Any, tokenizer: Any, cap: int) -> int:
    """How many tokens the model reads at most (its position table, its tokenizer's limit),
    and at most `cap`."""
    limits = [cap]
    table = getattr(config, "max_position_embeddings", None)
    if isinstance(table, int) and table > 0:
        if config.model_type in _OFFSET_POSITIONS:  # positions start after the padding index
            table -= int(config.pad_token_id or 0) + 1
        limits.append(table)
    if 0 < int(getattr(tokenizer, "model_max_length", 0) or 0) < 1_000_000:
        limits.append(int(tokenizer.model_max_length))
    return max(8, min(limits))


def short(err: BaseException) -> str:
    """An exception as one short line of a message."""
    return f"{type(err).__name__}: {err}"[:300]
