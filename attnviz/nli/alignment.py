"""Decomposable attention for natural language inference: attend, compare, aggregate.

Parikh et al. 2016, "A Decomposable Attention Model for Natural Language Inference", as taught
in Zhang et al., Dive into Deep Learning, 16.5 (Natural Language Inference: Using Attention) and
Murphy, PML1 ch. 15 (its NLI alignment figure). Shape letters: B pairs, la premise (A) tokens,
lb hypothesis (B) tokens, d embedding size, h hidden size of F, g output size of G, N sentences,
L tokens of the longest sentence.

- attend: e_ij = F(a_i)^T F(b_j); beta_i = sum_j softmax_j(e_ij) b_j is the hypothesis
  soft-aligned to premise token i, alpha_j = sum_i softmax_i(e_ij) a_i the premise soft-aligned
  to hypothesis token j.
- compare: G([a_i; beta_i]) and G([b_j; alpha_j]).
- aggregate: v_A and v_B, the sums of the comparisons over the real tokens, and the classifier
  H on [v_A; v_B].

`decomposable_attention` runs attend, compare and aggregate through UNTRAINED, seeded one-layer
F and G: the mechanics, not a verdict. The trained classifier (`load_classifier`, its model in
attnviz.nli.model, its checkpoints in attnviz.nli.checkpoint, its training in
attnviz.nli.training) gives the verdict in LABELS order. Padding follows attnviz.attention:
`valid_lens` into `masked_softmax` with the textbook -1e6 fill.
"""

from __future__ import annotations

import io
import re
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pandas as pd
import torch
import torch.nn.functional as F_nn

from attnviz.attention import random_weights
from attnviz.i18n import t
from attnviz.nli.card import SCALES, SOURCES
from attnviz.nli.checkpoint import load_classifier
from attnviz.nli.classifier import Classifier
from attnviz.nli.data import LABELS, label_index
from attnviz.nli.model import (
    Alignment,
    Scale,
    aggregate,
    attend,
    check_pair,
    divisor,
    lengths,
    real,
    shape_text,
)
from attnviz.nli.vectors import sentence_embeddings
from attnviz.parsing import InputError, decode_csv

if TYPE_CHECKING:
    from attnviz.transformer.encoder import Encoder

# The public names of the classifier and the steps it shares, reached from here.
__all__ = [
    "F_CHOICES",
    "LABELS",
    "MAX_PAIRS",
    "MAX_PAIRS_BYTES",
    "MAX_PAIRS_CHARS",
    "SCALES",
    "SOURCES",
    "AlignedPairs",
    "Alignment",
    "Classifier",
    "align_pairs",
    "aligned_pairs",
    "decomposable_attention",
    "hard_alignment",
    "load_classifier",
    "load_labelled_pairs_csv",
    "load_pairs_csv",
    "orient",
    "parse_labelled_pairs",
    "parse_pairs",
    "sentence_embeddings",
    "sentence_similarity",
]

F_CHOICES: tuple[str, ...] = ("identity", "mlp")
MAX_PAIRS = 64
MAX_PAIRS_BYTES = 1_000_000  # an uploaded CSV
MAX_PAIRS_CHARS = 1_000_000  # pasted text
_COSINE_EPS = 1e-8  # as F.cosine_similarity
# Splits are counted, not just found: "p \t h \t label" (an SNLI-style line) must not pass
# with "h \t label" as its hypothesis.
_PAIR_SEPARATOR = re.compile(r"\t|\|\|\|")


