"""Bad input, table-driven: every input the app takes gets a clear message, never a trace.

The parsers (typed text, CSV and .npy uploads, valid lengths, batches of pairs), the backend
(fully masked rows, huge logits), the sentence path through the real MiniLM, then the pages
through AppTest: the message is shown, the page keeps working and the input stays as typed.
"""

from __future__ import annotations

import io
import json
import math
import pickle
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
import torch
from streamlit.testing.v1 import AppTest

from attnviz import inputs as examples
from attnviz import nli
from attnviz.app import matrix_input as inputs
from attnviz.attention import SCORES, attend, causal_mask, masked_softmax
from attnviz.lessons.nli import view as nli_view
from attnviz.parsing import (
    MAX_FILE_BYTES,
    MAX_TEXT_CHARS,
    InputError,
    load_csv,
    load_npy,
    parse_matrix,
    parse_valid_lens,
)
from tests import english as en
from tests.app.test_links import PLAYGROUND, open_with
from tests.apptest import open_page
from tests.plotly_data import decode, figure_json

if TYPE_CHECKING:
    from attnviz.transformer.encoder import Encoder

NLI_PAGE = "pages/7_NLI_alignment.py"


# --------------------------------------------------------------------------------------
# Nasty files, built here
# --------------------------------------------------------------------------------------


def _npy(array: np.ndarray, *, allow_pickle: bool = False) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=allow_pickle)
    return buffer.getvalue()


def _npy_header(shape: tuple[int, ...], descr: str = "<f8") -> bytes:
    """A bare .npy header declaring `shape`, with no data behind it (a forged file)."""
    buffer = io.BytesIO()
    header = {"descr": descr, "fortran_order": False, "shape": shape}
    np.lib.format.write_array_header_1_0(buffer, header)  # type: ignore[no-untyped-call]
    return buffer.getvalue()


PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10" + bytes(range(256))
ZIP = b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + b"1,2\n"  # an .xlsx begins like this
GOOD_NPY = _npy(np.arange(12, dtype=np.float64).reshape(3, 4))


# --------------------------------------------------------------------------------------
# Typed / pasted matrices
# --------------------------------------------------------------------------------------

TEXT_REFUSED = [
    pytest.param("", "empty", "The text is empty", id="empty"),
    pytest.param(" \t\n \n", "empty", "The text is empty", id="whitespace-only"),
    pytest.param("\u3000\n\u00a0", "empty", "The text is empty", id="unicode-spaces-only"),
    pytest.param("1 2 3\n4 5", "ragged_rows", "Row 2 has 2 values but row 1 has 3", id="ragged"),
    pytest.param("1, 2,\n3, 4,", "empty_value", "Row 1, column 3 is empty", id="trailing-comma"),
    pytest.param(",1, 2", "empty_value", "Row 1, column 1 is empty", id="leading-comma"),
    pytest.param("1,,2", "empty_value", "Row 1, column 2 is empty", id="double-comma"),
    pytest.param(
        "1,5 2\n3 4", "ragged_rows", "Row 2 has 2 values but row 1 has 3", id="decimal-commas"
    ),
    pytest.param("1 NA", "not_a_number", "'NA' is not a number", id="NA"),
    pytest.param("1 null", "not_a_number", "'null' is not a number", id="null"),
    pytest.param("1 nan", "not_finite", "'nan' is not a finite number", id="nan"),
    pytest.param("1\n-inf", "not_finite", "Row 2, column 1: '-inf'", id="inf"),
    pytest.param("1 1e309", "too_large", "'1e309' is beyond the float32 range", id="1e309"),
    pytest.param("1 " + "9" * 5000, "too_large", "…' is beyond the float32", id="5000-digits"),
    pytest.param("1 2\u200b", "not_a_number", r"'2\u200b' is not a number", id="zero-width"),
    pytest.param("1 ٣", "not_a_number", "'٣' is not a number", id="arabic-digit"),
    pytest.param("1 ２", "not_a_number", "'２' is not a number", id="fullwidth-digit"),
    pytest.param("a,b\n1,2", "not_a_number", "Row 1, column 1: 'a'", id="header-row"),
    pytest.param("1 2**8", "not_a_number", "'2**8' is not a number", id="expression"),
]

TEXT_ACCEPTED = [
    pytest.param("1,2;3,4;", [[1, 2], [3, 4]], id="trailing-semicolon"),
    pytest.param("1 2\n3 4\n\n\n", [[1, 2], [3, 4]], id="trailing-newlines"),
    pytest.param("\ufeff1, 2\n3, 4", [[1, 2], [3, 4]], id="bom"),
    pytest.param("1\u00a02", [[1, 2]], id="no-break-space"),
    pytest.param("1,5 2,25", [[1, 5, 2, 25]], id="decimal-commas-are-separators"),
    pytest.param("-0 1e-50", [[0, 0]], id="underflow-to-zero"),
]


