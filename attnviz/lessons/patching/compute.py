"""The patching page's numbers: its examples, the four grids of one run, where the prompts
differ and the heads ranked (attnviz.transformer.patching does the patching)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import torch

from attnviz.transformer import patching

if TYPE_CHECKING:
    from attnviz.transformer.encoder import Encoder


@dataclass(frozen=True)
class Example:
    clean: str
    corrupted: str
    answer: str
    wrong: str


EXAMPLES = {
    "ioi": Example(
        "When Mary and John went to the store, John gave a drink to",
        "When Mary and John went to the store, Mary gave a drink to",
        " Mary",
        " John",
    ),
    "paris": Example(
        "The Eiffel Tower is in the city of", "The Colosseum is in the city of", " Paris", " Rome"
    ),
}
SITES = ("residual", "attention", "mlp")  # the layers x positions grids, in the page's order
GRIDS = ("head", *SITES)  # the order a run computes them in


@dataclass(frozen=True)
class Patched:
    """One run: both logit differences, the (L, H) heads grid and each (L, T) site grid (a run
    that Stop cut short: the site grids finished before it)."""

    ld_clean: float
    ld_corrupted: float
    heads: torch.Tensor  # (L, H)
    sites: dict[str, torch.Tensor]  # SITES -> (L, T)

    @property
    def complete(self) -> bool:
        return set(self.sites) == set(SITES)


GRID_FUNCTIONS: dict[str, str] = {
    "head": "head_patching",
    "residual": "residual_patching",
    "attention": "attention_patching",
    "mlp": "mlp_patching",
}


def patch_all(
    encoder: Encoder,
    example: Example,
    *,
    progress: Callable[[str, float], None],
    stop: Callable[[], bool],
    finished: Callable[[Patched], None] | None = None,
) -> Patched | None:
    """Every grid of `example` on `encoder`: `progress(grid, share of the whole run)`, and
    `finished(the run so far)` after each grid from the heads' on; None when `stop()` ended it
    early (a grid it cut short is not kept). InputError as the backend gives."""
    ld_clean, ld_corrupted = patching.logit_differences(
        encoder, example.clean, example.corrupted, answer=example.answer, wrong=example.wrong
    )
    grids = {}
    for index, kind in enumerate(GRIDS):
        grid = getattr(patching, GRID_FUNCTIONS[kind])(
            encoder, example.clean, example.corrupted, answer=example.answer,
            wrong=example.wrong, stop=stop,
            progress=lambda share, i=index, k=kind: progress(k, (i + share) / len(GRIDS)),
        )  # fmt: skip
        if stop() or bool(torch.isnan(grid).any()):
            return None
        grids[kind] = grid
        if finished is not None:
            finished(_patched(ld_clean, ld_corrupted, grids))
    return _patched(ld_clean, ld_corrupted, grids)


def _patched(ld_clean: float, ld_corrupted: float, grids: dict[str, torch.Tensor]) -> Patched:
    sites = {kind: grid for kind, grid in grids.items() if kind != "head"}
    return Patched(ld_clean, ld_corrupted, grids["head"], sites)


def differing(clean: Sequence[int], corrupted: Sequence[int]) -> list[int]:
    """The positions where the two token id lists differ (a position only one has counts)."""
    shared = [i for i, (a, b) in enumerate(zip(clean, corrupted, strict=False)) if a != b]
    return shared + list(range(min(len(clean), len(corrupted)), max(len(clean), len(corrupted))))


def top_heads(heads: torch.Tensor, count: int) -> list[tuple[int, int, float]]:
    """The `count` heads with the largest share recovered: (layer, head, share), best first."""
    order = heads.flatten().argsort(descending=True)[:count].tolist()
    width = heads.shape[1]
    return [(*divmod(int(i), width), float(heads.flatten()[i])) for i in order]


def bound(*grids: torch.Tensor) -> float:
    """The colour scale's half width: the largest |share| shown, at least 1 so that 1 is on it."""
    largest = max((float(g.abs().max()) for g in grids if g.numel()), default=1.0)
    return max(1.0, largest if math.isfinite(largest) else 1.0)
