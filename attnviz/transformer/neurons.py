"""One head's scores term by term on a model's own vectors, as bertviz's neuron view draws them
(Vig 2019, "A Multiscale Visualization of Attention in the Transformer Model").

For a head and a query token: the query vector q, each key k, their elementwise product q∘k, its
sum q·k, the scale, any bias the family adds (T5's relative position bias), the mask, the score
and its softmax, the weight. It is the Playground's arithmetic (attnviz.attention) on the
vectors the model itself multiplied.

The vectors are captured, not recomputed: transformers' families call their module's
`eager_attention_forward(module, query, key, value, mask, scaling=..., ...)` with q and k as the
model uses them, after rotary position embeddings (Llama, Qwen, GPT-NeoX), per-head norms
(Qwen3), and with grouped-query attention's fewer key heads. `install` (attnviz.transformer.
capture) wraps that function once per modeling module and records only while a `capture()` runs
in the calling thread (a context variable), so other callers and other sessions see the library
unchanged; the same wrapper runs a long reading's fused attention. A family that scores
otherwise (DeBERTa's disentangled terms, which has no such function) records nothing and is
refused with the reason; so is any head whose terms do not reproduce the model's weights.

Shape letters: H heads, T query tokens, S key tokens, d_head a head's size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import torch

from attnviz.errors import InputError
from attnviz.transformer.capture import Call, capture, install

__all__ = [
    "STACKS", "HeadVectors", "NeuronTerms", "capture", "head_vectors", "install", "layer_call",
    "neuron_terms",
]  # fmt: skip

if TYPE_CHECKING:
    from attnviz.transformer.encoder import Encoded, Encoder

STACKS = ("encoder", "decoder", "cross")  # self-attention of the (en)coder, the decoder's, cross
REPRODUCED = 1e-4  # the breakdown is shown only when its softmax is the model's weights to this
_CROSS_NAMES = ("encoder_attn", "EncDecAttention", "crossattention")


@dataclass(frozen=True, eq=False)
class HeadVectors:
    """One head of one layer as the model computed it, every query and key row."""

    queries: torch.Tensor  # (T, d_head) as multiplied (rotated for rotary families)
    keys: torch.Tensor  # (S, d_head) of the key head this query head reads
    values: torch.Tensor  # (S, d_head)
    scale: float  # what q·k is multiplied by (1/sqrt(d_head); 1 for T5)
    bias: (
        torch.Tensor | None
    )  # (T, S) a position bias added to the scores, None if the family has none
    mask: (
        torch.Tensor | None
    )  # (T, S) the additive mask (0 kept, very negative masked), None if none
    weights: torch.Tensor  # (T, S) the model's own attention weights of this head
    key_head: int  # the key / value head read (grouped-query attention shares one among several)
    key_heads: int
    rotary: bool  # q and k carry rotary position embeddings

    def scores(self) -> torch.Tensor:
        """(T, S) q·k times the scale, plus bias and mask: the softmax's input."""
        scores = self.queries @ self.keys.T * self.scale  # (T, S)
        if self.bias is not None:
            scores = scores + self.bias
        if self.mask is not None:
            scores = scores + self.mask
        return scores


@dataclass(frozen=True, eq=False)
class NeuronTerms:
    """One query row of a head, term by term."""

    query: torch.Tensor  # (d_head,)
    keys: torch.Tensor  # (S, d_head)
    products: torch.Tensor  # (S, d_head) q∘k
    dots: torch.Tensor  # (S,) q·k, the sums of the products
    scale: float
    bias: torch.Tensor | None  # (S,)
    mask: torch.Tensor | None  # (S,)
    scores: torch.Tensor  # (S,) dots * scale + bias + mask
    weights: torch.Tensor  # (S,) softmax of the scores
    model_weights: torch.Tensor  # (S,) the model's own


def _stack_of(name: str) -> str:
    """Which attention a module's qualified name is: cross, the decoder's self-attention, or
    the encoder's (a decoder-only model's layers count as "encoder": its only stack)."""
    if any(part in name for part in _CROSS_NAMES):
        return "cross"
    return "decoder" if "decoder" in name.split(".") else "encoder"