@pytest.mark.parametrize(("text", "key", "fragment"), TEXT_REFUSED)
def test_typed_matrix_refused(text: str, key: str, fragment: str) -> None:
    with pytest.raises(InputError) as info:
        parse_matrix(text)
    assert info.value.key == key
    assert fragment in str(info.value)
    assert len(str(info.value)) < 300  # a 5,000-digit token is shortened


@pytest.mark.parametrize(("text", "expected"), TEXT_ACCEPTED)
def test_typed_matrix_accepted(text: str, expected: list[list[float]]) -> None:
    assert torch.equal(parse_matrix(text), torch.tensor(expected, dtype=torch.float32))


def _square_paste(size: int) -> str:
    row = " ".join(["1"] * size)
    return "\n".join([row] * size)


# Pastes too big to show: each is refused by its length before any value is split.
HUGE_PASTES: list[Any] = [
    pytest.param(lambda: _square_paste(10_000), id="10000x10000"),
    pytest.param(lambda: " ".join(["1"] * 10_000_000), id="1x10^7-row"),
    pytest.param(lambda: "1.25, " * (25_000_000 // 6), id="25MB"),
]


@pytest.mark.parametrize("make", HUGE_PASTES)
def test_huge_paste_is_refused_by_its_length(make: Callable[[], str]) -> None:
    text = make()
    with pytest.raises(InputError) as info:
        parse_matrix(text)
    assert info.value.key == "too_long"
    assert info.value.values == {"found": len(text), "limit": MAX_TEXT_CHARS}


@pytest.mark.parametrize(
    ("text", "key"),
    [
        pytest.param("\n".join(["1"] * 300), "too_many_rows", id="300-rows"),
        pytest.param(" ".join(["1"] * 300), "too_many_cols", id="300-cols"),
        pytest.param("x\n" * 300, "too_many_rows", id="rows-counted-before-values"),
    ],
)
def test_too_many_rows_or_columns(text: str, key: str) -> None:
    with pytest.raises(InputError) as info:
        parse_matrix(text)
    assert info.value.key == key
    assert "300" in str(info.value)


# --------------------------------------------------------------------------------------
# CSV uploads
# --------------------------------------------------------------------------------------

CSV_REFUSED = [
    pytest.param(b"", "empty", "empty", id="empty"),
    pytest.param(b" \r\n\t\n", "empty", "empty", id="whitespace-only"),
    pytest.param(b"\xef\xbb\xbf", "empty", "empty", id="bom-only"),
    pytest.param(b"1;5,2\n3;4\n", "csv_semicolon", "';' between values", id="semicolons"),
    pytest.param(b"1,5;2,25\n3,5;4,0\n", "csv_semicolon", "decimal mark", id="decimal-commas"),
    pytest.param(b"a,b\n1,2\n", "csv_header", "looks like a header ('a')", id="header"),
    pytest.param(b"1,2\n3\n", "ragged_rows", "Row 2 has 1 values", id="ragged"),
    pytest.param(b"1,2,\n3,4,\n", "empty_value", "Row 1, column 3 is empty", id="trailing-comma"),
    pytest.param(b"1,NA\n", "not_a_number", "'NA' is not a number", id="NA"),
    pytest.param(b"1,nan\n", "not_finite", "'nan' is not a finite", id="nan"),
    pytest.param(b"1,inf\n", "not_finite", "'inf' is not a finite", id="inf"),
    pytest.param(b"1,1e309\n", "too_large", "'1e309' is beyond", id="1e309"),
    pytest.param(b"1," + b"7" * 5000 + b"\n", "too_large", "…' is beyond", id="5000-digits"),
    pytest.param("1,é\n".encode("latin-1"), "csv_not_text", "byte 0xe9 at", id="latin-1"),
    pytest.param("1,2\n".encode("utf-16"), "csv_not_text", "byte 0xff at", id="utf-16"),
    pytest.param(PNG, "csv_not_text", "byte 0x89 at position 0", id="png-renamed"),
    pytest.param(ZIP, "csv_not_text", "byte 0x00 at position 5", id="zip-renamed"),
    pytest.param(GOOD_NPY, "csv_not_text", "binary file", id="npy-renamed"),
    pytest.param(b"1\n" * 10_000, "too_many_rows", "10000 rows", id="10000-rows"),
    pytest.param(b"1," * 300 + b"1\n", "too_many_cols", "301 columns", id="301-cols"),
    pytest.param(b"1" * (MAX_FILE_BYTES + 1), "file_too_big", "bytes", id="too-big"),
]


@pytest.mark.parametrize(("data", "key", "fragment"), CSV_REFUSED)
def test_csv_refused(data: bytes, key: str, fragment: str) -> None:
    with pytest.raises(InputError) as info:
        load_csv(data)
    assert info.value.key == key
    assert fragment in str(info.value)
    assert len(str(info.value)) < 300


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        pytest.param(b"\xef\xbb\xbf1,2\r\n3,4\r\n", [[1, 2], [3, 4]], id="bom-crlf"),
        pytest.param(b'"1","2"\n"3","4"\n', [[1, 2], [3, 4]], id="quoted"),
        pytest.param(b"1,2\n\n3,4\n\n", [[1, 2], [3, 4]], id="blank-lines"),
    ],
)
def test_csv_accepted(data: bytes, expected: list[list[float]]) -> None:
    assert torch.equal(load_csv(data), torch.tensor(expected, dtype=torch.float32))


