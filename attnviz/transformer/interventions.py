"""Heads taken away: the next token's probabilities with chosen heads removed.

A head's output is its slice of the input to the attention's output projection (Llama's
`o_proj`, GPT-2's `c_proj`, GPT-NeoX's `dense`, ...): the weighted values of that head, before
the heads are mixed. `next_token_probs(encoder, text, ablate=((layer, head), ...))` runs the
model with a forward pre-hook on each named layer's projection that replaces the head's slice
by zeros ("zero") or by its mean over the positions of `text` ("mean", TransformerLens's mean
ablation over the prompt), and returns softmax of the last position's logits. The hooks live
only for that call.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import torch

from attnviz.errors import InputError
from attnviz.transformer.hooks import mine

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
            handles.append(layers[layer].register_forward_pre_hook(mine(hook)))
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


def head_sites(encoder: Encoder) -> list[tuple[Any, bool]]:
    """Each layer's place where its heads' outputs lie side by side, as (module, before): the
    output projection's input (before=True: a pre-hook) in a decoder, the self-attention
    module's own output where it returns the heads joined (BERT's, before its dense layer)."""
    if encoder.kind == "decoder":
        return [(projection, True) for projection in projections(encoder)]
    if encoder.kind != "encoder":
        raise InputError("ablation_unsupported", model_type=encoder.model_type)
    modules = _FOUND.get(encoder.model)
    if modules is None:
        modules = attention_modules(encoder)
        _FOUND[encoder.model] = modules
    if len(modules) != encoder.num_layers:
        raise InputError("ablation_unsupported", model_type=encoder.model_type)
    return [(module, False) for module in modules]


def _replaced(x: torch.Tensor, rows: dict[int, torch.Tensor], count: int) -> torch.Tensor:
    """`x` (1, T, H * d) with each head's first rows replaced by `rows[head]` (n, d)."""
    x = x.clone()
    size = x.shape[-1] // count
    for head, new in rows.items():
        x[0, : new.shape[0], head * size : (head + 1) * size] = new.to(x.dtype)
    return x


def patched_output(
    encoder: Encoder,
    inputs: Mapping[str, torch.Tensor],
    patch: Mapping[tuple[int, int], torch.Tensor],
) -> torch.Tensor:
    """The model's output on `inputs` (an Encoded's) with each (layer, head)'s output replaced,
    in its first n positions, by the given (n, d_head) rows: a decoder's (T, V) float32 logits,
    an encoder's (T, d) last hidden state. ValueError for rows of the wrong size."""
    sites = head_sites(encoder)
    tokens = int(inputs["input_ids"].shape[1])
    size = encoder.hidden_size // encoder.num_heads
    by_layer: dict[int, dict[int, torch.Tensor]] = {}
    _checked(encoder, patch.keys(), "zero")
    for (layer, head), given in patch.items():
        if given.ndim != 2 or given.shape[1] != size or not 1 <= given.shape[0] <= tokens:
            raise InputError(
                "edit_shape", rows=given.shape[0], cols=given.shape[-1], tokens=tokens, size=size
            )
        by_layer.setdefault(layer, {})[head] = given.float()
    handles = []
    for layer, rows in by_layer.items():
        module, before = sites[layer]
        if before:

            def pre(_m: Any, args: tuple[Any, ...], rows: Any = rows) -> tuple[Any, ...]:
                return (_replaced(args[0], rows, encoder.num_heads), *args[1:])

            handles.append(module.register_forward_pre_hook(mine(pre)))
        else:

            def post(_m: Any, _args: Any, output: Any, rows: Any = rows) -> Any:
                if isinstance(output, tuple):
                    return (_replaced(output[0], rows, encoder.num_heads), *output[1:])
                return _replaced(output, rows, encoder.num_heads)

            handles.append(module.register_forward_hook(mine(post)))
    try:
        with torch.inference_mode():
            out = encoder.model(**inputs)
    finally:
        for handle in handles:
            handle.remove()
    if encoder.kind == "decoder":
        return out.logits[0].float()
    return out.last_hidden_state[0].float()


def kl_divergence(before: torch.Tensor, after: torch.Tensor) -> float:
    """KL(before || after) in nats between two (V,) distributions."""
    kept = before > 0
    return float((before[kept] * (before[kept].log() - after[kept].clamp_min(1e-45).log())).sum())