def decomposable_attention(
    a: torch.Tensor,
    b: torch.Tensor,
    lens_a: torch.Tensor | None = None,
    lens_b: torch.Tensor | None = None,
    *,
    f: str = "identity",
    hidden: int = 64,
    seed: int = 0,
    scale: Scale = "none",
) -> Alignment:
    """Attend, compare and aggregate premises a (B, la, d) and hypotheses b (B, lb, d).

    F is the identity or relu(x W_f^T + c_f); G is relu([x; y] W_g^T + c_g). Their weights are
    drawn N(0, 1/fan_in) from `seed`, W_f then W_g, biases zero: UNTRAINED layers that show
    the mechanics, not a verdict. e is divided by `scale`: "none" (the paper), "sqrt_d" (the
    square root of F's output size: d for the identity, `hidden` for the MLP) or a temperature.
    Rows of padded premise tokens are left as `masked_softmax` gives them; they never reach
    alpha or v_A.
    """
    if f not in F_CHOICES:
        raise ValueError(f"unknown F {f!r}: choose one of {', '.join(F_CHOICES)}")
    if hidden < 1:
        raise ValueError(f"hidden size must be at least 1, got {hidden}")
    a, b = check_pair(a, b)  # (B, la, d), (B, lb, d)
    batch, la = a.shape[:2]
    lb = b.shape[1]
    lens_a = lengths(lens_a, batch, la, "lens_a")  # (B,)
    lens_b = lengths(lens_b, batch, lb, "lens_b")  # (B,)

    F_a, F_b, W_g, c_g, params = _untrained_layers(a, b, f, hidden, seed)  # F's outputs, G
    divide = divisor(scale, F_a.shape[-1])
    e, weights_beta, beta, weights_alpha, alpha = attend(F_a, F_b, a, b, lens_a, lens_b, divide)
    params["scale"] = scale

    # Compare: G sees each token beside what it was aligned to, not F's projection of it.
    compare_a = torch.relu(torch.cat([a, beta], dim=-1) @ W_g.T + c_g)  # (B, la, g)
    compare_b = torch.relu(torch.cat([b, alpha], dim=-1) @ W_g.T + c_g)  # (B, lb, g)

    v_a, v_b = aggregate(compare_a, lens_a), aggregate(compare_b, lens_b)  # (B, g) each
    return Alignment(
        e=e,
        weights_beta=weights_beta,
        beta=beta,
        weights_alpha=weights_alpha,  # (B, lb, la)
        alpha=alpha,
        compare_a=compare_a,
        compare_b=compare_b,
        v_a=v_a,
        v_b=v_b,
        lens_a=lens_a,
        lens_b=lens_b,
        params=params,
    )


def _untrained_layers(
    a: torch.Tensor, b: torch.Tensor, f: str, hidden: int, seed: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, dict[str, Any]]:
    """F applied to both sides ((B, la, h), (B, lb, h); a and b for the identity), G's W_g
    (g, 2d) and c_g (g,), and the parameters drawn, as `decomposable_attention` draws them."""
    d = a.shape[-1]
    gen = torch.Generator().manual_seed(seed)
    # W_f is drawn even for the identity F, so that switching F leaves G's weights unchanged.
    W_f = random_weights(gen, (hidden, d), d).to(a.dtype)  # (h, d)
    W_g = random_weights(gen, (hidden, 2 * d), 2 * d).to(a.dtype)  # (g, 2d)
    c_f = torch.zeros(hidden, dtype=a.dtype)  # (h,)
    c_g = torch.zeros(hidden, dtype=a.dtype)  # (g,)
    params: dict[str, Any] = {"seed": seed, "hidden": hidden, "f": f, "W_g": W_g, "c_g": c_g}
    if f == "mlp":
        F_a = torch.relu(a @ W_f.T + c_f)  # (B, la, h)
        F_b = torch.relu(b @ W_f.T + c_f)  # (B, lb, h)
        params |= {"W_f": W_f, "c_f": c_f}
    else:
        F_a, F_b = a, b
    return F_a, F_b, W_g, c_g, params


def orient(al: Alignment, hypothesis_rows: bool = True) -> tuple[torch.Tensor, torch.Tensor]:
    """(weights, e) with hypothesis tokens as rows (the textbook's view) or premise tokens."""
    if hypothesis_rows:
        return al.weights_alpha, al.e.transpose(1, 2)  # (B, lb, la) each
    return al.weights_beta, al.e  # (B, la, lb) each


def hard_alignment(
    weights: torch.Tensor, lens_rows: torch.Tensor, lens_cols: torch.Tensor
) -> torch.Tensor:
    """(B, r) int64: the argmax over the real columns of each real row, -1 for padded rows."""
    weights = torch.as_tensor(weights)
    if weights.ndim != 3:
        raise ValueError(f"weights must be (pairs, rows, columns), got {shape_text(weights)}")
    batch, r, c = weights.shape
    lens_rows = lengths(lens_rows, batch, r, "lens_rows")  # (B,)
    lens_cols = lengths(lens_cols, batch, c, "lens_cols")  # (B,)
    # -inf, not the -1e6 fill: a padded column must never win, whatever the weights hold.
    shown = weights.masked_fill(~real(lens_cols, c)[:, None, :], float("-inf"))  # (B, r, c)
    best = shown.argmax(dim=-1)  # (B, r)
    return best.masked_fill(~real(lens_rows, r), -1)