# --------------------------------------------------------------------------------------
# .npy uploads
# --------------------------------------------------------------------------------------

NPY_REFUSED = [
    pytest.param(
        _npy(np.array([[1, None]], dtype=object), allow_pickle=True),
        "npy_dtype",
        "holds object data",
        id="object-dtype",
    ),
    pytest.param(pickle.dumps([[1.0, 2.0]]), "npy_unreadable", "magic string", id="pickle"),
    pytest.param(GOOD_NPY[:-7], "npy_unreadable", "but 89 follow", id="truncated-data"),
    pytest.param(GOOD_NPY[:30], "npy_unreadable", "could not be read", id="truncated-header"),
    pytest.param(b"", "npy_unreadable", "could not be read", id="empty-file"),
    pytest.param(b"1,2\n3,4\n", "npy_unreadable", "magic string", id="csv-renamed"),
    pytest.param(_npy_header((100_000, 10_000)), "too_many_rows", "100000 rows", id="1e9-shape"),
    pytest.param(_npy_header((1, 10**9)), "too_many_cols", "1000000000 col", id="1e9-row"),
    pytest.param(_npy_header((-1, 4)), "npy_unreadable", "(-1, 4)", id="negative-shape"),
    pytest.param(_npy_header((4, 4)), "npy_unreadable", "but 0 follow", id="no-data"),
    pytest.param(_npy(np.ones((2, 2, 2))), "npy_ndim", "3-D array of shape (2, 2, 2)", id="3-D"),
    pytest.param(_npy(np.ones(3)), "npy_ndim", "1-D", id="1-D"),
    pytest.param(_npy(np.float64(1.0)), "npy_ndim", "0-D", id="0-D"),
    pytest.param(_npy(np.ones((2, 2), complex)), "npy_dtype", "complex128", id="complex"),
    pytest.param(_npy(np.array([["a"]])), "npy_dtype", "<U1", id="strings"),
    pytest.param(
        _npy(np.zeros((2, 2), dtype=[("a", "<f4")])), "npy_dtype", "('a'", id="structured"
    ),
    pytest.param(
        _npy(np.array([["2020-01-01"]], dtype="datetime64[D]")),
        "npy_dtype",
        "datetime64",
        id="datetime",
    ),
    pytest.param(_npy(np.zeros((0, 3))), "empty", "empty", id="no-rows"),
    pytest.param(_npy(np.array([[1.0, np.nan]])), "not_finite", "column 2", id="nan"),
    pytest.param(_npy(np.array([[np.inf]])), "not_finite", "'inf'", id="inf"),
    pytest.param(_npy(np.array([[1e300]])), "too_large", "float32 range", id="1e300-float64"),
]


@pytest.mark.parametrize(("data", "key", "fragment"), NPY_REFUSED)
def test_npy_refused(data: bytes, key: str, fragment: str) -> None:
    with pytest.raises(InputError) as info:
        load_npy(data)
    assert info.value.key == key
    assert fragment in str(info.value)


def test_forged_npy_shape_is_refused_before_any_allocation(monkeypatch: Any) -> None:
    def no_load(*args: object, **kwargs: object) -> None:
        raise AssertionError("np.load must not be reached for a forged header")

    monkeypatch.setattr(np, "load", no_load)
    with pytest.raises(InputError, match="100000 rows") as info:
        load_npy(_npy_header((100_000, 10_000)) + b"\x00" * 64)
    assert info.value.key == "too_many_rows"


