"""Long inputs without every head's attention: one forward pass that keeps each layer's queries,
keys and values, and one head's weights computed when asked, tile by tile.

At 4,096 tokens every layer's and head's (T, T) attention would be 30 x 9 x 16.8M x 4 bytes =
18 GB for SmolLM2. Here the model runs as usual, but each layer's attention function, the
family's `eager_attention_forward` that attnviz.transformer.capture wraps once per modeling
module, runs torch's fused scaled-dot-product attention instead of forming the weights, and
keeps q (after rotary embeddings and any per-head norm), k and v (grouped-query attention's
fewer key heads as they are) and the mask's allowed pairs. Only while `keeping()` runs in the
calling thread (a context variable): transformers picks the attention function from the
model's config, which every session shares, so the config is never switched and other callers
see eager attention.

`LazyAttention.head(layer, head)` is then softmax(q k^T * scale, masked) for one head, computed
in tiles of TILE query rows: the eager weights to float rounding. `check` compares it with the
eager weights on a short probe once per model, so a family whose attention is more than
q k^T * scale + mask (T5's position bias, soft-capping, sinks) is refused rather than drawn wrong.

Memory of a reading at T tokens (float32): hidden states (L + 1) T d, q L H T d_head, k and v
2 L H_kv T d_head, the allowed pairs T^2 bits as bools (T^2 bytes): for SmolLM2 at 4,096 tokens
0.30 + 0.28 + 0.19 + 0.02 = 0.79 GB, `LazyAttention.nbytes` plus the hidden states.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import torch
import torch.nn.functional as F

MAX_LAZY_TOKENS = 4096  # a long reading's cap, whatever the model's positions allow
TILE = 512  # query rows per tile when one head's weights are computed
PROBE = "The quick brown fox jumps over the lazy dog, and then it rests by the river bank."
CHECK_ATOL = 1e-5

BAND_ROWS = 4  # query rows a thumbnail row averages in a long reading (spread evenly)

_SINK: contextvars.ContextVar[list[LayerVectors] | None] = contextvars.ContextVar(
    "attnviz_lazy", default=None
)
_PROGRESS: contextvars.ContextVar[Callable[[int], None] | None] = contextvars.ContextVar(
    "attnviz_lazy_progress", default=None
)


@dataclass(frozen=True, eq=False)
class LayerVectors:
    """One layer's attention inputs, as the model multiplied them (batch 1)."""

    query: torch.Tensor  # (H, T, d_head)
    key: torch.Tensor  # (H_kv, S, d_head)
    value: torch.Tensor  # (H_kv, S, d_head)
    scale: float
    allowed: torch.Tensor | None  # (T, S) bool: where a query may look; None: everywhere


