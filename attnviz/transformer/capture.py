"""The one wrapper around each modeling module's `eager_attention_forward`: what the neuron
view records (attnviz.transformer.neurons) and what a long reading replaces
(attnviz.transformer.lazy).

transformers' families call their module's `eager_attention_forward(module, query, key, value,
mask, scaling=..., ...)` with q and k as the model uses them (after rotary embeddings and
per-head norms, with grouped-query attention's fewer key heads). `install` wraps that function
once per modeling module; the wrapper does what the calling thread asked inside a context
variable's block and nothing otherwise, so other callers and other sessions see the library
unchanged: inside `capture()` it records each call (q, k, v, mask, scale, weights); inside
`lazy.keeping()` it runs fused attention and keeps q, k, v instead of computing the weights.
"""

from __future__ import annotations

import contextvars
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import torch

from attnviz.transformer import lazy

_RECORDER: contextvars.ContextVar[list[Call] | None] = contextvars.ContextVar(
    "attnviz_neurons", default=None
)
_PATCHED: set[str] = set()
_PATCH_LOCK = threading.Lock()


@dataclass(frozen=True)
class Call:
    """One call of an attention function, as recorded."""

    module: Any
    query: torch.Tensor  # (B, H, T, d_head)
    key: torch.Tensor  # (B, H_kv, S, d_head)
    value: torch.Tensor  # (B, H_kv, S, d_head)
    mask: torch.Tensor | None  # (B, 1, T, S) additive
    scaling: float | None
    position_bias: torch.Tensor | None  # (1, H, T, S)
    weights: torch.Tensor  # (B, H, T, S) what the function returned


def install(model: Any) -> None:
    """Wrap `eager_attention_forward` in every modeling module `model` uses (once each)."""
    modules = {type(m).__module__ for m in model.modules()}
    with _PATCH_LOCK:
        for name in modules - _PATCHED:
            module = sys.modules.get(name)
            original = getattr(module, "eager_attention_forward", None)
            if original is not None:
                module.eager_attention_forward = _recording(original)  # type: ignore[union-attr]
            _PATCHED.add(name)


def _recording(original: Any) -> Any:
    def eager_attention_forward(
        module: Any,
        query: torch.Tensor,
        key: torch.Tensor,
        value: torch.Tensor,
        attention_mask: torch.Tensor | None,
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        if lazy.active():  # a long reading: fused attention, q, k and v kept (transformer.lazy)
            return lazy.forward(query, key, value, attention_mask, _scaling(args, kwargs))
        out = original(module, query, key, value, attention_mask, *args, **kwargs)
        calls = _RECORDER.get()
        if calls is not None:
            calls.append(
                Call(
                    module,
                    query.detach(),
                    key.detach(),
                    value.detach(),
                    None if attention_mask is None else attention_mask.detach(),
                    _scaling(args, kwargs),
                    kwargs.get("position_bias"),
                    out[1].detach(),
                )
            )
        return out

    eager_attention_forward.__wrapped__ = original  # type: ignore[attr-defined]
    return eager_attention_forward


def _scaling(args: tuple[Any, ...], kwargs: dict[str, Any]) -> float | None:
    """The scale an eager attention call was given (its sixth argument, or by name)."""
    scaling = kwargs.get("scaling", args[0] if args else None)
    return None if scaling is None else float(scaling)


@contextmanager
def capture() -> Iterator[list[Call]]:
    """Record the attention calls this thread makes inside the block."""
    calls: list[Call] = []
    token = _RECORDER.set(calls)
    try:
        yield calls
    finally:
        _RECORDER.reset(token)