@pytest.mark.parametrize(
    ("array", "expected"),
    [
        # Booleans are accepted as 0 / 1: a saved mask or one-hot matrix is a fair input.
        pytest.param(np.array([[True, False], [False, True]]), [[1, 0], [0, 1]], id="bool"),
        pytest.param(np.array([[1, 2]], dtype=np.uint8), [[1, 2]], id="uint8"),
        pytest.param(np.array([[0.5, 2]], dtype=np.float16), [[0.5, 2]], id="float16"),
        pytest.param(np.array([[1.5, 2]], dtype=">f8"), [[1.5, 2]], id="big-endian"),
        pytest.param(np.asfortranarray([[1.0, 2.0], [3.0, 4.0]]), [[1, 2], [3, 4]], id="fortran"),
    ],
)
def test_npy_accepted(array: np.ndarray, expected: list[list[float]]) -> None:
    assert torch.equal(load_npy(_npy(array)), torch.tensor(expected, dtype=torch.float32))


# --------------------------------------------------------------------------------------
# Valid lengths (n = 3 queries, m = 4 keys)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["5", "-1", "1.5", "nan", "inf", "2 2", "1 2 3 4", "x", "٢", "２", "1e1", "9" * 5000],
)
def test_valid_lens_refused(text: str) -> None:
    with pytest.raises(InputError) as info:
        parse_valid_lens(text, 3, 4)
    assert info.value.key == "valid_lens"
    assert "between 0 and 4, one or 3 of them" in str(info.value)
    assert len(str(info.value)) < 200  # a 5,000-digit value is shortened


@pytest.mark.parametrize(
    ("text", "expected"),
    [("", None), ("  \n", None), ("0", [0]), (" 4 ", [4]), ("0, 2 4", [0, 2, 4]), ("004", [4])],
)
def test_valid_lens_accepted(text: str, expected: list[int] | None) -> None:
    lens = parse_valid_lens(text, 3, 4)
    assert (lens is None) if expected is None else lens.reshape(-1).tolist() == expected


# --------------------------------------------------------------------------------------
# Batches of pairs (the NLI page's text and CSV)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key"),
    [
        pytest.param("", "pairs_empty", id="empty"),
        pytest.param(" \n\t\n", "pairs_empty", id="whitespace-only"),
        pytest.param("no separator here", "pair_separator", id="no-separator"),
        pytest.param("a ||| b ||| c", "pair_separators", id="two-separators"),
        pytest.param("a ||| ", "pair_empty", id="empty-hypothesis"),
        pytest.param("a ||| b\n" * 65, "too_many_pairs", id="65-pairs"),
        pytest.param("a ||| b\n" * 3_200_000, "too_long", id="25MB"),
    ],
)
def test_pairs_text_refused(text: str, key: str) -> None:
    with pytest.raises(InputError) as info:
        nli.parse_pairs(text)
    assert info.value.key == key


@pytest.mark.parametrize(
    ("data", "key"),
    [
        pytest.param(PNG, "csv_not_text", id="png-renamed"),
        pytest.param(ZIP, "csv_not_text", id="zip-renamed"),
        pytest.param("premise,hypothesis\nà,b\n".encode("cp1252"), "csv_not_text", id="cp1252"),
        pytest.param(b"a;b\n1;2\n", "csv_columns", id="semicolons"),
        pytest.param(b"\xef\xbb\xbfpremise,hypothesis\n", "pairs_empty", id="bom-header-only"),
    ],
)
def test_pairs_csv_refused(data: bytes, key: str) -> None:
    with pytest.raises(InputError) as info:
        nli.load_pairs_csv(data)
    assert info.value.key == key


# --------------------------------------------------------------------------------------
# Backend: fully masked rows and huge logits
# --------------------------------------------------------------------------------------

N, M = 4, 5


def _blocked_cells() -> torch.Tensor:
    cells = torch.ones(N, M, dtype=torch.bool)
    cells[0, 0] = False  # with the causal mask, query 0 has no key left
    cells[2, :2] = False
    return cells


# (mask, valid_lens, fully masked rows): every way a row can lose all its keys.
MASK_CASES = [
    pytest.param(None, torch.tensor(0), [0, 1, 2, 3], id="valid_lens-0"),
    pytest.param(None, torch.tensor([0, 2, 0, 5]), [0, 2], id="valid_lens-per-query-0"),
    pytest.param(torch.zeros(M, dtype=torch.bool), None, [0, 1, 2, 3], id="key-mask-all-blocked"),
    pytest.param(causal_mask(N, M) & _blocked_cells(), None, [0], id="causal-and-cells"),
    pytest.param(causal_mask(N, M), torch.tensor([0, 3, 3, 3]), [0], id="causal-and-lens-0"),
    pytest.param(
        causal_mask(N, M) & _blocked_cells(), torch.tensor([1, 1, 2, 1]), [0, 2], id="all-three"
    ),
    pytest.param(_blocked_cells(), torch.tensor(2), [2], id="cells-and-lens"),
]


