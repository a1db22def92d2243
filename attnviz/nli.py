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
- aggregate: v_A and v_B, the sums of the comparisons over the real tokens. The paper then
  feeds [v_A; v_B] to a classifier H; without trained weights that verdict would be noise, so
  it is left out.

F and G here are UNTRAINED, seeded one-layer MLPs: they show the mechanics of the model, not
whether a premise entails a hypothesis. Padding follows attnviz.attention: `valid_lens` into
`masked_softmax` with the textbook -1e6 fill.
"""

from __future__ import annotations

import hashlib
import io
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pandas as pd
import torch
import torch.nn.functional as F_nn

from attnviz.attention import _random, masked_softmax
from attnviz.i18n import t
from attnviz.parsing import InputError, _decode_csv

if TYPE_CHECKING:
    from attnviz.encoder import Encoder

F_CHOICES: tuple[str, ...] = ("identity", "mlp")
SOURCES: tuple[str, ...] = ("contextual", "static", "random")
MAX_PAIRS = 64
MAX_PAIRS_BYTES = 1_000_000  # an uploaded CSV
MAX_PAIRS_CHARS = 1_000_000  # pasted text
_FILL = -1e6  # d2l's padding fill, passed on to masked_softmax
_COSINE_EPS = 1e-8  # as F.cosine_similarity
# Splits are counted, not just found: "p \t h \t label" (an SNLI-style line) must not pass
# with "h \t label" as its hypothesis.
_PAIR_SEPARATOR = re.compile(r"\t|\|\|\|")


@dataclass(frozen=True)
class Alignment:
    """Every step of decomposable attention for a batch of padded (premise, hypothesis) pairs."""

    e: torch.Tensor  # (B, la, lb) e_ij = F(a_i)^T F(b_j)
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


def _shape(x: torch.Tensor) -> str:
    return "×".join(str(s) for s in x.shape)


def _check_pair(a: torch.Tensor, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """a and b as float tensors of one dtype, or a ValueError naming both shapes."""
    a, b = torch.as_tensor(a), torch.as_tensor(b)
    shapes = f"a is {_shape(a)} and b is {_shape(b)}"
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


def _lengths(lens: torch.Tensor | Any, batch: int, size: int, name: str) -> torch.Tensor:
    """Real tokens per pair as int64 (B,), each in [1, size]; `size` itself when None."""
    if lens is None:
        return torch.full((batch,), size, dtype=torch.int64)
    lens = torch.as_tensor(lens)
    if lens.is_floating_point() or lens.is_complex() or lens.dtype == torch.bool:
        raise ValueError(f"{name} must hold integers, got {lens.dtype}")
    if lens.shape != (batch,):
        raise ValueError(
            f"{name} has shape {_shape(lens)} but one length per pair ({batch}) is needed"
        )
    if lens.numel() and (lens.min() < 1 or lens.max() > size):
        raise ValueError(f"{name} must lie in [1, {size}], got {lens.tolist()}")
    return lens.to(torch.int64)


def _real(lens: torch.Tensor, size: int) -> torch.Tensor:
    return torch.arange(size) < lens[:, None]  # (B, size) True = a real token


def decomposable_attention(
    a: torch.Tensor,
    b: torch.Tensor,
    lens_a: torch.Tensor | None = None,
    lens_b: torch.Tensor | None = None,
    *,
    f: str = "identity",
    hidden: int = 64,
    seed: int = 0,
) -> Alignment:
    """Attend, compare and aggregate premises a (B, la, d) and hypotheses b (B, lb, d).

    F is the identity or relu(x W_f^T + c_f); G is relu([x; y] W_g^T + c_g). Their weights are
    drawn N(0, 1/fan_in) from `seed`, W_f then W_g, biases zero: UNTRAINED layers that show
    the mechanics, not a verdict. Rows of padded premise tokens are left as `masked_softmax`
    gives them; they never reach alpha or v_A.
    """
    if f not in F_CHOICES:
        raise ValueError(f"unknown F {f!r}: choose one of {', '.join(F_CHOICES)}")
    if hidden < 1:
        raise ValueError(f"hidden size must be at least 1, got {hidden}")
    a, b = _check_pair(a, b)  # (B, la, d), (B, lb, d)
    batch, la, d = a.shape
    lb = b.shape[1]
    lens_a = _lengths(lens_a, batch, la, "lens_a")  # (B,)
    lens_b = _lengths(lens_b, batch, lb, "lens_b")  # (B,)

    gen = torch.Generator().manual_seed(seed)
    # W_f is drawn even for the identity F, so that switching F leaves G's weights unchanged.
    W_f = _random(gen, (hidden, d), d).to(a.dtype)  # (h, d)
    W_g = _random(gen, (hidden, 2 * d), 2 * d).to(a.dtype)  # (g, 2d)
    c_f = torch.zeros(hidden, dtype=a.dtype)  # (h,)
    c_g = torch.zeros(hidden, dtype=a.dtype)  # (g,)
    params: dict[str, Any] = {"seed": seed, "hidden": hidden, "f": f, "W_g": W_g, "c_g": c_g}
    if f == "mlp":
        F_a = torch.relu(a @ W_f.T + c_f)  # (B, la, h)
        F_b = torch.relu(b @ W_f.T + c_f)  # (B, lb, h)
        params |= {"W_f": W_f, "c_f": c_f}
    else:
        F_a, F_b = a, b

    # Attend: one score matrix, normalised once along each axis.
    e = F_a @ F_b.transpose(1, 2)  # (B, la, lb)
    weights_beta = masked_softmax(e, valid_lens=lens_b, fill_value=_FILL)  # (B, la, lb)
    beta = weights_beta @ b  # (B, la, d)
    weights_alpha = masked_softmax(e.transpose(1, 2), valid_lens=lens_a, fill_value=_FILL)
    alpha = weights_alpha @ a  # (B, lb, d)

    # Compare: G sees each token beside what it was aligned to, not F's projection of it.
    compare_a = torch.relu(torch.cat([a, beta], dim=-1) @ W_g.T + c_g)  # (B, la, g)
    compare_b = torch.relu(torch.cat([b, alpha], dim=-1) @ W_g.T + c_g)  # (B, lb, g)

    # Aggregate: padded rows have real (if meaningless) comparisons, so they are cut out here.
    v_a = compare_a.masked_fill(~_real(lens_a, la)[..., None], 0.0).sum(dim=1)  # (B, g)
    v_b = compare_b.masked_fill(~_real(lens_b, lb)[..., None], 0.0).sum(dim=1)  # (B, g)
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
        raise ValueError(f"weights must be (pairs, rows, columns), got {_shape(weights)}")
    batch, r, c = weights.shape
    lens_rows = _lengths(lens_rows, batch, r, "lens_rows")  # (B,)
    lens_cols = _lengths(lens_cols, batch, c, "lens_cols")  # (B,)
    # -inf, not the -1e6 fill: a padded column must never win, whatever the weights hold.
    real = weights.masked_fill(~_real(lens_cols, c)[:, None, :], float("-inf"))  # (B, r, c)
    best = real.argmax(dim=-1)  # (B, r)
    return best.masked_fill(~_real(lens_rows, r), -1)


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
            f"weights of shape {_shape(weights_row)} do not cover {r} row tokens × {c} column "
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
    a, b = _check_pair(a, b)  # (B, la, d), (B, lb, d)
    batch, la, _ = a.shape
    lb = b.shape[1]
    lens_a = _lengths(lens_a, batch, la, "lens_a")  # (B,)
    lens_b = _lengths(lens_b, batch, lb, "lens_b")  # (B,)
    mean_a = a.masked_fill(~_real(lens_a, la)[..., None], 0.0).sum(1) / lens_a[:, None]  # (B, d)
    mean_b = b.masked_fill(~_real(lens_b, lb)[..., None], 0.0).sum(1) / lens_b[:, None]  # (B, d)
    return F_nn.cosine_similarity(mean_a, mean_b, dim=-1, eps=_COSINE_EPS)  # (B,)


def _text_seed(seed: int, text: str) -> int:
    """A generator seed from `seed` and the text (stable across runs, unlike hash())."""
    # One stream per sentence: a stream per call would give position k of premise 0 and of
    # hypothesis 0 the same vector, a diagonal alignment the baseline never had, and would
    # make a sentence's vectors depend on the batch around it.
    digest = hashlib.sha256(f"{seed}\0{text}".encode()).digest()
    return int.from_bytes(digest[:7], "little")


def sentence_embeddings(
    encoder: Encoder,
    sentences: list[str],
    *,
    source: str = "contextual",
    layer: int = -1,
    seed: int = 0,
    names: Sequence[str] | None = None,
) -> tuple[list[list[str]], torch.Tensor, torch.Tensor]:
    """Word-piece tokens, padded embeddings (N, L, d) (zeros at padding) and lengths (N,).

    Each sentence is encoded alone, so its embeddings have not seen any other sentence, and
    [CLS] / [SEP] are left out. `source`: "contextual" is MiniLM's hidden state at `layer`
    (0 = embedding output, -1 = last layer), "static" its word-embedding rows, and "random" a
    baseline of N(0, 1) vectors, one per token position, drawn from `seed` and the sentence's
    text: they carry no meaning, so any pattern they show comes from the mechanics alone.
    `names` name the sentences in the InputError of one the tokenizer cannot read.
    """
    if source not in SOURCES:
        raise ValueError(f"unknown source {source!r}: choose one of {', '.join(SOURCES)}")
    if not sentences:
        raise ValueError("no sentences to embed")
    layers = encoder.num_layers
    if not -(layers + 1) <= layer <= layers:
        raise ValueError(f"layer must lie in [{-(layers + 1)}, {layers}], got {layer}")

    encoded = encoder.encode_batch(list(sentences), names)
    tokens: list[list[str]] = []
    rows: list[torch.Tensor] = []
    for index, (text, enc) in enumerate(zip(sentences, encoded, strict=True), start=1):
        keep = [not special for special in enc.special]
        words = [tok for tok, kept in zip(enc.tokens, keep, strict=True) if kept]
        if not words:
            raise ValueError(f"sentence {index} has no word pieces besides [CLS] and [SEP]")
        kept_at = torch.tensor(keep)  # (T,) False at [CLS] / [SEP]
        if source == "contextual":
            rows.append(enc.hidden_states[layer][kept_at])  # (T - 2, d)
        elif source == "static":
            rows.append(enc.input_embeddings[kept_at])  # (T - 2, d)
        else:
            size = (len(words), enc.input_embeddings.shape[-1])
            gen = torch.Generator().manual_seed(_text_seed(seed, text))
            rows.append(torch.randn(size, generator=gen, dtype=enc.input_embeddings.dtype))
        tokens.append(words)

    lens = torch.tensor([len(words) for words in tokens], dtype=torch.int64)  # (N,)
    # pad_sequence fills with zeros, the padding the docstring promises.
    padded = torch.nn.utils.rnn.pad_sequence(rows, batch_first=True)  # (N, L, d)
    return tokens, padded, lens


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
) -> AlignedPairs:
    """The decomposable attention of a batch of pairs, each sentence embedded on its own."""
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
    alignment = decomposable_attention(a, b, lens_a, lens_b, f=f, seed=seed)
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
    if len(text) > MAX_PAIRS_CHARS:
        raise InputError("too_long", found=len(text), limit=MAX_PAIRS_CHARS)
    lines = [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise InputError("pairs_empty")
    # Counted before any line is split, so a huge paste fails on its size first.
    if len(lines) > MAX_PAIRS:
        raise InputError("too_many_pairs", found=len(lines), limit=MAX_PAIRS)
    pairs: list[tuple[str, str]] = []
    for number, line in lines:
        sides = _PAIR_SEPARATOR.split(line)
        if len(sides) == 1:
            raise InputError("pair_separator", line=number)
        if len(sides) > 2:
            raise InputError("pair_separators", line=number)
        premise, hypothesis = (side.strip() for side in sides)
        if not premise or not hypothesis:
            raise InputError("pair_empty", line=number)
        pairs.append((premise, hypothesis))
    return pairs


def load_pairs_csv(data: bytes) -> list[tuple[str, str]]:
    """(premise, hypothesis) pairs from a UTF-8 CSV with those columns (other columns ignored)."""
    if len(data) > MAX_PAIRS_BYTES:
        raise InputError("file_too_big", found=len(data), limit=MAX_PAIRS_BYTES)
    text = _decode_csv(data)
    if not text.strip():
        raise InputError("pairs_empty")
    try:
        with warnings.catch_warnings():
            # A first row longer than the header would otherwise shift silently: pandas makes
            # its extra leading fields an index (or, with index_col=False, drops the rest).
            warnings.simplefilter("error", pd.errors.ParserWarning)
            frame = pd.read_csv(
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
