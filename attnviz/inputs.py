"""The inputs of the attention pages: queries, keys and values with their axis labels, the
named examples (presets), and seeded random inputs.

Random entries are N(0, 1) from `torch.Generator().manual_seed(seed)`, so a seed in a link draws
the same matrices on every machine. Shape letters as in attnviz.attention: n queries, m keys,
d_q / d_k / d_v feature sizes, B sequences.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from attnviz.parsing import parse_matrix


@dataclass(frozen=True)
class QKV:
    """The inputs of one attention computation, with labels for the axes."""

    queries: torch.Tensor  # (n, d_q)
    keys: torch.Tensor  # (m, d_k)
    values: torch.Tensor  # (m, d_v)
    query_labels: list[str]
    key_labels: list[str]

    @classmethod
    def numbered(cls, queries: torch.Tensor, keys: torch.Tensor, values: torch.Tensor) -> QKV:
        """Inputs labelled q0, q1, ... and k0, k1, ..."""
        return cls(
            queries,
            keys,
            values,
            [f"q{i}" for i in range(queries.shape[0])],
            [f"k{j}" for j in range(keys.shape[0])],
        )


@dataclass(frozen=True)
class Preset:
    """A named example: the texts of Q, K and V ("" = self-attention) and the valid lengths."""

    label: str  # catalogue key
    queries: str
    keys: str
    values: str
    valid_lens: str = ""

    def qkv(self) -> QKV:
        """The example's matrices (self-attention where keys and values are empty)."""
        queries = parse_matrix(self.queries)
        keys = parse_matrix(self.keys) if self.keys else queries
        values = parse_matrix(self.values) if self.values else queries
        return QKV.numbered(queries, keys, values)


# The textbook's: d2l 11.3's scaled dot-product example for one sequence: ten identical keys,
# so the weights spread evenly over the two valid keys and the output is the mean of their values.
PRESETS: dict[str, Preset] = {
    "textbook": Preset(
        "input.preset.textbook",
        "0.5, -1.2",
        "\n".join(["1, 1"] * 10),
        "\n".join(f"{4 * i}, {4 * i + 1}, {4 * i + 2}, {4 * i + 3}" for i in range(10)),
        "2",
    ),
    "small": Preset(
        "input.preset.small",
        "1, 0\n0, 1\n1, 1",
        "1, 0\n0, 1\n-1, 0\n0.5, 0.5",
        "1, 0, 0\n0, 1, 0\n0, 0, 1\n1, 1, 1",
    ),
    "tokens": Preset(
        "input.preset.tokens", "1, 0.2, 0\n0.9, 0.1, 0.3\n0, 1, 0.5\n0.1, 0.8, 1", "", ""
    ),
}
DEFAULT_PRESET = "small"


def random_qkv(
    n: int, m: int, d_q: int, d_k: int, d_v: int, seed: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Queries (n, d_q), keys (m, d_k), values (m, d_v), drawn in that order."""
    gen = torch.Generator().manual_seed(seed)
    return (
        torch.randn(n, d_q, generator=gen),
        torch.randn(m, d_k, generator=gen),
        torch.randn(m, d_v, generator=gen),
    )


def random_batch(batch: int, m: int, d: int, seed: int) -> torch.Tensor:
    """Tokens X (B, m, d) of a padded batch: every position holds numbers, padding included."""
    gen = torch.Generator().manual_seed(seed)
    return torch.randn(batch, m, d, generator=gen)  # (B, m, d)