@pytest.mark.parametrize("fill", [-1e6, -1e9, -math.inf])
@pytest.mark.parametrize(("mask", "valid_lens", "fully_masked"), MASK_CASES)
def test_fully_masked_rows_are_uniform_or_zero_never_nan(
    mask: torch.Tensor | None, valid_lens: torch.Tensor | None, fully_masked: list[int], fill: float
) -> None:
    scores = torch.randn(N, M, generator=torch.Generator().manual_seed(0)) * 100
    weights = masked_softmax(scores, mask, valid_lens, fill)
    assert not weights.isnan().any()
    expected_row = torch.zeros(M) if fill == -math.inf else torch.full((M,), 1 / M)
    others = [i for i in range(N) if i not in fully_masked]
    for i in fully_masked:
        torch.testing.assert_close(weights[i], expected_row)
    torch.testing.assert_close(weights[others].sum(-1), torch.ones(len(others)))


@pytest.mark.parametrize("score", SCORES)
@pytest.mark.parametrize("fill", [-1e6, -math.inf])
def test_attend_with_a_fully_masked_row_gives_finite_outputs(score: str, fill: float) -> None:
    gen = torch.Generator().manual_seed(1)
    queries = torch.randn(N, 3, generator=gen)  # (n, d)
    keys, values = torch.randn(M, 3, generator=gen), torch.randn(M, 2, generator=gen)
    mask = causal_mask(N, M) & _blocked_cells()
    lens = torch.tensor([1, 1, 2, 1])  # rows 0 and 2 keep no key
    result = attend(queries, keys, values, score=score, mask=mask, valid_lens=lens, fill_value=fill)
    assert torch.isfinite(result.weights).all() and torch.isfinite(result.output).all()
    assert result.mask is not None
    assert not result.mask[0].any() and not result.mask[2].any()
    expected = 0.0 if fill == -math.inf else 1 / M
    assert (result.weights[[0, 2]] == expected).all()
    assert (result.weights[[1, 3]][~result.mask[[1, 3]]] == 0).all()


def test_masked_cells_are_labelled_gaps_not_nan_weights() -> None:
    mask = causal_mask(N, M) & _blocked_cells()
    weights = masked_softmax(torch.randn(N, M), mask)
    fig = figure_json(en.heatmap(weights, title="w", kind="weights", mask=mask))
    z = decode(fig["data"][0]["z"]).astype(float)
    assert np.isnan(z[~mask.numpy()]).all()  # a gap in the drawing ...
    assert not np.isnan(z[mask.numpy()]).any()
    assert not weights.isnan().any()  # ... never in the weights
    assert "masked" in json.dumps(fig)


@pytest.mark.parametrize(
    "logits",
    [
        pytest.param([[1e4, 0.0, -1e4]], id="1e4"),
        pytest.param([[1e30, -1e30, 0.0], [1e30, 1e30, 1e30]], id="1e30"),
        pytest.param([[-1e30, -1e30, -1e30]], id="-1e30-equal"),
        pytest.param([[3.4e38, -3.4e38, 0.0]], id="float32-max"),
    ],
)
@pytest.mark.parametrize("valid_lens", [None, torch.tensor(2)])
def test_huge_logits_give_finite_rows_that_sum_to_one(
    logits: list[list[float]], valid_lens: torch.Tensor | None
) -> None:
    scores = torch.tensor(logits)
    weights = masked_softmax(scores, valid_lens=valid_lens)
    assert torch.isfinite(weights).all()
    torch.testing.assert_close(weights.sum(-1), torch.ones(len(logits)))


@pytest.mark.parametrize("scale", [1e4, 1e30])
def test_attend_with_huge_scores_is_finite(scale: float) -> None:
    queries = torch.tensor([[1.0, 0.0], [0.0, -1.0]]) * scale
    keys = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    result = attend(queries, keys, torch.eye(3), score="dot")
    assert torch.isfinite(result.weights).all()
    torch.testing.assert_close(result.weights.sum(-1), torch.ones(2))


def test_attend_scores_that_overflow_say_the_inputs_are_too_large() -> None:
    big = torch.full((2, 2), 1e30)
    with pytest.raises(ValueError, match="too large"):
        attend(big, big, big, score="dot")


