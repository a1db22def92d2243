"""What heads do, measured by running the model on a sequence made for it.

`induction_scores(encoder, length=50, seed=0)`: one sequence of `length` token ids drawn
uniformly (seeded) from the tokenizer's ordinary ids (no special token), repeated twice, no BOS
added; a head's score is the mean, over the positions i of the second copy, of its attention
from i to i - length + 1: the token that followed i's previous occurrence, where an induction
head looks to copy what came next (Olsson et al. 2022, "In-context Learning and Induction
Heads"; TransformerLens's induction score). Random tokens leave nothing else to predict from.

`head_scores(encoder)`: five scores per head for the finder, each (L, H) in 0..1: induction and
duplicate token (attention from i to i - length, the same token's earlier occurrence) on the
repeated random sequence; previous token (j = i - 1), first token (the attention sink, rows 1
and later) and diagonal (j = i) averaged over CORPUS, a few ordinary sentences each read alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch

from attnviz.head_stats import pattern_score, sink_share

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


SCORES = ("induction", "duplicate", "previous", "first", "diagonal")
CORPUS = (
    "The cat sat on the mat, and the dog slept by the door.",
    "A farmer in a straw hat is loading crates of apples onto a truck.",
    "When the rain stopped, the children ran outside to jump in the puddles.",
    "Two women are sharing an umbrella while they wait for the bus.",
    "The old bridge was closed for repairs, so we drove around the lake.",
    "She wrote the letter twice before she was happy with every word.",
)


def head_scores(encoder: Encoder, *, length: int = 50, seed: int = 0) -> dict[str, torch.Tensor]:
    """Every score of SCORES, (L, H) float32 each (see the module)."""
    ids = repeated_sequence(encoder, length, seed)
    with torch.inference_mode():
        out = encoder.model(input_ids=ids, output_attentions=True)
    attn = torch.stack(out.attentions)[:, 0].float()  # (L, H, 2 length, 2 length)
    rows = torch.arange(length, 2 * length)
    found = {
        "induction": attn[:, :, rows, rows - length + 1].mean(dim=-1),
        "duplicate": attn[:, :, rows, rows - length].mean(dim=-1),
    }
    readings = [encoder.encode(text, next_tokens=False) for text in CORPUS]
    per = [r.every_attention() for r in readings]
    found["previous"] = torch.stack([pattern_score(a, "previous") for a in per]).mean(dim=0)
    found["first"] = torch.stack([sink_share(a) for a in per]).mean(dim=0)
    found["diagonal"] = torch.stack([pattern_score(a, "diagonal") for a in per]).mean(dim=0)
    return {name: found[name].float() for name in SCORES}
