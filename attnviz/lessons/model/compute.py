"""The model lesson's numbers: rows renormalised over the tokens on view, and how much of each
row's attention went to [CLS] and [SEP] (attnviz.encoder's views of all-MiniLM-L6-v2)."""

from __future__ import annotations

import torch

from attnviz.encoder import Encoded, attention_view


def renormalise(attn: torch.Tensor) -> torch.Tensor:
    """(..., r, c) -> (..., r, c): each row divided by its sum, so it sums to 1 over the shown
    keys (softmax rows are positive, so no shown row sums to 0)."""
    return attn / attn.sum(dim=-1, keepdim=True)  # (..., r, c)


def specials_share(encoded: Encoded, *, merge_words: bool, block: str) -> torch.Tensor:
    """(L, H, r): the share of each query row's attention that goes to [CLS] and [SEP], for the
    rows `attention_view(encoded, hide_specials=True, merge_words=..., block=...)` shows.

    What a row gives the other tokens is the sum of its blocks without the specials ("AA" and
    "AB" for a query of A); the specials took the rest of its 1."""
    blocks = ["all"] if block == "all" else [block[0] + keys for keys in "AB"]
    kept = sum(
        attention_view(encoded, hide_specials=True, merge_words=merge_words, block=b)[0].sum(-1)
        for b in blocks
    )  # (L, H, r)
    return 1 - torch.as_tensor(kept)