@pytest.mark.parametrize(
    ("shapes", "fragments"),
    [
        pytest.param(((3, 2), (4, 3), (4, 1)), ("(4×3)", "(3×2)", "3 columns"), id="d_q!=d_k"),
        pytest.param(((3, 2), (4, 2), (5, 1)), ("(4×2)", "(5×1)", "4 rows"), id="V-rows!=K-rows"),
    ],
)
def test_attend_shape_mismatch_names_both_shapes(
    shapes: tuple[tuple[int, int], ...], fragments: tuple[str, ...]
) -> None:
    queries, keys, values = (torch.ones(shape) for shape in shapes)
    with pytest.raises(ValueError) as info:
        attend(queries, keys, values, score="scaled_dot")
    assert all(fragment in str(info.value) for fragment in fragments), str(info.value)


# --------------------------------------------------------------------------------------
# Sentences through the real MiniLM
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def encoder() -> Iterator[Encoder]:
    from attnviz.transformer.encoder import load_encoder

    yield load_encoder()


# (sentence, whether the vocabulary caveat applies, whether it is cut to MAX_TOKENS pieces)
SENTENCES = [
    pytest.param("word " * 2000, False, True, id="10000-chars"),
    pytest.param("x" * 10_000, True, False, id="10000-char-word"),
    pytest.param("I love 🍕 and 😀!", True, False, id="emoji"),
    pytest.param("👨‍👩‍👧 ❤️", True, False, id="emoji-sequences"),
    pytest.param("שלום עולם", True, False, id="hebrew-rtl"),
    pytest.param("مرحبا بالعالم", True, False, id="arabic-rtl"),
    pytest.param("\u202eevil\u202c text", False, False, id="rtl-override"),
    pytest.param("zero\u200bwidth\u200c join\u200d\ufeff", False, False, id="zero-width"),
    pytest.param("나는 잠이 필요하다", True, False, id="korean"),
    pytest.param("e\u0301te\u0301", False, False, id="combining-accents"),
    pytest.param("a\x00b\x07c", False, False, id="control-characters"),
]


@pytest.mark.parametrize(("sentence", "caveat", "truncated"), SENTENCES)
def test_sentences_align_with_finite_weights(
    encoder: Encoder, sentence: str, caveat: bool, truncated: bool
) -> None:
    from attnviz.transformer.encoder import MAX_TOKENS
    from attnviz.transformer.views import tokens_caveat

    batch = nli.align_pairs(encoder, [(sentence, "A cat sleeps.")], source="contextual")
    tokens = batch.premises[0]
    al = batch.alignment
    la, lb = int(al.lens_a[0]), int(al.lens_b[0])
    assert len(tokens) == la and 1 <= la <= MAX_TOKENS
    assert (la == MAX_TOKENS) is truncated
    assert tokens_caveat(tokens + batch.hypotheses[0]) is caveat
    for weights in (al.weights_alpha[0, :lb, :la], al.weights_beta[0, :la, :lb]):
        assert torch.isfinite(weights).all()
        torch.testing.assert_close(weights.sum(-1), torch.ones(weights.shape[0]))
    assert torch.isfinite(batch.similarity).all()


@pytest.mark.parametrize(
    "sentence",
    [
        pytest.param("\u200b\u200c\u200d", id="zero-width-only"),
        pytest.param("\ufeff\u2060", id="bom-and-word-joiner"),
        pytest.param("\u0301\u0308", id="combining-only"),
        pytest.param("\x00\x07", id="control-only"),
    ],
)
def test_a_sentence_the_tokenizer_cannot_read_is_an_input_error(
    encoder: Encoder, sentence: str
) -> None:
    with pytest.raises(InputError) as info:
        nli.align_pairs(encoder, [("A cat sleeps.", sentence)])
    assert info.value.key == "sentence_unreadable"
    assert str(info.value).startswith("Hypothesis B has no characters the tokenizer reads")
    with pytest.raises(InputError, match="Premise A of pair 2 has no characters"):
        nli.align_pairs(encoder, [("A cat.", "A dog."), (sentence, "A cat.")])
    with pytest.raises(InputError, match="sentence A has no characters"):
        encoder.encode(sentence)


# --------------------------------------------------------------------------------------
# The Playground through AppTest
# --------------------------------------------------------------------------------------


