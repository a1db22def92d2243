"""Lazy readings of a model: the forward pass that keeps each layer's q, k and v instead of its
attention weights (attnviz.transformer.lazy holds them and computes one head when asked), with
the hidden states, the residual norms and a decoder's top next tokens read tile by tile.

Shape letters as in attnviz.transformer.encoder: L layers, T tokens, d hidden size, K next
tokens.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from attnviz.errors import InputError
from attnviz.transformer import capture, eager, lazy


def read_lazy(
    model: Any,
    kind: str,
    model_type: str,
    inputs: dict[str, torch.Tensor],
    progress: Callable[[int], None] | None = None,
) -> tuple[lazy.LazyAttention, torch.Tensor, torch.Tensor | None, torch.Tensor | None]:
    """The lazy forward: every layer's vectors, (L + 1, T, d) hidden states, a decoder's
    (T, d) last hidden state's rows (the logits are formed only for the top next tokens)
    and the (L + 1, T) residual norms; `progress(layers done)` after each layer. InputError
    for a family whose attention the lazy reading does not capture."""
    num_layers = int(model.config.num_hidden_layers)
    capture.install(model)
    with (
        lazy.keeping(progress) as sink,
        eager.last_layer_output(model, num_layers, kind) as grabbed,
        torch.inference_mode(),
    ):
        if kind == "decoder":
            base = model.get_decoder() if hasattr(model, "get_decoder") else None
            out = (base or model)(**inputs, output_hidden_states=True)
        else:
            out = model(**inputs, output_hidden_states=True)
    reading = lazy.kept(sink, num_layers)
    if reading is None:
        raise InputError("model_no_lazy", model_type=model_type)
    hidden = torch.stack(out.hidden_states)[:, 0]  # (L + 1, T, d)
    last = out.last_hidden_state[0] if kind == "decoder" else None
    return reading, hidden, last, eager.residual_norms(hidden, grabbed)


def top_next(model: Any, last: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(T, K) ids and probabilities of the k most probable next tokens from (T, d) final hidden
    rows, lazy.TILE rows of logits at a time (4,096 rows of a 49,152-piece vocabulary would be
    0.8 GB at once)."""
    head = model.get_output_embeddings()
    tops = [
        eager.top_rows(head(last[start : start + lazy.TILE]).float(), k)
        for start in range(0, last.shape[0], lazy.TILE)
    ]
    return torch.cat([i for i, _ in tops]), torch.cat([p for _, p in tops])


def probe_gap(model: Any, kind: str, model_type: str, probe: Any, k: int) -> float:
    """How far a lazy reading of the eager reading `probe` (an Encoded of lazy.PROBE) is from
    it: its weights', and a decoder's top k next tokens' probabilities' largest difference
    (inf for a family the lazy reading does not capture)."""
    try:
        reading, _, last, _ = read_lazy(model, kind, model_type, probe.inputs)
    except InputError:
        return float("inf")
    gap = lazy.check(probe.every_attention(), reading)
    if last is not None and probe.next_token_probs is not None:
        # The next tokens come from the final hidden rows through the output
        # embedding: a family that scales or caps its logits fails here.
        top = top_next(model, last, k)[1]
        gap = max(gap, float((top - probe.next_token_probs).abs().max()))
    return gap
