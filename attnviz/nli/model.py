"""The decomposable attention model for NLI, its steps and the trained classifier.

Parikh et al. 2016 ("A Decomposable Attention Model for Natural Language Inference") as taught
in d2l 16.5: F, G and H are two-layer MLPs (dropout, linear, ReLU, twice), over frozen MiniLM
token embeddings (the static word-embedding rows, or one layer's contextual output with each
sentence encoded on its own). Shape letters: B pairs, la premise (A) tokens, lb hypothesis (B)
tokens, d embedding size, h hidden size, N sentences, L tokens of the longest sentence.

- attend: e_ij = F(a_i)^T F(b_j) / s, with s = 1 (the paper), sqrt(h) (the size of F's output,
  as scaled dot-product attention divides by sqrt(d_k)) or a temperature; or, with
  `align="cosine"`, e_ij = k cos(a_i, b_j) with the sharpness k learned (from 20): F learned
  freely blows the dot products up until every row collapses onto one token, while a bounded
  score keeps the alignment MiniLM's own similarity, sharpened; beta_i the hypothesis
  soft-aligned to premise token i, alpha_j the premise soft-aligned to hypothesis token j, each
  through `attnviz.attention.masked_softmax` with the pairs' padding as valid lengths.
- compare: G([a_i; beta_i]) and G([b_j; alpha_j]).
- aggregate: v_A and v_B, the sums of the comparisons over the real tokens; H([v_A; v_B]) and a
  linear layer give the logits of LABELS. With `pooled=True` H also reads how the two
  sentences' mean token vectors u and v meet, as sentence-pair classifiers do (Conneau et al.
  2017), without u and v themselves (the hypothesis alone is what artefacts are read from):
  H([v_A; v_B; |u - v|; u * v]).

The untrained view of the NLI page (attnviz.nli.decomposable_attention) runs the same attend and
aggregate steps with seeded one-layer F and G. `DecomposableAttentionModel.forward` (token
embeddings to logits) is differentiable end to end: saliency takes its gradients.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import torch
from torch import nn

from attnviz.attention import masked_softmax
from attnviz.nli.card import ALIGNS
from attnviz.nli.data import LABELS

SHARPNESS_START = 20.0  # k of the cosine attend step before training
Scale = str | float
FILL = -1e6  # d2l's padding fill, passed on to masked_softmax


@dataclass(frozen=True)
class Alignment:
    """Every step of decomposable attention for a batch of padded (premise, hypothesis) pairs."""

    e: torch.Tensor  # (B, la, lb) e_ij = F(a_i)^T F(b_j), divided by the scale
    weights_beta: torch.Tensor  # (B, la, lb) softmax over j: premise token i -> hypothesis
    beta: torch.Tensor  # (B, la, d) hypothesis soft-aligned to each premise token
    weights_alpha: torch.Tensor  # (B, lb, la) softmax over i, rows = hypothesis tokens
    alpha: torch.Tensor  # (B, lb, d) premise soft-aligned to each hypothesis token
    compare_a: torch.Tensor  # (B, la, g) G([a_i; beta_i])
    compare_b: torch.Tensor  # (B, lb, g) G([b_j; alpha_j])
    v_a: torch.Tensor  # (B, g) sum of compare_a over the real premise tokens
    v_b: torch.Tensor  # (B, g) sum of compare_b over the real hypothesis tokens
    lens_a: torch.Tensor  # (B,) real premise tokens per pair
    lens_b: torch.Tensor  # (B,) real hypothesis tokens per pair
    params: dict[str, Any] = field(default_factory=dict)


def shape_text(x: torch.Tensor) -> str:
    return "×".join(str(s) for s in x.shape)


def check_pair(a: torch.Tensor, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """a and b as float tensors of one dtype, or a ValueError naming both shapes."""
    a, b = torch.as_tensor(a), torch.as_tensor(b)
    shapes = f"a is {shape_text(a)} and b is {shape_text(b)}"
    if a.ndim != 3 or b.ndim != 3:
        raise ValueError(f"{shapes}: both need 3 axes (pairs B, tokens, embedding size d)")
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"{shapes}: they need the same number of pairs B")
    if a.shape[2] != b.shape[2]:
        raise ValueError(f"{shapes}: premise and hypothesis tokens need the same size d")
    if a.shape[1] == 0 or b.shape[1] == 0:
        raise ValueError(f"{shapes}: each side needs at least one token")
    dtype = a.dtype if a.is_floating_point() else torch.float32
    a, b = a.to(dtype), b.to(dtype)
    if not (torch.isfinite(a).all() and torch.isfinite(b).all()):
        raise ValueError("a and b must hold finite numbers (no NaN or infinity)")
    return a, b


def lengths(lens: torch.Tensor | Any, batch: int, size: int, name: str) -> torch.Tensor:
    """Real tokens per pair as int64 (B,), each in [1, size]; `size` itself when None."""
    if lens is None:
        return torch.full((batch,), size, dtype=torch.int64)
    lens = torch.as_tensor(lens)
    if lens.is_floating_point() or lens.is_complex() or lens.dtype == torch.bool:
        raise ValueError(f"{name} must hold integers, got {lens.dtype}")
    if lens.shape != (batch,):
        raise ValueError(
            f"{name} has shape {shape_text(lens)} but one length per pair ({batch}) is needed"
        )
    if lens.numel() and (lens.min() < 1 or lens.max() > size):
        raise ValueError(f"{name} must lie in [1, {size}], got {lens.tolist()}")
    return lens.to(torch.int64)


def real(lens: torch.Tensor, size: int) -> torch.Tensor:
    return torch.arange(size) < lens[:, None]  # (B, size) True = a real token


def divisor(scale: Scale, size: int) -> float:
    """What e is divided by: 1 for "none", sqrt(size) for "sqrt_d", else the temperature."""
    if scale == "none":
        return 1.0
    if scale == "sqrt_d":
        return math.sqrt(size)
    if isinstance(scale, str) or not (math.isfinite(scale) and scale > 0):
        raise ValueError(f"scale must be 'none', 'sqrt_d' or a temperature > 0, got {scale!r}")
    return float(scale)


def attend(
    F_a: torch.Tensor,
    F_b: torch.Tensor,
    a: torch.Tensor,
    b: torch.Tensor,
    lens_a: torch.Tensor,
    lens_b: torch.Tensor,
    divide: float = 1.0,
) -> tuple[torch.Tensor, ...]:
    """(e, weights_beta, beta, weights_alpha, alpha): one score matrix, normalised once along
    each axis over the real tokens of the other sentence."""
    e = F_a @ F_b.transpose(1, 2)  # (B, la, lb)
    if divide != 1.0:
        e = e / divide
    return normalise(e, a, b, lens_a, lens_b)


def normalise(
    e: torch.Tensor, a: torch.Tensor, b: torch.Tensor, lens_a: torch.Tensor, lens_b: torch.Tensor
) -> tuple[torch.Tensor, ...]:
    """(e, weights_beta, beta, weights_alpha, alpha) from the scores e (B, la, lb)."""
    weights_beta = masked_softmax(e, valid_lens=lens_b, fill_value=FILL)  # (B, la, lb)
    beta = weights_beta @ b  # (B, la, d)
    weights_alpha = masked_softmax(e.transpose(1, 2), valid_lens=lens_a, fill_value=FILL)
    alpha = weights_alpha @ a  # (B, lb, d)
    return e, weights_beta, beta, weights_alpha, alpha


def cosine_scores(a: torch.Tensor, b: torch.Tensor, sharpness: torch.Tensor) -> torch.Tensor:
    """e_ij = k cos(a_i, b_j): (B, la, lb) from a (B, la, d), b (B, lb, d)."""
    unit_a = torch.nn.functional.normalize(a, dim=-1, eps=1e-8)  # (B, la, d)
    unit_b = torch.nn.functional.normalize(b, dim=-1, eps=1e-8)  # (B, lb, d)
    return sharpness * (unit_a @ unit_b.transpose(1, 2))  # (B, la, lb)


def mean_vectors(x: torch.Tensor, lens: torch.Tensor) -> torch.Tensor:
    """(B, d): each sentence's mean token vector over its real tokens."""
    return aggregate(x, lens) / lens[:, None].to(x.dtype)


