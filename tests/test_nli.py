"""Tests for `attnviz.nli`: decomposable attention against loops, padding, orientation,
hard alignment, the pair parsers, and the real MiniLM embeddings.

The references are written independently of the implementation: plain Python loops over
e_ij, both softmaxes, beta, alpha, G on the concatenations and the sums, in float64.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from attnviz.i18n import t
from attnviz.nli import (
    MAX_PAIRS,
    MAX_PAIRS_BYTES,
    SOURCES,
    Alignment,
    align_pairs,
    aligned_pairs,
    decomposable_attention,
    hard_alignment,
    load_pairs_csv,
    orient,
    parse_pairs,
    sentence_embeddings,
    sentence_similarity,
)
from attnviz.parsing import InputError
from attnviz.transformer.encoder import Encoder, load_encoder

PAIRS = [("I do need sleep", "I am tired"), ("A man is playing a guitar.", "A person plays music.")]


def randn(*shape: int, seed: int = 0, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    return torch.randn(shape, generator=torch.Generator().manual_seed(seed), dtype=dtype)


# --------------------------------------------------------------------------------------
# the reference: loops over every index, as the paper writes the sums
# --------------------------------------------------------------------------------------


def relu_layer(x: list[float], W: torch.Tensor) -> list[float]:
    """relu(W x) with a zero bias, one output at a time."""
    return [max(0.0, sum(float(W[o, k]) * x[k] for k in range(len(x)))) for o in range(len(W))]


def softmax(xs: list[float]) -> list[float]:
    top = max(xs)
    exps = [math.exp(x - top) for x in xs]
    return [x / sum(exps) for x in exps]


def reference(a: torch.Tensor, b: torch.Tensor, params: dict, f: str) -> dict[str, torch.Tensor]:
    """Decomposable attention of one unpadded pair a (la, d), b (lb, d) by loops."""
    A, Bs = a.double().tolist(), b.double().tolist()
    la, lb, d = len(A), len(Bs), len(A[0])
    if f == "mlp":
        FA = [relu_layer(x, params["W_f"].double()) for x in A]
        FB = [relu_layer(x, params["W_f"].double()) for x in Bs]
    else:
        FA, FB = A, Bs
    e = [
        [sum(p * q for p, q in zip(FA[i], FB[j], strict=True)) for j in range(lb)]
        for i in range(la)
    ]
    w_beta = [softmax(e[i]) for i in range(la)]  # over j
    w_alpha = [softmax([e[i][j] for i in range(la)]) for j in range(lb)]  # over i
    beta = [[sum(w_beta[i][j] * Bs[j][k] for j in range(lb)) for k in range(d)] for i in range(la)]
    alpha = [[sum(w_alpha[j][i] * A[i][k] for i in range(la)) for k in range(d)] for j in range(lb)]
    W_g = params["W_g"].double()
    comp_a = [relu_layer(A[i] + beta[i], W_g) for i in range(la)]
    comp_b = [relu_layer(Bs[j] + alpha[j], W_g) for j in range(lb)]
    v_a = [sum(row[o] for row in comp_a) for o in range(len(W_g))]
    v_b = [sum(row[o] for row in comp_b) for o in range(len(W_g))]
    out = {
        "e": e,
        "weights_beta": w_beta,
        "beta": beta,
        "weights_alpha": w_alpha,
        "alpha": alpha,
        "compare_a": comp_a,
        "compare_b": comp_b,
        "v_a": v_a,
        "v_b": v_b,
    }
    return {name: torch.tensor(value, dtype=torch.float64) for name, value in out.items()}


# --------------------------------------------------------------------------------------
# attend, compare, aggregate
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("f", ["identity", "mlp"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_matches_loops(f: str, dtype: torch.dtype) -> None:
    a = randn(2, 3, 4, seed=1, dtype=dtype)
    b = randn(2, 5, 4, seed=2, dtype=dtype)
    al = decomposable_attention(a, b, f=f, hidden=6, seed=3)
    tol = {"rtol": 1e-5, "atol": 1e-5} if dtype == torch.float32 else {}
    for p in range(2):
        ref = reference(a[p], b[p], al.params, f)
        for name, expected in ref.items():
            got = getattr(al, name)[p]
            assert got.dtype == dtype, name
            torch.testing.assert_close(got.double(), expected, **tol, msg=name)
    assert al.e.shape == (2, 3, 5) and al.weights_alpha.shape == (2, 5, 3)
    assert al.compare_a.shape == (2, 3, 6) and al.v_b.shape == (2, 6)
    assert al.lens_a.tolist() == [3, 3] and al.lens_b.tolist() == [5, 5]


def test_params_are_drawn_as_documented() -> None:
    d, hidden, seed = 4, 6, 11
    a, b = randn(1, 2, d, seed=1), randn(1, 3, d, seed=2)
    mlp = decomposable_attention(a, b, f="mlp", hidden=hidden, seed=seed).params
    identity = decomposable_attention(a, b, f="identity", hidden=hidden, seed=seed).params
    gen = torch.Generator().manual_seed(seed)
    W_f = torch.randn((hidden, d), generator=gen) / math.sqrt(d)
    W_g = torch.randn((hidden, 2 * d), generator=gen) / math.sqrt(2 * d)
    torch.testing.assert_close(mlp["W_f"], W_f)
    torch.testing.assert_close(mlp["W_g"], W_g)
    assert not mlp["c_f"].any() and not mlp["c_g"].any()
    # Switching F must not redraw G.
    torch.testing.assert_close(identity["W_g"], W_g)
    assert "W_f" not in identity and identity["seed"] == seed
    other = decomposable_attention(a, b, f="mlp", hidden=hidden, seed=seed + 1).params
    assert not torch.equal(other["W_g"], W_g)


def test_identity_f_gives_textbook_scores() -> None:
    a, b = randn(2, 3, 4, seed=5), randn(2, 2, 4, seed=6)
    al = decomposable_attention(a, b)
    torch.testing.assert_close(al.e, torch.einsum("bid,bjd->bij", a, b))
    torch.testing.assert_close(al.beta, torch.softmax(al.e, -1) @ b)
    torch.testing.assert_close(al.alpha, torch.softmax(al.e, 1).transpose(1, 2) @ a)


# --------------------------------------------------------------------------------------
# padding
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("f", ["identity", "mlp"])
def test_padding_is_invisible(f: str) -> None:
    lengths = [(3, 5), (2, 2), (4, 1)]
    d, la, lb = 3, 4, 5
    pieces = [
        (randn(n, d, seed=10 + k), randn(m, d, seed=20 + k)) for k, (n, m) in enumerate(lengths)
    ]
    # Large junk in the padding: exactly zero weights must keep it out of every real result.
    a = 100 * randn(len(lengths), la, d, seed=30)
    b = 100 * randn(len(lengths), lb, d, seed=31)
    for k, (x, y) in enumerate(pieces):
        a[k, : len(x)], b[k, : len(y)] = x, y
    lens_a = torch.tensor([n for n, _ in lengths])
    lens_b = torch.tensor([m for _, m in lengths])
    al = decomposable_attention(a, b, lens_a, lens_b, f=f, hidden=5, seed=2)
    for k, ((n, m), (x, y)) in enumerate(zip(lengths, pieces, strict=True)):
        assert (al.weights_beta[k, :, m:] == 0).all()
        assert (al.weights_alpha[k, :, n:] == 0).all()
        one = decomposable_attention(x[None], y[None], f=f, hidden=5, seed=2)
        torch.testing.assert_close(al.e[k, :n, :m], one.e[0])
        torch.testing.assert_close(al.weights_beta[k, :n, :m], one.weights_beta[0])
        torch.testing.assert_close(al.weights_alpha[k, :m, :n], one.weights_alpha[0])
        torch.testing.assert_close(al.beta[k, :n], one.beta[0])
        torch.testing.assert_close(al.alpha[k, :m], one.alpha[0])
        torch.testing.assert_close(al.compare_a[k, :n], one.compare_a[0])
        torch.testing.assert_close(al.compare_b[k, :m], one.compare_b[0])
        torch.testing.assert_close(al.v_a[k], one.v_a[0])
        torch.testing.assert_close(al.v_b[k], one.v_b[0])
    assert al.lens_a.tolist() == [3, 2, 4] and al.lens_b.tolist() == [5, 2, 1]


@settings(max_examples=40, deadline=None)
@given(
    lens=st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), min_size=1, max_size=4),
    seed=st.integers(0, 2**16),
    scale=st.sampled_from([1.0, 30.0]),
)
def test_rows_sum_to_one_and_padding_gets_zero(
    lens: list[tuple[int, int]], seed: int, scale: float
) -> None:
    la, lb = max(n for n, _ in lens), max(m for _, m in lens)
    a = scale * randn(len(lens), la, 8, seed=seed)
    b = scale * randn(len(lens), lb, 8, seed=seed + 1)
    lens_a = torch.tensor([n for n, _ in lens])
    lens_b = torch.tensor([m for _, m in lens])
    al = decomposable_attention(a, b, lens_a, lens_b, f="mlp", hidden=4, seed=seed)
    for k, (n, m) in enumerate(lens):
        torch.testing.assert_close(al.weights_beta[k, :n, :m].sum(-1), torch.ones(n))
        torch.testing.assert_close(al.weights_alpha[k, :m, :n].sum(-1), torch.ones(m))
        assert (al.weights_beta[k, :, m:] == 0).all() and (al.weights_alpha[k, :, n:] == 0).all()
    assert torch.isfinite(al.v_a).all() and torch.isfinite(al.v_b).all()


# --------------------------------------------------------------------------------------
# errors
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a_shape", "b_shape"),
    [((2, 3, 4), (3, 3, 4)), ((2, 3, 4), (2, 3, 5)), ((3, 4), (2, 3, 4)), ((2, 0, 4), (2, 3, 4))],
)
def test_shape_errors_name_both_shapes(a_shape: tuple[int, ...], b_shape: tuple[int, ...]) -> None:
    a_text, b_text = "×".join(map(str, a_shape)), "×".join(map(str, b_shape))
    with pytest.raises(ValueError, match=rf"a is {a_text} and b is {b_text}"):
        decomposable_attention(torch.zeros(a_shape), torch.zeros(b_shape))


@pytest.mark.parametrize(
    ("lens_a", "lens_b", "match"),
    [
        ([0, 3], None, r"lens_a must lie in \[1, 3\]"),
        ([3, 4], None, r"lens_a must lie in \[1, 3\]"),
        (None, [1, 6], r"lens_b must lie in \[1, 5\]"),
        ([1, 2, 3], None, "one length per pair"),
        (torch.tensor([1.0, 2.0]), None, "integers"),
    ],
)
def test_lens_errors(lens_a: Any, lens_b: Any, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        decomposable_attention(randn(2, 3, 4), randn(2, 5, 4), lens_a, lens_b)


def test_other_errors() -> None:
    a, b = randn(1, 2, 3), randn(1, 2, 3)
    with pytest.raises(ValueError, match="unknown F 'tanh'"):
        decomposable_attention(a, b, f="tanh")
    with pytest.raises(ValueError, match="hidden size"):
        decomposable_attention(a, b, hidden=0)
    with pytest.raises(ValueError, match="finite"):
        decomposable_attention(a, b.clone().fill_(math.nan))


# --------------------------------------------------------------------------------------
# orientation, hard alignment, aligned pairs, similarity
# --------------------------------------------------------------------------------------


def test_orient() -> None:
    a, b = randn(2, 4, 3, seed=7), randn(2, 3, 3, seed=8)
    lens_a, lens_b = torch.tensor([4, 2]), torch.tensor([3, 3])
    al = decomposable_attention(a, b, lens_a, lens_b)
    weights, e = orient(al, hypothesis_rows=True)
    assert weights is al.weights_alpha and weights.shape == (2, 3, 4)
    torch.testing.assert_close(e, al.e.transpose(1, 2))
    for k in range(2):
        n = int(lens_a[k])
        torch.testing.assert_close(weights[k, :, :n].sum(-1), torch.ones(3))
        # Hypothesis rows: each hypothesis token's softmax over the premise, i.e. over i of e.
        torch.testing.assert_close(weights[k, :, :n], torch.softmax(al.e[k, :n, :], dim=0).T)
    weights_b, e_b = orient(al, hypothesis_rows=False)
    assert weights_b is al.weights_beta and e_b is al.e
    assert not torch.allclose(weights[0], weights_b[0].T)


def test_hard_alignment() -> None:
    weights = torch.tensor(
        [
            [[0.1, 0.7, 0.2], [0.5, 0.1, 0.4], [0.3, 0.3, 0.4]],
            # Pair 2 has 2 real rows and 2 real columns: its padded column holds the largest
            # weight, which must not win, and its padded row is -1.
            [[0.4, 0.1, 0.9], [0.2, 0.3, 0.9], [0.9, 0.0, 0.0]],
        ]
    )
    hard = hard_alignment(weights, torch.tensor([3, 2]), torch.tensor([3, 2]))
    assert hard.dtype == torch.int64
    assert hard.tolist() == [[1, 0, 2], [0, 1, -1]]
    with pytest.raises(ValueError, match="lens_cols"):
        hard_alignment(weights, torch.tensor([3, 2]), torch.tensor([3, 4]))
    with pytest.raises(ValueError, match="pairs, rows, columns"):
        hard_alignment(weights[0], torch.tensor([3]), torch.tensor([3]))


def test_aligned_pairs() -> None:
    weights = torch.tensor([[0.1, 0.9, 0.0], [0.6, 0.4, 0.0], [0.5, 0.5, 0.0]])
    # Padded to 3 x 3; the tokens say 2 rows and 2 columns are real.
    pairs = aligned_pairs(weights, ["i", "am"], ["need", "sleep"])
    assert pairs == [("i", "sleep", pytest.approx(0.9)), ("am", "need", pytest.approx(0.6))]
    assert aligned_pairs(weights, [], ["x"]) == []
    with pytest.raises(ValueError, match="do not cover"):
        aligned_pairs(weights, ["a", "b", "c", "d"], ["x"])


def test_sentence_similarity() -> None:
    a, b = randn(2, 4, 3, seed=1), randn(2, 2, 3, seed=2)
    lens_a, lens_b = torch.tensor([4, 2]), torch.tensor([2, 1])
    a_junk = a.clone()
    a_junk[1, 2:] = 50.0  # padding must not count
    got = sentence_similarity(a_junk, b, lens_a, lens_b)
    for k in range(2):
        x = a[k, : lens_a[k]].mean(0)
        y = b[k, : lens_b[k]].mean(0)
        torch.testing.assert_close(got[k], x @ y / (x.norm() * y.norm()))
    same = sentence_similarity(a, a, lens_a, lens_a)
    torch.testing.assert_close(same, torch.ones(2))


# --------------------------------------------------------------------------------------
# parse_pairs and load_pairs_csv
# --------------------------------------------------------------------------------------


def test_parse_pairs() -> None:
    text = "I do need sleep ||| I am tired\n\n  \nA man plays.\tA person plays music.\nx|||y\n"
    assert parse_pairs(text) == [
        ("I do need sleep", "I am tired"),
        ("A man plays.", "A person plays music."),
        ("x", "y"),
    ]
    assert parse_pairs("\r\n".join(["a ||| b"] * MAX_PAIRS)) == [("a", "b")] * MAX_PAIRS


@pytest.mark.parametrize(
    ("text", "key", "values"),
    [
        ("a ||| b\n\nno separator here", "pair_separator", {"line": 3}),
        ("a ||| b ||| c", "pair_separators", {"line": 1}),
        ("premise\thypothesis\tentailment", "pair_separators", {"line": 1}),
        ("a ||| b\n ||| b", "pair_empty", {"line": 2}),
        ("a |||   ", "pair_empty", {"line": 1}),
        ("", "pairs_empty", {}),
        (" \n\n", "pairs_empty", {}),
        (
            "a ||| b\n" * (MAX_PAIRS + 1),
            "too_many_pairs",
            {"found": MAX_PAIRS + 1, "limit": MAX_PAIRS},
        ),
        ("a" * 1_000_001, "too_long", {"found": 1_000_001, "limit": 1_000_000}),
    ],
)
def test_parse_pairs_errors(text: str, key: str, values: dict[str, int]) -> None:
    with pytest.raises(InputError) as info:
        parse_pairs(text)
    assert info.value.key == key and info.value.values == values
    assert str(info.value) == t("parse." + key, **values)


def test_pair_messages_read_well() -> None:
    with pytest.raises(InputError, match=r"Line 2: no tab or ' \|\|\| ' between"):
        parse_pairs("a ||| b\nc")
    with pytest.raises(InputError, match="65 pairs: at most 64"):
        parse_pairs("a\tb\n" * 65)


def test_load_pairs_csv() -> None:
    data = (
        b' Premise ,HYPOTHESIS,label\n"A man, tall, plays.",A person plays.,entailment\n'
        b"I do need sleep,I am tired,neutral\nNA,null,x\n"
    )
    assert load_pairs_csv(data) == [
        ("A man, tall, plays.", "A person plays."),
        ("I do need sleep", "I am tired"),
        ("NA", "null"),
    ]
    # A byte-order mark (Excel's UTF-8) is not part of the first column's name.
    assert load_pairs_csv(b"\xef\xbb\xbfpremise,hypothesis\nx,y\n") == [("x", "y")]
    assert load_pairs_csv("premise,hypothesis\nnaïve,café\n".encode()) == [("naïve", "café")]


@pytest.mark.parametrize(
    ("data", "key"),
    [
        (b"text,claim\na,b\n", "csv_columns"),
        (b"a,b\nc,d\n", "csv_columns"),
        (b"premise,hypothesis\nx,y\n,z\n", "csv_pair_empty"),
        (b"premise,hypothesis\nx,  \n", "csv_pair_empty"),
        (b"premise,hypothesis\nx\n", "csv_pair_empty"),
        (b"premise,hypothesis\n", "pairs_empty"),
        (b"", "pairs_empty"),
        ("premise,hypothesis\ncaf\xe9,b\n".encode("latin-1"), "csv_not_text"),
        (b"premise,hypothesis\na,b,c,d\n", "csv_unreadable"),
        (b"premise,hypothesis\nx,y\na,b,c\n", "csv_unreadable"),
        (b"premise,hypothesis\n" + b"a,b\n" * (MAX_PAIRS + 1), "too_many_pairs"),
        (b"premise,hypothesis\n" + b"a" * MAX_PAIRS_BYTES, "file_too_big"),
    ],
)
def test_load_pairs_csv_errors(data: bytes, key: str) -> None:
    with pytest.raises(InputError) as info:
        load_pairs_csv(data)
    assert info.value.key == key
    str(info.value)  # renders without a missing placeholder


def test_csv_messages_read_well() -> None:
    with pytest.raises(
        InputError, match=r"needs the columns premise and hypothesis; it has 'a', 'b'"
    ):
        load_pairs_csv(b"a,b\nc,d\n")
    with pytest.raises(InputError, match=r"^Row 2 of the CSV"):
        load_pairs_csv(b"premise,hypothesis\nx,y\n,z\n")


# --------------------------------------------------------------------------------------
# the real model
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def encoder() -> Encoder:
    return load_encoder()


def test_sentence_embeddings_drop_specials(encoder: Encoder) -> None:
    sentences = ["I do need sleep", "A man is playing a guitar."]
    tokens, x, lens = sentence_embeddings(encoder, sentences)
    assert tokens == [
        ["i", "do", "need", "sleep"],
        ["a", "man", "is", "playing", "a", "guitar", "."],
    ]
    assert lens.tolist() == [4, 7] and lens.dtype == torch.int64
    assert x.shape == (2, 7, encoder.hidden_size)
    assert (x[0, 4:] == 0).all()
    static = sentence_embeddings(encoder, sentences, source="static")[1]
    first = sentence_embeddings(encoder, sentences, layer=0)[1]
    # Each sentence as if encoded alone: one unpadded forward pass of it, specials cut off.
    for k, sentence in enumerate(sentences):
        alone = encoder.encode(sentence)
        n = int(lens[k])
        torch.testing.assert_close(x[k, :n], alone.hidden_states[-1][1:-1], rtol=1e-4, atol=1e-5)
        torch.testing.assert_close(static[k, :n], alone.input_embeddings[1:-1])
        torch.testing.assert_close(first[k, :n], alone.hidden_states[0][1:-1], rtol=1e-4, atol=1e-5)
    assert not torch.allclose(first, x)


def test_sentence_embeddings_sources_and_errors(encoder: Encoder) -> None:
    sentences = ["I am tired", "I am tired too"]
    random = sentence_embeddings(encoder, sentences, source="random", seed=4)[1]
    again = sentence_embeddings(encoder, sentences[::-1], source="random", seed=4)[1]
    # The same sentence gets the same vectors in any batch; two sentences never share them.
    torch.testing.assert_close(random[0, :3], again[1, :3])
    assert not torch.equal(random[0, :3], random[1, :3])
    assert not torch.equal(random, sentence_embeddings(encoder, sentences, source="random")[1])
    assert (random[0, 3:] == 0).all()
    last = sentence_embeddings(encoder, sentences, layer=encoder.num_layers)[1]
    torch.testing.assert_close(last, sentence_embeddings(encoder, sentences)[1])
    with pytest.raises(ValueError, match="layer must lie in"):
        sentence_embeddings(encoder, sentences, layer=encoder.num_layers + 1)
    with pytest.raises(ValueError, match="unknown source"):
        sentence_embeddings(encoder, sentences, source="glove")
    with pytest.raises(ValueError):
        sentence_embeddings(encoder, ["fine", "   "])


def test_align_pairs(encoder: Encoder) -> None:
    batch = align_pairs(encoder, PAIRS)
    premises, hypotheses, al = batch.premises, batch.hypotheses, batch.alignment
    assert isinstance(al, Alignment)
    assert premises == [
        ["i", "do", "need", "sleep"],
        ["a", "man", "is", "playing", "a", "guitar", "."],
    ]
    assert hypotheses == [["i", "am", "tired"], ["a", "person", "plays", "music", "."]]
    assert al.e.shape == (2, 7, 5) and al.lens_a.tolist() == [4, 7] and al.lens_b.tolist() == [3, 5]
    for k in range(2):
        n, m = len(premises[k]), len(hypotheses[k])
        torch.testing.assert_close(al.weights_alpha[k, :m, :n].sum(-1), torch.ones(m))
        torch.testing.assert_close(al.weights_beta[k, :n, :m].sum(-1), torch.ones(n))
        assert (al.weights_alpha[k, :, n:] == 0).all() and (al.weights_beta[k, :, m:] == 0).all()
    # Each pair as if aligned alone.
    alone = align_pairs(encoder, PAIRS[:1]).alignment
    torch.testing.assert_close(al.e[0, :4, :3], alone.e[0], rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(
        al.weights_alpha[0, :3, :4], alone.weights_alpha[0], atol=1e-4, rtol=0
    )
    # The textbook's aligned pairs read out of the hypothesis rows.
    pairs = aligned_pairs(orient(al)[0][0], hypotheses[0], premises[0])
    # Similarity is the cosine of the mean-pooled embeddings of each pair.
    _, a, lens_a = sentence_embeddings(encoder, [p for p, _ in PAIRS])
    _, b, lens_b = sentence_embeddings(encoder, [h for _, h in PAIRS])
    torch.testing.assert_close(batch.similarity, sentence_similarity(a, b, lens_a, lens_b))
    assert [row for row, _, _ in pairs] == ["i", "am", "tired"]


def test_sources_give_different_alignments(encoder: Encoder) -> None:
    scores = {source: align_pairs(encoder, PAIRS, source=source).alignment.e for source in SOURCES}
    for first, second in [("contextual", "static"), ("contextual", "random"), ("static", "random")]:
        assert not torch.allclose(scores[first], scores[second]), (first, second)
    mlp = align_pairs(encoder, PAIRS, f="mlp").alignment
    assert not torch.allclose(mlp.e, scores["contextual"])
