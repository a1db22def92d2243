"""Heads taken away: the next token's probabilities with chosen heads removed.

A head's output is its slice of the input to the attention's output projection (Llama's
`o_proj`, GPT-2's `c_proj`, GPT-NeoX's `dense`, ...): the weighted values of that head, before
the heads are mixed. `next_token_probs(encoder, text, ablate=((layer, head), ...))` runs the
model with a forward pre-hook on each named layer's projection that replaces the head's slice
by zeros ("zero") or by its mean over the positions of `text` ("mean", TransformerLens's mean
ablation over the prompt), and returns softmax of the last position's logits. The hooks live
only for that call.

Old-path alias: `attnviz.interventions`.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import torch

from attnviz.errors import InputError

if TYPE_CHECKING:
    from attnviz.transformer.encoder import Encoder

MODES = ("zero", "mean")
PROJECTIONS = ("o_proj", "c_proj", "dense", "out_proj")  # the output projection's name
# Each model's projections, found by one short forward the first time (a model is dropped from
# here with the model itself).
_FOUND: weakref.WeakKeyDictionary[Any, list[Any]] = weakref.WeakKeyDictionary()


def attention_modules(encoder: Encoder) -> list[Any]:
    """Each layer's self-attention module, in order: the modules whose eager attention call a
    forward records (attnviz.transformer.capture)."""
    from attnviz.transformer.capture import capture, install

    install(encoder.model)
    with capture() as calls, torch.inference_mode():
        encoder.model(input_ids=torch.tensor([[_any_id(encoder)]]))
    modules = []
    for call in calls:
        if call.module not in modules:
            modules.append(call.module)
    return modules


def _any_id(encoder: Encoder) -> int:
    return int(encoder.model.config.bos_token_id or encoder.model.config.eos_token_id or 0)


def output_projection(module: Any) -> torch.nn.Linear | Any:
    """The layer's output projection (its input holds the heads side by side), or None."""
    for name in PROJECTIONS:
        found = getattr(module, name, None)
        if isinstance(found, torch.nn.Module):
            return found
    return None


def projections(encoder: Encoder) -> list[Any]:
    """Every layer's output projection, found once per model; InputError for a family attnviz
    cannot ablate."""
    if encoder.kind != "decoder":
        raise InputError("ablation_unsupported", model_type=encoder.model_type)
    found = _FOUND.get(encoder.model)
    if found is None:
        found = [output_projection(m) for m in attention_modules(encoder)]
        _FOUND[encoder.model] = found
    if len(found) != encoder.num_layers or any(p is None for p in found):
        raise InputError("ablation_unsupported", model_type=encoder.model_type)
    return found


def _heads_hook(heads: Sequence[int], count: int, mode: str) -> Any:
    def hook(module: Any, args: tuple[Any, ...]) -> tuple[Any, ...]:
        x = args[0]  # (B, T, H * d_head)
        split = x.reshape(*x.shape[:-1], count, x.shape[-1] // count).clone()  # (B, T, H, d)
        for head in heads:
            if mode == "zero":
                split[..., head, :] = 0
            else:
                split[..., head, :] = split[..., head, :].mean(dim=-2, keepdim=True)
        return (split.reshape(x.shape), *args[1:])

    return hook


def _hooks(encoder: Encoder, chosen: list[tuple[int, int]], mode: str) -> list[Any]:
    """The pre-hooks that remove `chosen` heads, registered (remove them when done)."""
    handles = []
    if chosen:
        layers = projections(encoder)
        by_layer: dict[int, list[int]] = {}
        for layer, head in chosen:
            by_layer.setdefault(layer, []).append(head)
        for layer, heads in by_layer.items():
            hook = _heads_hook(heads, encoder.num_heads, mode)
            handles.append(layers[layer].register_forward_pre_hook(hook))
    return handles


def _checked(
    encoder: Encoder, ablate: Iterable[tuple[int, int]], mode: str
) -> list[tuple[int, int]]:
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    chosen = sorted({(int(layer), int(head)) for layer, head in ablate})
    for layer, head in chosen:
        if not (0 <= layer < encoder.num_layers and 0 <= head < encoder.num_heads):
            raise ValueError(
                f"no head ({layer}, {head}) in {encoder.num_layers} x {encoder.num_heads}"
            )
    return chosen


def logits_with(
    encoder: Encoder, text: str, *, ablate: Iterable[tuple[int, int]] = (), mode: str = "zero"
) -> tuple[torch.Tensor, torch.Tensor]:
    """(T,) ids of `text` and (T, V) float32 logits with the `ablate` heads removed."""
    chosen = _checked(encoder, ablate, mode)
    with encoder.tokenizer_lock:
        ids = torch.tensor([encoder.tokenizer(text)["input_ids"]])
    if ids.shape[1] == 0:
        raise InputError("sentence_unreadable", which="text")
    handles = _hooks(encoder, chosen, mode)
    try:
        with torch.inference_mode():
            logits = encoder.model(input_ids=ids).logits[0].float()
    finally:
        for handle in handles:
            handle.remove()
    return ids[0], logits


def prompt_loss(ids: torch.Tensor, logits: torch.Tensor) -> float:
    """The mean cross-entropy of each token of the text given the ones before it, in nats."""
    if ids.shape[0] < 2:
        return float("nan")
    return float(torch.nn.functional.cross_entropy(logits[:-1], ids[1:]))


def next_token_probs(
    encoder: Encoder,
    text: str,
    *,
    ablate: Iterable[tuple[int, int]] = (),
    mode: str = "zero",
) -> torch.Tensor:
    """(V,) float32 probabilities of the token after `text` with the `ablate` heads removed."""
    logits = logits_with(encoder, text, ablate=ablate, mode=mode)[1]
    return torch.softmax(logits[-1], dim=-1)


def kl_divergence(before: torch.Tensor, after: torch.Tensor) -> float:
    """KL(before || after) in nats between two (V,) distributions."""
    kept = before > 0
    return float((before[kept] * (before[kept].log() - after[kept].clamp_min(1e-45).log())).sum())
