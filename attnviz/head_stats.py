"""What each head does, in numbers: layers x heads grids of statistics (Clark et al. 2019,
"What Does BERT Look At?"; TransformerLens's head detector for the pattern scores).

Each function takes attentions (L, H, T, T), rows summing to 1, and returns (L, H), a mean over
the query rows:
- `entropy`: -sum_j a_ij log a_ij in nats (at most log T, a uniform row);
- `mean_distance`: sum_j a_ij |i - j|, in tokens;
- `share_on(positions)`: the attention on those key positions ([CLS], [SEP], the first token:
  attention sinks);
- `sink_share`: the attention on position 0 over the rows after it (a decoder's first row can
  look nowhere else, so it is left out);
- `pattern_score(kind)`: the share of attention on a pattern's cells, over the rows that have
  one: "previous" (j = i - 1), "next" (j = i + 1), "diagonal" (j = i), and "broad", the entropy
  divided by its maximum log T (1 for a uniform head, 0 for one that looks at one key a row).
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

PATTERNS = ("previous", "next", "diagonal", "broad")
_OFFSETS = {"previous": -1, "next": 1, "diagonal": 0}


def _checked(attentions: object) -> torch.Tensor:
    attn = torch.as_tensor(attentions)
    if attn.ndim != 4 or attn.shape[-1] != attn.shape[-2] or attn.shape[-1] == 0:
        raise ValueError(f"attentions must be (layers, heads, T, T), got {tuple(attn.shape)}")
    return attn if attn.is_floating_point() else attn.float()


def entropy(attentions: object) -> torch.Tensor:
    """(L, H): each head's mean row entropy, in nats (0 log 0 = 0)."""
    attn = _checked(attentions)  # (L, H, T, T)
    terms = torch.where(attn > 0, attn * attn.clamp_min(1e-30).log(), 0.0)  # (L, H, T, T)
    return -terms.sum(dim=-1).mean(dim=-1)  # (L, H)


def mean_distance(attentions: object) -> torch.Tensor:
    """(L, H): the mean over queries of the attention-weighted distance |i - j| to the keys."""
    attn = _checked(attentions)
    positions = torch.arange(attn.shape[-1], dtype=attn.dtype)
    distance = (positions[:, None] - positions[None, :]).abs()  # (T, T)
    return (attn * distance).sum(dim=-1).mean(dim=-1)  # (L, H)


def share_on(attentions: object, positions: Sequence[int]) -> torch.Tensor:
    """(L, H): the mean share of a row's attention on the key `positions`."""
    attn = _checked(attentions)
    keys = sorted(set(int(p) for p in positions))
    if any(not 0 <= p < attn.shape[-1] for p in keys):
        raise ValueError(f"positions {keys} are outside the {attn.shape[-1]} tokens")
    if not keys:
        return torch.zeros(attn.shape[:2], dtype=attn.dtype)
    return attn[..., keys].sum(dim=-1).mean(dim=-1)  # (L, H)


def sink_share(attentions: object) -> torch.Tensor:
    """(L, H): the mean share of attention on position 0 over query rows 1 and later (one
    token: its only row)."""
    attn = _checked(attentions)
    if attn.shape[-1] == 1:
        return attn[..., 0, 0]
    return attn[..., 1:, 0].mean(dim=-1)  # (L, H)


def pattern_score(attentions: object, kind: str) -> torch.Tensor:
    """(L, H): how much of each head follows pattern `kind` (one of PATTERNS), from 0 to 1."""
    if kind not in PATTERNS:
        raise ValueError(f"unknown pattern {kind!r}: choose one of {', '.join(PATTERNS)}")
    attn = _checked(attentions)
    tokens = attn.shape[-1]
    if kind == "broad":
        if tokens == 1:
            return torch.ones(attn.shape[:2], dtype=attn.dtype)
        return entropy(attn) / torch.log(torch.tensor(float(tokens), dtype=attn.dtype))
    offset = _OFFSETS[kind]
    rows = torch.arange(max(0, -offset), min(tokens, tokens - offset))  # rows with the cell
    if len(rows) == 0:
        return torch.zeros(attn.shape[:2], dtype=attn.dtype)
    return attn[..., rows, rows + offset].mean(dim=-1)  # (L, H)


def special_positions(tokens: Sequence[str], specials: Sequence[bool]) -> dict[str, list[int]]:
    """The key positions of each attention sink: "[CLS]" / "[SEP]" (or the tokenizer's own
    special tokens, by their text) and "first" (position 0)."""
    found: dict[str, list[int]] = {"first": [0] if tokens else []}
    for position, (token, special) in enumerate(zip(tokens, specials, strict=True)):
        if special:
            found.setdefault(token, []).append(position)
    return found