def aligned_pairs(
    weights_row: torch.Tensor, row_tokens: list[str], col_tokens: list[str]
) -> list[tuple[str, str, float]]:
    """For one pair's weights (r, c): each row token, its argmax column token and that weight.

    The weights may be padded: only the first len(row_tokens) rows and len(col_tokens) columns
    are read.
    """
    weights_row = torch.as_tensor(weights_row)
    r, c = len(row_tokens), len(col_tokens)
    if weights_row.ndim != 2 or weights_row.shape[0] < r or weights_row.shape[1] < c:
        raise ValueError(
            f"weights of shape {shape_text(weights_row)} do not cover {r} row tokens × {c} column "
            "tokens"
        )
    if c == 0:
        raise ValueError("there are no column tokens to align to")
    if r == 0:
        return []
    best, where = weights_row[:r, :c].max(dim=-1)  # (r,), (r,)
    return [
        (row_tokens[i], col_tokens[int(j)], float(w))
        for i, (j, w) in enumerate(zip(where.tolist(), best.tolist(), strict=True))
    ]


def sentence_similarity(
    a: torch.Tensor, b: torch.Tensor, lens_a: torch.Tensor, lens_b: torch.Tensor
) -> torch.Tensor:
    """(B,) cosine of the mean real-token embeddings: a similarity, not an entailment verdict."""
    a, b = check_pair(a, b)  # (B, la, d), (B, lb, d)
    batch, la, _ = a.shape
    lb = b.shape[1]
    lens_a = lengths(lens_a, batch, la, "lens_a")  # (B,)
    lens_b = lengths(lens_b, batch, lb, "lens_b")  # (B,)
    mean_a = a.masked_fill(~real(lens_a, la)[..., None], 0.0).sum(1) / lens_a[:, None]  # (B, d)
    mean_b = b.masked_fill(~real(lens_b, lb)[..., None], 0.0).sum(1) / lens_b[:, None]  # (B, d)
    return F_nn.cosine_similarity(mean_a, mean_b, dim=-1, eps=_COSINE_EPS)  # (B,)


@dataclass(frozen=True)
class AlignedPairs:
    """A batch of pairs: tokens (no [CLS]/[SEP]), alignment and sentence similarity."""

    premises: list[list[str]]
    hypotheses: list[list[str]]
    alignment: Alignment
    similarity: torch.Tensor  # (B,) cosine of mean-pooled embeddings: not a verdict


def align_pairs(
    encoder: Encoder,
    pairs: list[tuple[str, str]],
    *,
    source: str = "contextual",
    layer: int = -1,
    f: str = "identity",
    seed: int = 0,
    scale: Scale = "none",
) -> AlignedPairs:
    """The decomposable attention of a batch of pairs, each sentence embedded on its own
    (`scale` as in `decomposable_attention`)."""
    if not pairs:
        raise ValueError("no pairs to align")
    premises = [premise for premise, _ in pairs]
    hypotheses = [hypothesis for _, hypothesis in pairs]
    tokens_a, a, lens_a = sentence_embeddings(
        encoder, premises, source=source, layer=layer, seed=seed, names=_names("a", len(pairs))
    )  # (B, la, d)
    tokens_b, b, lens_b = sentence_embeddings(
        encoder, hypotheses, source=source, layer=layer, seed=seed, names=_names("b", len(pairs))
    )  # (B, lb, d)
    alignment = decomposable_attention(a, b, lens_a, lens_b, f=f, seed=seed, scale=scale)
    similarity = sentence_similarity(a, b, lens_a, lens_b)  # (B,)
    return AlignedPairs(tokens_a, tokens_b, alignment, similarity)


def _names(side: str, count: int) -> list[str]:
    """How messages name each premise (side "a") or hypothesis ("b") of `count` pairs."""
    name = t("nli.premise") if side == "a" else t("nli.hypothesis")
    if count == 1:
        return [name]
    return [t("nli.sentence_of_pair", side=name, pair=i) for i in range(1, count + 1)]


def parse_pairs(text: str) -> list[tuple[str, str]]:
    """(premise, hypothesis) pairs, one per line, split by a tab or '|||'; blank lines skipped."""
    return parse_labelled_pairs(text, labels_allowed=False)[0]