def _errors(at: AppTest) -> list[str]:
    """The page's error messages without their Markdown escapes; no exception allowed."""
    assert not at.exception, [e.value for e in at.exception]
    return [re.sub(r"\\(.)", r"\1", e.value) for e in at.error]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        pytest.param("", "The text is empty", id="empty"),
        pytest.param("   \n  ", "The text is empty", id="whitespace"),
        pytest.param("1, 0,\n0, 1,", "Row 1, column 3 is empty", id="trailing-comma"),
        pytest.param("1 0\n1", "Row 2 has 1 values", id="ragged"),
        pytest.param("1 NA\n0 1", "'NA' is not a number", id="NA"),
        pytest.param("1 inf\n0 1", "'inf' is not a finite number", id="inf"),
        pytest.param("1 1e309\n0 1", "beyond the float32 range", id="1e309"),
        pytest.param("1 2\u200b\n0 1", r"'2\u200b' is not a number", id="zero-width"),
    ],
)
def test_playground_bad_matrix_shows_the_message_and_keeps_the_text(
    text: str, fragment: str
) -> None:
    at = open_page(PLAYGROUND)
    at.text_area(key=inputs.TEXTS["keys"]).input(text).run()
    errors = _errors(at)
    assert len(errors) == 1 and errors[0].startswith("Keys K: ") and fragment in errors[0], errors
    assert at.text_area(key=inputs.TEXTS["keys"]).value == text
    assert not at.get("plotly_chart")
    # The page keeps working: fixing the text brings the figures back.
    at.text_area(key=inputs.TEXTS["keys"]).input(
        examples.PRESETS[examples.DEFAULT_PRESET].keys
    ).run()
    assert not _errors(at) and at.get("plotly_chart")


@pytest.mark.parametrize(
    ("matrix", "text", "fragments"),
    [
        pytest.param(
            "keys",
            "1, 0, 1\n0, 1, 1\n1, 1, 1\n0, 0, 1",
            ("Keys (4 × 3)", "queries (3 × 2)"),
            id="d_k",
        ),
        pytest.param("values", "1\n2\n3", ("Values (3 × 1)", "keys (4 × 2)"), id="V-rows"),
    ],
)
def test_playground_shape_mismatch_names_both_shapes(
    matrix: str, text: str, fragments: tuple[str, ...]
) -> None:
    at = open_page(PLAYGROUND)
    at.text_area(key=inputs.TEXTS[matrix]).input(text).run()
    errors = _errors(at)
    assert len(errors) == 1 and all(f in errors[0] for f in fragments), errors
    assert "Cannot compute" not in errors[0]  # an input message, not the backend's
    assert at.text_area(key=inputs.TEXTS[matrix]).value == text


def test_playground_25mb_paste_is_refused_by_its_length() -> None:
    at = open_page(PLAYGROUND)
    text = "0.5, " * 5_000_000  # 25,000,000 characters
    at.text_area(key=inputs.TEXTS["queries"]).input(text).run()
    errors = _errors(at)
    assert len(errors) == 1 and f"{len(text)} characters" in errors[0], [e[:200] for e in errors]
    assert len(at.text_area(key=inputs.TEXTS["queries"]).value) == len(text)
    at.text_area(key=inputs.TEXTS["queries"]).input("1, 0\n0, 1\n1, 1").run()
    assert not _errors(at) and at.get("plotly_chart")


@pytest.mark.parametrize(
    ("name", "data", "fragment"),
    [
        pytest.param("q.csv", b"1;5,2\n3;4\n", "';' between values", id="semicolons"),
        pytest.param("q.csv", b"a,b\n1,2\n", "looks like a header", id="header"),
        pytest.param("q.csv", PNG, "not UTF-8 text", id="png-renamed"),
        pytest.param("q.csv", "1,2\n".encode("utf-16"), "not UTF-8 text", id="utf-16"),
        pytest.param(
            "q.npy",
            _npy(np.array([[1, None]], dtype=object), allow_pickle=True),
            "object data",
            id="object-npy",
        ),
        pytest.param("q.npy", _npy_header((100_000, 10_000)), "100000 rows", id="forged-npy"),
        pytest.param("q.npy", GOOD_NPY[:-7], "could not be read", id="truncated-npy"),
        pytest.param("q.npy", _npy(np.ones((2, 2), complex)), "complex128", id="complex-npy"),
    ],
)
def test_playground_bad_upload_shows_the_message_and_keeps_the_matrix(
    name: str, data: bytes, fragment: str
) -> None:
    at = open_page(PLAYGROUND)
    before = at.session_state[inputs.TEXTS["queries"]]
    at.get("button_group")[0].set_value("upload").run()
    at.file_uploader(key="qkv_upload_queries").set_value((name, data, "text/csv")).run()
    errors = _errors(at)
    assert len(errors) == 1 and errors[0].startswith(f"{name}: ") and fragment in errors[0]
    assert at.session_state[inputs.TEXTS["queries"]] == before
    assert at.get("plotly_chart")  # the last good matrices are still drawn


