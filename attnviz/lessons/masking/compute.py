"""The masking lesson's computation: a padded batch through one masked softmax.

Self-attention over a seeded random batch X (B, m, d) with queries = keys = values = X, as in
d2l 11.3's `masked_softmax(X, valid_lens)`: key positions >= valid_len are padding; a causal
mask and hand-picked cells, shared by the batch, combine with them by AND.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import torch

from attnviz.attention import AttentionResult, attend, build_mask
from attnviz.inputs import random_batch
from attnviz.parsing import parse_valid_lens

D = 4  # feature size of the random tokens: small, so the scores stay readable
REASONS = ("padding", "causal", "cell")  # what can hide a cell: mask_reasons
_WHOLE_NUMBER = re.compile(r"[0-9]+")
_SEPARATOR = re.compile(r"\s*,\s*|\s+")


@dataclass(frozen=True)
class MaskingChoice:
    """What the controls say: sizes, seed, the typed valid lengths, masks and fill value."""

    batch: int
    m: int
    seed: int
    lens_text: str
    seq: int
    causal: bool
    fill_value: float
    blocked: frozenset[tuple[int, int]]


def fit_lens_text(text: str, batch: int, m: int) -> str:
    """The valid lengths for a new B or m: numbers kept (capped at m), new sequences full."""
    kept = []
    for token in _SEPARATOR.split(text.strip())[:batch]:
        ok = _WHOLE_NUMBER.fullmatch(token) and len(token) <= 6
        kept.append(min(int(token), m) if ok else m)
    kept += [m] * (batch - len(kept))
    return ", ".join(str(length) for length in kept)


def batch_inputs(batch: int, m: int, seed: int, d: int = D) -> torch.Tensor:
    """Seeded N(0, 1) tokens X (B, m, d): every position holds numbers, padding included."""
    return random_batch(batch, m, d, seed)  # (B, m, d)


def run(
    inputs: torch.Tensor, lens: torch.Tensor, mask: torch.Tensor | None, fill_value: float
) -> AttentionResult:
    """Masked self-attention over the whole padded batch, in one `attend` call."""
    return attend(inputs, inputs, inputs, valid_lens=lens, mask=mask, fill_value=fill_value)


def compute(choice: MaskingChoice) -> tuple[torch.Tensor, AttentionResult]:
    """The typed valid lengths (B,) and the batch's result; InputError / ValueError if not."""
    lens = parse_valid_lens(choice.lens_text, choice.batch, choice.m, each="sequence")
    assert lens is not None  # one per sequence is never None
    inputs = batch_inputs(choice.batch, choice.m, choice.seed)  # (B, m, d)
    mask = build_mask(choice.m, choice.m, causal=choice.causal, blocked=choice.blocked)
    return lens, run(inputs, lens, mask, choice.fill_value)


def combined_mask(result: AttentionResult, seq: int) -> torch.Tensor:
    """The mask that `attend` used for sequence `seq` (m, m), True = may attend."""
    m = result.weights.shape[-1]
    if result.mask is None:
        return torch.ones(m, m, dtype=torch.bool)
    return result.mask[seq]  # (m, m)


def mask_reasons(
    length: int, m: int, causal: bool, blocked: frozenset[tuple[int, int]]
) -> npt.NDArray[np.object_]:
    """Per cell (m, m): the masks that hide it, in REASONS' order; () where the query may attend."""
    reasons = np.empty((m, m), dtype=object)
    for i in range(m):
        for j in range(m):
            hidden = (j >= length, causal and j > i, (i, j) in blocked)
            reasons[i, j] = tuple(r for r, on in zip(REASONS, hidden, strict=True) if on)
    return reasons


def sequence_result(result: AttentionResult, seq: int) -> AttentionResult:
    """One sequence of a batched result, so `row_check` speaks about that sequence alone."""
    return AttentionResult(
        result.scores[seq],
        result.masked_scores[seq],
        result.weights[seq],
        result.output[seq],
        result.params,
        None if result.mask is None else result.mask[seq],
    )
