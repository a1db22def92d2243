"""Eager readings: one forward pass that returns every layer's attention weights and hidden
states (an encoder's or a decoder's; an encoder-decoder's source, target and cross-attention),
and what is read beside them: the residual stream's norms, a decoder's top next tokens.

Shape letters as in attnviz.transformer.encoder: L layers, B sentences, H heads, T tokens, t
target tokens, d hidden size, V the vocabulary, K next tokens.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import torch

from attnviz.errors import InputError
from attnviz.transformer.hooks import mine


def read(
    model: Any, inputs: dict[str, torch.Tensor], kind: str, name: str, model_type: str
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor | None]:
    """(L + 1, B, T, d) hidden states, (L, B, H, T, T) attentions, (B, T, d) word rows, and
    a decoder's (B, T, V) logits (None for an encoder). InputError naming the folder (`name`)
    when the model returns no attentions."""
    with torch.inference_mode():
        out = model(**inputs, output_attentions=True, output_hidden_states=True)
        if not out.attentions:
            raise InputError("model_no_attentions", name=name, model_type=model_type)
        hidden = torch.stack(out.hidden_states)  # (L + 1, B, T, d)
        attn = torch.stack(out.attentions).float()  # (L, B, H, T, T)
        embedded = model.get_input_embeddings()(inputs["input_ids"])  # (B, T, d)
    logits = out.logits.float() if kind == "decoder" else None  # (B, T, V)
    return hidden, attn, embedded, logits


def decoder_ids(
    model: Any,
    inputs: dict[str, torch.Tensor],
    target: str | None,
    tokenize: Callable[[str], list[int]],
    max_new_tokens: int,
    max_length: int,
) -> torch.Tensor:
    """(1, t) what an encoder-decoder's decoder reads: its start token, then `target`'s ids
    (`tokenize` gives them), or, when `target` is None, up to `max_new_tokens` pieces it
    generates greedily."""
    start = model.generation_config.decoder_start_token_id
    if start is None:
        start = model.config.decoder_start_token_id
    if start is None:
        raise ValueError("the model names no decoder start token")
    with torch.inference_mode():
        if target is None:
            generated = model.generate(
                **inputs, max_new_tokens=max_new_tokens, do_sample=False, num_beams=1
            )  # (1, t) starting with the start token
            return generated[:, :max_length]
        if not target.strip():
            raise ValueError("the target is empty")
        ids = tokenize(target)
        return torch.tensor([[int(start), *ids[: max_length - 1]]])  # (1, t)


def read_seq2seq(
    model: Any, inputs: dict[str, torch.Tensor], name: str, model_type: str
) -> dict[str, torch.Tensor]:
    """An encoder-decoder's reading of `inputs` (with `decoder_input_ids`), batch 1: the source's
    (L + 1, T, d) hidden states, (L, H, T, T) attentions and (T, d) word rows, the target's
    (L, H, t, t) self-attention and (L, H, t, T) cross-attention."""
    with torch.inference_mode():
        out = model(**inputs, output_attentions=True, output_hidden_states=True)
        if not out.encoder_attentions:
            raise InputError("model_no_attentions", name=name, model_type=model_type)
        embedded = model.get_input_embeddings()(inputs["input_ids"])  # (1, T, d)
    return {
        "hidden": torch.stack(out.encoder_hidden_states)[:, 0],  # (L + 1, T, d)
        "attentions": torch.stack(out.encoder_attentions).float()[:, 0],  # (L, H, T, T)
        "embedded": embedded[0],  # (T, d)
        "decoder_attentions": torch.stack(out.decoder_attentions).float()[:, 0],  # (L, H, t, t)
        "cross_attentions": torch.stack(out.cross_attentions).float()[:, 0],  # (L, H, t, T)
    }


@contextmanager
def last_layer_output(model: Any, num_layers: int, kind: str) -> Iterator[list[torch.Tensor]]:
    """The last layer's output as the block's forward computes it (1, T, d): the residual
    stream before any final norm (the hidden states transformers returns end with the
    normed one in decoder families)."""
    grabbed: list[torch.Tensor] = []
    layers = next(
        (m for m in model.modules() if isinstance(m, torch.nn.ModuleList) and len(m) == num_layers),
        None,
    )
    if layers is None or kind == "encoder-decoder":
        yield grabbed
        return

    def hook(module: Any, args: Any, output: Any) -> None:
        grabbed.append((output[0] if isinstance(output, tuple) else output).detach())

    handle = layers[-1].register_forward_hook(mine(hook))
    try:
        yield grabbed
    finally:
        handle.remove()


def residual_norms(hidden: torch.Tensor, last: list[torch.Tensor]) -> torch.Tensor | None:
    """(L + 1, T) norms of (L + 1, T, d) hidden states with the last layer's own output (before
    a final norm, `last` as `last_layer_output` grabbed it) in place of the last row."""
    if len(last) != 1:
        return None
    return torch.cat([hidden[:-1].norm(dim=-1), last[0][0].norm(dim=-1)[None]]).float()


def top_rows(logits: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(T, K) ids and probabilities of the k most probable tokens of (T, V) logits."""
    top = logits.topk(min(k, logits.shape[-1]), dim=-1)  # (T, K) each
    # The softmax of only the kept logits: exp(logit - logsumexp), the same numbers.
    return top.indices, (top.values - logits.logsumexp(dim=-1, keepdim=True)).exp()