def layer_call(encoder: Encoder, encoded: Encoded, *, layer: int, stack: str = "encoder") -> Call:
    """What one layer's attention function was given and returned on a forward pass of
    `encoded` (q, k, v, the mask, the scale, a position bias, the weights), captured.

    InputError when the family has no eager attention function attnviz wraps (DeBERTa)."""
    if stack not in STACKS:
        raise ValueError(f"stack must be one of {', '.join(STACKS)}, got {stack!r}")
    if stack != "encoder" and encoded.kind != "encoder-decoder":
        raise ValueError(f"a {encoded.kind} has no {stack} attention")
    if not encoded.inputs:
        raise ValueError("this Encoded keeps no model inputs to run again")
    install(encoder.model)
    names = {id(m): n for n, m in encoder.model.named_modules()}
    with capture() as calls, torch.inference_mode():
        encoder.model(**encoded.inputs)
    chosen = [c for c in calls if _stack_of(names.get(id(c.module), "")) == stack]
    if not chosen:
        raise InputError("neuron_unsupported", model_type=encoder.model_type)
    if not 0 <= layer < len(chosen):
        raise ValueError(f"layer must lie in 0..{len(chosen) - 1}, got {layer}")
    return chosen[layer]


def head_vectors(
    encoder: Encoder, encoded: Encoded, *, layer: int, head: int, stack: str = "encoder"
) -> HeadVectors:
    """One head's q, k and v rows and its terms, captured from a forward pass of `encoded`.

    `stack`: "encoder" (an encoder's or decoder-only model's self-attention, an
    encoder-decoder's encoder), "decoder" (an encoder-decoder's decoder self-attention), "cross".
    InputError when the family's scores are not q·k with a scale, bias and mask.
    """
    call = layer_call(encoder, encoded, layer=layer, stack=stack)
    names = {id(m): n for n, m in encoder.model.named_modules()}
    heads, key_heads = call.query.shape[1], call.key.shape[1]
    if not 0 <= head < heads:
        raise ValueError(f"head must lie in 0..{heads - 1}, got {head}")
    key_head = head // (heads // key_heads)
    d_head = call.query.shape[-1]
    scale = float(call.scaling) if call.scaling is not None else d_head**-0.5
    bias = None
    if call.position_bias is not None and bool(call.position_bias.ne(0).any()):
        bias = call.position_bias[0, head].float()  # (T, S)
    mask = None if call.mask is None else call.mask[0, 0].float()  # (T, S)
    vectors = HeadVectors(
        queries=call.query[0, head].float(),  # (T, d_head)
        keys=call.key[0, key_head].float(),  # (S, d_head)
        values=call.value[0, key_head].float(),  # (S, d_head)
        scale=scale,
        bias=bias,
        mask=mask,
        weights=call.weights[0, head].float(),  # (T, S)
        key_head=key_head,
        key_heads=key_heads,
        rotary=any(n.endswith("rotary_emb") for n in names.values()),
    )
    error = float((torch.softmax(vectors.scores(), dim=-1) - vectors.weights).abs().max())
    if not error <= REPRODUCED:
        raise InputError("neuron_unsupported", model_type=encoder.model_type)
    return vectors


def neuron_terms(vectors: HeadVectors, query: int) -> NeuronTerms:
    """The terms of one query row of `vectors`."""
    if not 0 <= query < vectors.queries.shape[0]:
        raise ValueError(f"query must lie in 0..{vectors.queries.shape[0] - 1}, got {query}")
    q = vectors.queries[query]  # (d_head,)
    products = q * vectors.keys  # (S, d_head)
    dots = products.sum(dim=-1)  # (S,)
    scores = vectors.scores()[query]  # (S,)
    return NeuronTerms(
        query=q,
        keys=vectors.keys,
        products=products,
        dots=dots,
        scale=vectors.scale,
        bias=None if vectors.bias is None else vectors.bias[query],
        mask=None if vectors.mask is None else vectors.mask[query],
        scores=scores,
        weights=torch.softmax(scores, dim=-1),
        model_weights=vectors.weights[query],
    )
