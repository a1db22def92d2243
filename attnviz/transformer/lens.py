"""The logit lens and each head's direct contribution to a logit.

The logit lens (nostalgebraist 2020) reads the residual stream after each layer as if it were
the last: through the final norm and the unembedding. Row 0 reads the embeddings, row l + 1 the
stream after layer l; the last row is the model's own logits, taken from its output (its last
hidden state has been through the final norm once already: normed twice, it reads wrong).

A head's direct contribution to the logit of token t at the last position is its part of the
output projection, W_O[:, head] z_head, read through the final norm with the norm's scale frozen
at the stream it actually normed (as TransformerLens's logit attribution does), dotted with t's
unembedding row: what the head writes straight into that logit, not what later layers make of
it. The residual stream is a sum (embeddings + every attention and MLP output), so these parts
add up, with the embeddings' and the MLPs', to the logit less the norm's and unembedding's
biases.

Families: Llama-style RMSNorm and LayerNorm (GPT-2, GPT-NeoX) final norms, the output
projections `interventions.projections` finds; others are refused with InputError.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import torch

from attnviz.errors import InputError
from attnviz.transformer.hooks import mine
from attnviz.transformer.interventions import projections

if TYPE_CHECKING:
    from attnviz.transformer.encoder import Encoder

LAYER_TOP = 5  # tokens kept per layer and position
POSITIONS = 16  # the last positions read by default
FINAL_NORMS = ("norm", "ln_f", "final_layer_norm", "final_layernorm")


@dataclass(frozen=True, eq=False)
class Lens:
    """What the residual stream says the next token is, after each layer."""

    ids: list[int]  # the text's ids
    positions: list[int]  # the positions read, in order
    top_ids: torch.Tensor  # (L + 1, P, LAYER_TOP) int64: row 0 the embeddings, the last the output
    top_probs: torch.Tensor  # (L + 1, P, LAYER_TOP) float32
    final_probs: torch.Tensor  # (L + 1, P): each row's probability of the output's top token
    head_logits: torch.Tensor | None  # (L, H): each head's direct part of the target's logit
    target: int | None  # the token whose logit head_logits splits


def final_norm(encoder: Encoder) -> Any:
    """The model's final norm before the unembedding; InputError if attnviz cannot read it."""
    base = encoder.model.base_model
    for name in FINAL_NORMS:
        found = getattr(base, name, None)
        if isinstance(found, torch.nn.Module) and hasattr(found, "weight"):
            return found
    raise InputError("lens_unsupported", model_type=encoder.model_type)


def _is_rms(norm: Any) -> bool:
    return "RMS" in type(norm).__name__


def _eps(norm: Any) -> float:
    for name in ("variance_epsilon", "eps"):
        value = getattr(norm, name, None)
        if isinstance(value, float):
            return value
    return 1e-5


def frozen_norm(norm: Any, stream: torch.Tensor) -> tuple[torch.Tensor, bool]:
    """The final norm at `stream` (d,) with its scale frozen: (g / s, centred), so that a part
    c of the stream comes out as (c - mean(c) if centred else c) * (g / s). Checked against the
    norm itself; InputError for a norm of another form (Gemma's 1 + g, ...)."""
    x = stream.float()
    centred = not _is_rms(norm)
    part = x - x.mean() if centred else x
    s = torch.sqrt(part.pow(2).mean() + _eps(norm))
    scale = norm.weight.float() / s
    bias = getattr(norm, "bias", None)
    rebuilt = part * scale + (bias.float() if isinstance(bias, torch.Tensor) else 0)
    if not torch.allclose(rebuilt, norm(stream[None])[0].float(), atol=1e-4, rtol=1e-3):
        raise InputError("lens_unsupported", model_type=type(norm).__name__)
    return scale, centred


def _weight(projection: Any) -> torch.Tensor:
    """The projection's weight as (out, in): nn.Linear's own, GPT-2's Conv1D's transposed."""
    weight = projection.weight
    return weight if isinstance(projection, torch.nn.Linear) else weight.t()


def _ids(encoder: Encoder, text: str | Sequence[int]) -> list[int]:
    if isinstance(text, str):
        with encoder.tokenizer_lock:
            ids = list(encoder.tokenizer(text)["input_ids"])
    else:
        ids = [int(i) for i in text]
    if not ids:
        raise InputError("sentence_unreadable", which="text")
    return ids


def logit_lens(
    encoder: Encoder,
    text: str | Sequence[int],
    *,
    positions: int = POSITIONS,
    target: int | None = None,
) -> Lens:
    """The logit lens over the last `positions` positions of `text` (a string read as
    `tokenizer(text)`, or ids), and, with `target` (a token id), each head's direct part of
    that token's logit at the last position."""
    if encoder.kind != "decoder":
        raise InputError("lens_needs_decoder", kind=encoder.kind)
    ids = _ids(encoder, text)
    norm = final_norm(encoder)
    unembed = encoder.model.get_output_embeddings()
    layers = projections(encoder) if target is not None else []
    inputs: dict[int, torch.Tensor] = {}

    def keep(layer: int) -> Any:
        def hook(_module: Any, args: tuple[Any, ...]) -> None:
            inputs[layer] = args[0][0, -1].detach().float()  # at the last position

        return hook

    handles = [p.register_forward_pre_hook(mine(keep(i))) for i, p in enumerate(layers)]
    if target is not None:  # the stream the final norm reads (hidden_states[-1] is its output)
        handles.append(norm.register_forward_pre_hook(mine(keep(-1))))
    try:
        with torch.inference_mode():
            out = encoder.model(input_ids=torch.tensor([ids]), output_hidden_states=True)
    finally:
        for handle in handles:
            handle.remove()
    chosen = list(range(max(0, len(ids) - positions), len(ids)))
    rows = []
    with torch.inference_mode():
        for stream in out.hidden_states[: encoder.num_layers]:
            rows.append(unembed(norm(stream[0, chosen])).float())
        rows.append(out.logits[0, chosen].float())
    probs = torch.softmax(torch.stack(rows), dim=-1)  # (L + 1, P, V)
    top = probs.topk(LAYER_TOP, dim=-1)
    final = probs[-1].argmax(dim=-1)  # (P,)
    final_probs = probs.gather(-1, final[None, :, None].expand(len(rows), -1, 1))[..., 0]
    heads = None
    if target is not None:
        heads = _head_logits(encoder, layers, inputs, norm, inputs[-1], target)
    return Lens(ids, chosen, top.indices, top.values, final_probs, heads, target)


def _head_logits(
    encoder: Encoder,
    layers: list[Any],
    inputs: dict[int, torch.Tensor],
    norm: Any,
    stream: torch.Tensor,
    target: int,
) -> torch.Tensor:
    """(L, H): each head's output at the last position through the frozen final norm, dotted
    with the target's unembedding row."""
    scale, centred = frozen_norm(norm, stream)
    direction = encoder.model.get_output_embeddings().weight[target].float() * scale  # (d,)
    count, result = encoder.num_heads, torch.zeros(encoder.num_layers, encoder.num_heads)
    for layer, projection in enumerate(layers):
        weight = _weight(projection).float()  # (d_model, H * d_head)
        z = inputs[layer].reshape(count, -1)  # (H, d_head)
        parts = torch.einsum("mhd,hd->hm", weight.reshape(weight.shape[0], count, -1), z)
        if centred:
            parts = parts - parts.mean(dim=-1, keepdim=True)
        result[layer] = parts @ direction
    return result