@dataclass(frozen=True, eq=False)
class LazyAttention:
    """Every layer's q, k, v of one reading; a head's weights on demand."""

    layers: list[LayerVectors]

    @property
    def num_layers(self) -> int:
        return len(self.layers)

    @property
    def num_heads(self) -> int:
        return int(self.layers[0].query.shape[0])

    @property
    def length(self) -> int:
        return int(self.layers[0].query.shape[1])

    @property
    def nbytes(self) -> int:
        """What the kept tensors take (the allowed pairs shared between layers counted once)."""
        total, seen = 0, set()
        for layer in self.layers:
            for tensor in (layer.query, layer.key, layer.value, layer.allowed):
                if tensor is not None and tensor.data_ptr() not in seen:
                    seen.add(tensor.data_ptr())
                    total += tensor.numel() * tensor.element_size()
        return total

    def scores(self, layer: int, head: int, rows: slice | torch.Tensor) -> torch.Tensor:
        """(rows, S) q k^T * scale for `rows` of one head, masked pairs at float32's minimum
        (as eager attention adds its mask), in float32."""
        vectors = self._layer(layer)
        if not 0 <= head < self.num_heads:
            raise ValueError(f"head must lie in 0..{self.num_heads - 1}, got {head}")
        groups = vectors.query.shape[0] // vectors.key.shape[0]
        q = vectors.query[head, rows].float()  # (r, d_head)
        k = vectors.key[head // groups].float()  # (S, d_head)
        scores = q @ k.T * vectors.scale  # (r, S)
        if vectors.allowed is not None:
            scores = scores.masked_fill(~vectors.allowed[rows], torch.finfo(scores.dtype).min)
        return scores

    def head(self, layer: int, head: int) -> torch.Tensor:
        """(T, S) float32 weights of one head, computed TILE query rows at a time."""
        length = self.length
        out = torch.empty(length, self._layer(layer).key.shape[1])
        for start in range(0, length, TILE):
            rows = slice(start, min(start + TILE, length))
            out[rows] = torch.softmax(self.scores(layer, head, rows), dim=-1)
        return out

    def row(self, layer: int, head: int, query: int) -> torch.Tensor:
        """(S,) one query's weights: one head's row without the rest of its matrix."""
        if not 0 <= query < self.length:
            raise ValueError(f"query must lie in 0..{self.length - 1}, got {query}")
        return torch.softmax(self.scores(layer, head, slice(query, query + 1))[0], dim=-1)

    def _layer(self, layer: int) -> LayerVectors:
        if not 0 <= layer < self.num_layers:
            raise ValueError(f"layer must lie in 0..{self.num_layers - 1}, got {layer}")
        return self.layers[layer]


def band_rows(length: int, bands: int, per_band: int = BAND_ROWS) -> list[list[int]]:
    """`bands` bands of query rows, as adaptive average pooling bins them, and in each
    `per_band` rows spread evenly through it (all of them when the band is no wider)."""
    chosen = []
    for band in range(bands):  # adaptive average pooling's bins: floor(i L / s) to ceil
        start, end = band * length // bands, -(-(band + 1) * length // bands)
        picks = torch.linspace(start, max(start, end - 1), per_band).round().long().unique()
        chosen.append(picks.tolist())
    return chosen


def thumbnails(
    reading: LazyAttention, size: int, per_band: int = BAND_ROWS
) -> tuple[torch.Tensor, torch.Tensor]:
    """(L, H, s, s) model-view thumbnails of a long reading and (L, H) the share of attention
    on position 0, both from `per_band` query rows of each of the s row bands (the columns
    pooled exactly): 2 x 48 rows of 4,096 instead of all of them, every head in seconds."""
    length = reading.length
    side = min(size, length)
    bands = band_rows(length, side, per_band)
    rows = torch.tensor(sorted({r for band in bands for r in band}))
    where = {int(r): i for i, r in enumerate(rows.tolist())}
    band_index = [[where[r] for r in band] for band in bands]
    later = rows > 0
    thumbs = torch.empty(reading.num_layers, reading.num_heads, side, side)
    sink = torch.empty(reading.num_layers, reading.num_heads)
    for layer in range(reading.num_layers):
        for head in range(reading.num_heads):
            scores = reading.scores(layer, head, rows)  # (R, S)
            weights = torch.softmax(scores, dim=-1)  # (R, S)
            pooled = F.adaptive_avg_pool1d(weights[None], side)[0]  # (R, side)
            thumbs[layer, head] = torch.stack([pooled[b].mean(dim=0) for b in band_index])
            sink[layer, head] = weights[later, 0].mean() if bool(later.any()) else 1.0
    return thumbs, sink


def active() -> bool:
    """Whether the calling thread is inside `keeping()`."""
    return _SINK.get() is not None


@contextmanager
def keeping(progress: Callable[[int], None] | None = None) -> Iterator[list[LayerVectors]]:
    """Run attention lazily and keep each layer's vectors, in this thread, inside the block;
    `progress(layers done)` after each layer's attention."""
    layers: list[LayerVectors] = []
    token, told = _SINK.set(layers), _PROGRESS.set(progress)
    try:
        yield layers
    finally:
        _SINK.reset(token)
        _PROGRESS.reset(told)


def forward(
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    mask: torch.Tensor | None,
    scaling: float | None,
) -> tuple[torch.Tensor, None]:
    """What the eager function returns, (B, T, H, d_head) and no weights, by fused attention;
    the layer's vectors kept in the active capture. q (B, H, T, d), k and v (B, H_kv, S, d)."""
    layers = _SINK.get()
    if layers is None:
        raise RuntimeError("lazy.forward runs only inside lazy.keeping()")
    if query.shape[0] != 1:
        raise ValueError("a lazy reading reads one sequence at a time")
    scale = float(scaling) if scaling is not None else query.shape[-1] ** -0.5
    allowed = _allowed(mask, query.shape[2], key.shape[2], layers[-1].allowed if layers else None)
    causal = allowed is not None and _is_causal(allowed)
    out = F.scaled_dot_product_attention(
        query,
        key,
        value,
        attn_mask=None if causal or allowed is None else mask,
        is_causal=causal,  # the fused kernel skips the masked half (twice as fast at 2,048)
        scale=scale,
        enable_gqa=query.shape[1] != key.shape[1],
    )  # (B, H, T, d)
    layers.append(
        LayerVectors(query[0].detach(), key[0].detach(), value[0].detach(), scale, allowed)
    )
    progress = _PROGRESS.get()
    if progress is not None:
        progress(len(layers))
    return out.transpose(1, 2).contiguous(), None


def _allowed(
    mask: torch.Tensor | None, rows: int, columns: int, shared: torch.Tensor | None
) -> torch.Tensor | None:
    """(rows, columns) bools where an additive (or boolean) mask lets a query look; None when
    it lets every query look everywhere; `shared` (the layer before's) when equal to it."""
    if mask is None:
        return None
    flat = mask[0, 0] if mask.dim() == 4 else mask
    allowed = flat > torch.finfo(flat.dtype).min / 2 if flat.is_floating_point() else flat.bool()
    allowed = allowed.expand(rows, columns)
    if shared is not None and shared.shape == allowed.shape and torch.equal(shared, allowed):
        return shared  # one copy for every layer that masks alike
    if bool(allowed.all()):
        return None
    return allowed.contiguous()


def _is_causal(allowed: torch.Tensor) -> bool:
    """Whether `allowed` is exactly the lower triangle (a decoder's one unpadded sequence)."""
    rows, columns = allowed.shape
    return rows == columns and torch.equal(allowed, torch.ones(rows, rows, dtype=torch.bool).tril())


def check(eager: torch.Tensor, lazy: LazyAttention) -> float:
    """The largest difference between eager weights (L, H, T, S) and the lazy heads'."""
    worst = 0.0
    for layer in range(eager.shape[0]):
        for head in range(eager.shape[1]):
            gap = (lazy.head(layer, head) - eager[layer, head].float()).abs().max()
            worst = max(worst, float(gap))
    return worst


def kept(sink: list[LayerVectors], expected_layers: int) -> Any:
    """The capture as a LazyAttention, or None when the family's attention was not seen in
    every layer (it has no eager_attention_forward attnviz wraps)."""
    if len(sink) != expected_layers or not sink:
        return None
    return LazyAttention(list(sink))