def parse_labelled_pairs(
    text: str, *, labels_allowed: bool = True
) -> tuple[list[tuple[str, str]], list[int | None]]:
    """Pairs as `parse_pairs` reads them, each line with an optional third field, its gold label
    (one of LABELS); the labels in LABELS order as indices, None where a line has none."""
    if len(text) > MAX_PAIRS_CHARS:
        raise InputError("too_long", found=len(text), limit=MAX_PAIRS_CHARS)
    lines = [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise InputError("pairs_empty")
    # Counted before any line is split, so a huge paste fails on its size first.
    if len(lines) > MAX_PAIRS:
        raise InputError("too_many_pairs", found=len(lines), limit=MAX_PAIRS)
    pairs: list[tuple[str, str]] = []
    labels: list[int | None] = []
    for number, line in lines:
        sides = [side.strip() for side in _PAIR_SEPARATOR.split(line)]
        if len(sides) == 1:
            raise InputError("pair_separator", line=number)
        if len(sides) > (3 if labels_allowed else 2):
            raise InputError("pair_separators", line=number)
        if not sides[0] or not sides[1]:
            raise InputError("pair_empty", line=number)
        pairs.append((sides[0], sides[1]))
        labels.append(_label(sides[2], f"line {number}") if len(sides) == 3 else None)
    return pairs, labels


def _label(text: str, where: str) -> int:
    index = label_index(text)
    if index is None:
        raise InputError("pair_label", where=where, value=text[:40], labels=", ".join(LABELS))
    return index


def load_pairs_csv(data: bytes) -> list[tuple[str, str]]:
    """(premise, hypothesis) pairs from a UTF-8 CSV with those columns (other columns ignored)."""
    return _csv_pairs(_pairs_frame(data))


def load_labelled_pairs_csv(data: bytes) -> tuple[list[tuple[str, str]], list[int | None]]:
    """Pairs from a CSV as `load_pairs_csv` reads them, with a `label` column when there is
    one (an empty cell: no gold label for that row)."""
    frame = _pairs_frame(data)
    pairs = _csv_pairs(frame)
    names = {str(name).strip().lower(): name for name in reversed(frame.columns)}
    if "label" not in names:
        return pairs, [None] * len(pairs)
    cells = [str(label) for label in frame[names["label"]].tolist()]
    return pairs, [_label(c, f"row {r}") if c.strip() else None for r, c in enumerate(cells, 1)]


def _csv_pairs(frame: pd.DataFrame) -> list[tuple[str, str]]:
    names = {str(name).strip().lower(): name for name in reversed(frame.columns)}
    if "premise" not in names or "hypothesis" not in names:
        found = ", ".join(repr(str(name)) for name in frame.columns)
        raise InputError("csv_columns", found=found)
    if frame.empty:
        raise InputError("pairs_empty")
    if len(frame) > MAX_PAIRS:
        raise InputError("too_many_pairs", found=len(frame), limit=MAX_PAIRS)
    pairs: list[tuple[str, str]] = []
    columns = frame[[names["premise"], names["hypothesis"]]].to_numpy(dtype=object)
    for row, (premise, hypothesis) in enumerate(columns, start=1):
        premise, hypothesis = str(premise).strip(), str(hypothesis).strip()
        if not premise or not hypothesis:
            raise InputError("csv_pair_empty", row=row)
        pairs.append((premise, hypothesis))
    return pairs


def _pairs_frame(data: bytes) -> pd.DataFrame:
    """A CSV's cells as text, exactly as written."""
    if len(data) > MAX_PAIRS_BYTES:
        raise InputError("file_too_big", found=len(data), limit=MAX_PAIRS_BYTES)
    text = decode_csv(data)
    if not text.strip():
        raise InputError("pairs_empty")
    try:
        with warnings.catch_warnings():
            # A first row longer than the header would otherwise shift silently: pandas makes
            # its extra leading fields an index (or, with index_col=False, drops the rest).
            warnings.simplefilter("error", pd.errors.ParserWarning)
            return pd.read_csv(
                io.StringIO(text),
                dtype=str,
                index_col=False,
                skip_blank_lines=True,
                # Keeps "" as "" (not NaN), and a hypothesis "NA" or "null" as written.
                na_filter=False,
            )
    except pd.errors.ParserWarning as exc:
        detail = "a row has more values than the header has names; quote values with commas"
        raise InputError("csv_unreadable", detail=detail) from exc
    except ValueError as exc:  # ParserError and EmptyDataError among them
        raise InputError("csv_unreadable", detail=str(exc)) from exc