def test_playground_good_bool_npy_upload_is_read_as_zeros_and_ones() -> None:
    at = open_page(PLAYGROUND)
    at.get("button_group")[0].set_value("upload").run()
    data = _npy(np.array([[True, False], [False, True], [True, True]]))
    at.file_uploader(key="qkv_upload_queries").set_value(("m.npy", data, "x")).run()
    assert not _errors(at)
    assert at.session_state[inputs.TEXTS["queries"]] == "1, 0\n0, 1\n1, 1"


# --------------------------------------------------------------------------------------
# Query-string values (tests/test_links.py covers n, score, T, fill and cells)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        {"T": "-1", "sigma": "1e309"},
        {"h": "0", "pseed": "-5"},
        {"q": "99999", "k": "-1"},
        {"self": "2", "src": "<b>x</b>"},
        {"dq": "257", "dk": "0", "src": "random"},
    ],
)
def test_playground_out_of_range_link_values_fall_back_with_a_notice(
    query: dict[str, str],
) -> None:
    at = open_with(PLAYGROUND, query)
    notices = [w.value for w in at.warning]
    assert notices and all(f"`{name}`" in notices[0] for name in query if name != "src")
    assert not at.error
    assert at.get("plotly_chart")


@pytest.mark.parametrize(
    ("query", "fragment"),
    [
        pytest.param({"Q": "1, 2\n3"}, "Row 2 has 1 values", id="ragged-Q"),
        pytest.param({"lens": "7"}, "Valid lengths '7'", id="lens-beyond-m"),
        pytest.param({"V": "1\n2"}, "Values (2 × 1) have 2 rows", id="V-rows"),
        pytest.param({"lens": "9" * 5000}, "Valid lengths '9999", id="5000-digit-lens"),
    ],
)
def test_playground_link_texts_it_cannot_use_are_kept_and_explained(
    query: dict[str, str], fragment: str
) -> None:
    at = open_with(PLAYGROUND, query)
    errors = _errors(at)
    assert len(errors) == 1 and fragment in errors[0] and len(errors[0]) < 300, errors
    assert not at.warning  # usable text: kept, and the page says what is wrong with it


# --------------------------------------------------------------------------------------
# The NLI page through AppTest (the real model)
# --------------------------------------------------------------------------------------


def _nli(query: dict[str, str]) -> AppTest:
    return open_with(NLI_PAGE, query)  # a fresh session from a link; the model takes seconds


@pytest.mark.parametrize(
    ("premise", "caveat", "cut"),
    [
        pytest.param("I love 🍕 and 😀!", True, False, id="emoji"),
        pytest.param("שלום עולם مرحبا", True, False, id="rtl"),
        pytest.param("zero\u200bwidth\u200c join\u200d", False, False, id="zero-width"),
        pytest.param("나는 잠이 필요하다", True, False, id="korean"),
        pytest.param("word " * 2000, False, True, id="10000-chars"),
    ],
)
def test_nli_page_reads_hard_sentences(premise: str, caveat: bool, cut: bool) -> None:
    at = _nli({})
    at.text_area(key=nli_view.PREMISE.key).input(premise).run()
    assert not _errors(at)
    assert at.text_area(key=nli_view.PREMISE.key).value == premise
    assert at.get("plotly_chart")
    assert any("vocabulary is English" in w.value for w in at.warning) is caveat
    # Said beside the verdict: the model reads only the first pieces.
    assert any("was cut to the model's first 128" in c.value for c in at.caption) is cut


@pytest.mark.parametrize("hypothesis", ["\u200b\u200c", "   ", "\u0301"])
def test_nli_page_sentence_without_readable_characters_is_explained(hypothesis: str) -> None:
    at = _nli({})
    at.text_area(key=nli_view.HYPOTHESIS.key).input(hypothesis).run()
    errors = _errors(at)
    assert len(errors) == 1 and errors[0].startswith("Hypothesis B "), errors
    assert "Cannot compute" not in errors[0]
    assert at.text_area(key=nli_view.HYPOTHESIS.key).value == hypothesis


def test_nli_page_out_of_range_link_values_fall_back_with_a_notice() -> None:
    at = _nli({"layer": "-1", "pair": "-3", "seed": "1e309", "mode": "<i>x</i>"})
    notices = [w.value for w in at.warning]
    assert notices and all(f"`{n}`" in notices[0] for n in ("layer", "pair", "seed", "mode"))
    assert not at.error and at.get("plotly_chart")


def test_nli_page_batch_of_hard_pairs() -> None:
    pairs = "😀 ||| 나는\nשלום ||| zero\u200bwidth\nword " + "x" * 9000 + " ||| a cat"
    at = _nli({"mode": "batch", "pairs": pairs})
    assert not _errors(at)
    assert at.get("plotly_chart")