def aggregate(compare: torch.Tensor, lens: torch.Tensor) -> torch.Tensor:
    """(B, g): the comparisons summed over the real tokens (padded rows are cut out here)."""
    return compare.masked_fill(~real(lens, compare.shape[1])[..., None], 0.0).sum(dim=1)


def mlp(inputs: int, hidden: int, dropout: float) -> nn.Sequential:
    """d2l's two-layer MLP: dropout, linear, ReLU, dropout, linear, ReLU."""
    return nn.Sequential(
        nn.Dropout(dropout),
        nn.Linear(inputs, hidden),
        nn.ReLU(),
        nn.Dropout(dropout),
        nn.Linear(hidden, hidden),
        nn.ReLU(),
    )


class DecomposableAttentionModel(nn.Module):
    """F, G, H and the output layer over token embeddings of size d; logits of LABELS.

    `align` "mlp" is the paper's attend step (F a learned MLP); "cosine" scores by the cosine of
    the embeddings times a learned sharpness k (from `sharpness`), and has no F. `pooled` adds the
    sentences' mean vectors to H's input.
    """

    def __init__(
        self,
        d: int,
        hidden: int = 200,
        dropout: float = 0.2,
        scale: Scale = "none",
        *,
        align: str = "mlp",
        pooled: bool = False,
        enhanced: bool = False,
        sharpness: float = SHARPNESS_START,
    ):
        super().__init__()
        divisor(scale, hidden)  # a bad scale fails here, not at the first batch
        if align not in ALIGNS:
            raise ValueError(f"align must be one of {', '.join(ALIGNS)}, got {align!r}")
        self.d, self.hidden, self.dropout, self.scale = d, hidden, dropout, scale
        self.align, self.pooled, self.enhanced = align, pooled, enhanced
        if align != "cosine":
            self.f = mlp(d, hidden, dropout)
        if align == "residual":
            last = nn.Linear(hidden, d)  # F(a) = W relu(...), added to a
            nn.init.zeros_(last.weight)  # training starts from the embeddings' own cosine
            nn.init.zeros_(last.bias)
            self.f.append(last)
        if align != "mlp":
            self.log_sharpness = nn.Parameter(torch.tensor(math.log(sharpness)))
        self.g = mlp((4 if enhanced else 2) * d, hidden, dropout)
        self.h = mlp(2 * hidden + (2 * d if pooled else 0), hidden, dropout)
        self.out = nn.Linear(hidden, len(LABELS))

    def scores(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        """e (B, la, lb) before any masking."""
        if self.align == "cosine":
            return cosine_scores(a, b, self.log_sharpness.exp())
        if self.align == "residual":
            return cosine_scores(a + self.f(a), b + self.f(b), self.log_sharpness.exp())
        e = self.f(a) @ self.f(b).transpose(1, 2)  # (B, la, lb)
        scale = divisor(self.scale, self.hidden)
        return e / scale if scale != 1.0 else e

    def pair(self, x: torch.Tensor, aligned: torch.Tensor) -> torch.Tensor:
        """G's input for each token: [x; its soft alignment] (the paper), or with `enhanced`
        also their difference and product, [x; x~; x - x~; x * x~] (Chen et al. 2017)."""
        if self.enhanced:
            return torch.cat([x, aligned, x - aligned, x * aligned], dim=-1)  # (B, l, 4d)
        return torch.cat([x, aligned], dim=-1)  # (B, l, 2d)

    def steps(
        self,
        a: torch.Tensor,
        b: torch.Tensor,
        lens_a: torch.Tensor,
        lens_b: torch.Tensor,
        keys: tuple[torch.Tensor, torch.Tensor] | None = None,
    ) -> tuple[Alignment, torch.Tensor]:
        """Every step for premises a (B, la, d) and hypotheses b (B, lb, d), and the logits.
        `keys`, vectors of the same tokens, are what e scores when given (a and b otherwise):
        the attend step can read one representation and compare another."""
        e, weights_beta, beta, weights_alpha, alpha = normalise(
            self.scores(*(keys or (a, b))), a, b, lens_a, lens_b
        )
        compare_a = self.g(self.pair(a, beta))  # (B, la, h)
        compare_b = self.g(self.pair(b, alpha))  # (B, lb, h)
        v_a, v_b = aggregate(compare_a, lens_a), aggregate(compare_b, lens_b)  # (B, h) each
        features = [v_a, v_b]
        if self.pooled:
            u, v = mean_vectors(a, lens_a), mean_vectors(b, lens_b)  # (B, d) each
            features += [(u - v).abs(), u * v]
        logits = self.out(self.h(torch.cat(features, dim=-1)))  # (B, 3)
        alignment = Alignment(
            e, weights_beta, beta, weights_alpha, alpha, compare_a, compare_b, v_a, v_b,
            lens_a, lens_b,
        )  # fmt: skip
        return alignment, logits

    def forward(
        self,
        a: torch.Tensor,
        b: torch.Tensor,
        lens_a: torch.Tensor,
        lens_b: torch.Tensor,
        keys: tuple[torch.Tensor, torch.Tensor] | None = None,
    ) -> torch.Tensor:
        """Logits (B, 3) from token embeddings; differentiable in a and b."""
        return self.steps(a, b, lens_a, lens_b, keys)[1]
