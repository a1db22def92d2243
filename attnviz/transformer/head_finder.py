"""What heads do, measured by running the model on a sequence made for it.

`induction_scores(encoder, length=50, seed=0)`: one sequence of `length` token ids drawn
uniformly (seeded) from the tokenizer's ordinary ids (no special token), repeated twice, no BOS
added; a head's score is the mean, over the positions i of the second copy, of its attention
from i to i - length + 1: the token that followed i's previous occurrence, where an induction
head looks to copy what came next (Olsson et al. 2022, "In-context Learning and Induction
Heads"; TransformerLens's induction score). Random tokens leave nothing else to predict from.

Old-path alias: `attnviz.head_finder`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch

if TYPE_CHECKING:
    from attnviz.transformer.encoder import Encoder


def ordinary_ids(encoder: Encoder) -> torch.Tensor:
    """The vocabulary's ids without the tokenizer's special tokens."""
    special = set(encoder.tokenizer.all_special_ids)
    size = int(encoder.model.config.vocab_size)
    return torch.tensor([i for i in range(size) if i not in special])


def repeated_sequence(encoder: Encoder, length: int, seed: int) -> torch.Tensor:
    """(1, 2 length) ids: `length` ordinary ids drawn uniformly, then the same again."""
    pool = ordinary_ids(encoder)
    generator = torch.Generator().manual_seed(seed)
    picks = pool[torch.randint(len(pool), (length,), generator=generator)]
    return torch.cat([picks, picks])[None]


def induction_scores(encoder: Encoder, *, length: int = 50, seed: int = 0) -> torch.Tensor:
    """(L, H) float32 induction scores on a repeated random sequence (see the module)."""
    if length < 2:
        raise ValueError(f"length must be at least 2, got {length}")
    ids = repeated_sequence(encoder, length, seed)
    with torch.inference_mode():
        out = encoder.model(input_ids=ids, output_attentions=True)
    attn = torch.stack(out.attentions)[:, 0].float()  # (L, H, 2 length, 2 length)
    rows = torch.arange(length, 2 * length)
    return attn[:, :, rows, rows - length + 1].mean(dim=-1)
