"""Tests for attnviz.parsing: good inputs give exact tensors, bad ones a precise InputError."""

from __future__ import annotations

import io
import pickle
import time

import numpy as np
import numpy.typing as npt
import pandas as pd
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from attnviz.i18n import t
from attnviz.parsing import (
    MAX_COLS,
    MAX_FILE_BYTES,
    MAX_ROWS,
    MAX_TEXT_CHARS,
    InputError,
    format_matrix,
    load_csv,
    load_npy,
    matrix_csv,
    parse_matrix,
    parse_valid_lens,
)


def _tensor(rows: list[list[float]]) -> torch.Tensor:
    return torch.tensor(rows, dtype=torch.float32)


def _npy(array: np.ndarray, *, allow_pickle: bool = False) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=allow_pickle)
    return buffer.getvalue()


# --- InputError ---------------------------------------------------------------------------


def test_input_error_is_value_error_with_rendered_english_text() -> None:
    err = InputError("ragged_rows", row=3, found=2, expected=4)
    assert isinstance(err, ValueError)
    assert err.key == "ragged_rows"
    assert err.values == {"row": 3, "found": 2, "expected": 4}
    assert str(err) == t("parse.ragged_rows", row=3, found=2, expected=4)
    assert "Row 3 has 2 values but row 1 has 4" in str(err)


def test_input_error_without_values_and_pickle_round_trip() -> None:
    assert str(InputError("empty")) == t("parse.empty")
    again = pickle.loads(pickle.dumps(InputError("too_many_rows", found=300, limit=256)))
    assert again.key == "too_many_rows"
    assert str(again) == "300 rows: at most 256 rows are allowed."


# --- parse_matrix: valid ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1, 2, 3\n4, 5, 6", [[1, 2, 3], [4, 5, 6]]),
        ("1 2 3\n4 5 6", [[1, 2, 3], [4, 5, 6]]),
        ("1,2;3,4", [[1, 2], [3, 4]]),
        ("1 ,\t2 ; 3 , 4", [[1, 2], [3, 4]]),
        ("\n\n  1 2\n\n3 4  \n\n", [[1, 2], [3, 4]]),
        ("1,2\r\n3,4\r\n", [[1, 2], [3, 4]]),
        ("-1.5 +2e3 .5 -7E-2 3.", [[-1.5, 2000.0, 0.5, -0.07, 3.0]]),
        ("42", [[42]]),
    ],
)
def test_parse_matrix_valid(text: str, expected: list[list[float]]) -> None:
    result = parse_matrix(text)
    assert result.dtype == torch.float32
    assert torch.equal(result, _tensor(expected))


def test_parse_matrix_accepts_float32_extremes() -> None:
    result = parse_matrix("3.4028235e+38 -3.4028235e+38 1e-45")
    assert result[0, 0].item() == float(np.finfo(np.float32).max)
    assert result[0, 1].item() == -float(np.finfo(np.float32).max)
    assert result[0, 2].item() > 0


def test_parse_matrix_at_the_caps() -> None:
    text = "\n".join(" ".join("1" for _ in range(MAX_COLS)) for _ in range(MAX_ROWS))
    assert parse_matrix(text).shape == (MAX_ROWS, MAX_COLS)


# --- parse_matrix: invalid ----------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "   ", "\n\n\t\n", ";;"])
def test_parse_matrix_empty(text: str) -> None:
    with pytest.raises(InputError, match="The text is empty") as info:
        parse_matrix(text)
    assert info.value.key == "empty"


def test_parse_matrix_ragged_rows_names_row_and_counts() -> None:
    with pytest.raises(InputError, match="Row 3 has 2 values but row 1 has 3") as info:
        parse_matrix("1 2 3\n4 5 6\n7 8\n9 10 11")
    assert info.value.key == "ragged_rows"
    assert info.value.values == {"row": 3, "found": 2, "expected": 3}


def test_parse_matrix_ragged_rows_ignores_blank_lines_in_numbering() -> None:
    with pytest.raises(InputError, match="Row 2 has 3 values but row 1 has 2"):
        parse_matrix("1 2\n\n\n3 4 5")


@pytest.mark.parametrize(
    ("text", "row", "col", "value"),
    [
        ("1 2\n3 abc", 2, 2, "abc"),
        ("1_000", 1, 1, "1_000"),
        ("0x10", 1, 1, "0x10"),
        ("__import__('os')", 1, 1, "__import__('os')"),
        ("1 2 3; 4 5 2**8", 2, 3, "2**8"),
        ("1e", 1, 1, "1e"),
        ("١٢", 1, 1, "١٢"),
        ("--1", 1, 1, "--1"),
    ],
)
def test_parse_matrix_not_a_number(text: str, row: int, col: int, value: str) -> None:
    with pytest.raises(InputError, match=f"Row {row}, column {col}: .* is not a number") as info:
        parse_matrix(text)
    assert info.value.key == "not_a_number"
    assert info.value.values == {"row": row, "col": col, "value": value}
    assert repr(value) in str(info.value)


@pytest.mark.parametrize("token", ["nan", "NaN", "-nan", "inf", "+inf", "-Infinity", "INFINITY"])
def test_parse_matrix_not_finite(token: str) -> None:
    with pytest.raises(InputError, match=r"Row 2, column 1: .* is not a finite number") as info:
        parse_matrix(f"1 2\n{token} 3")
    assert info.value.key == "not_finite"
    assert info.value.values["value"] == token


@pytest.mark.parametrize("token", ["1e309", "1e39", "-1e39", "3.5e38", "9" * 5000])
def test_parse_matrix_too_large(token: str) -> None:
    with pytest.raises(
        InputError, match=r"Row 1, column 2: .* is beyond the float32 range"
    ) as info:
        parse_matrix(f"0 {token}")
    assert info.value.key == "too_large"


def test_parse_matrix_too_large_shortens_a_huge_token_in_the_message() -> None:
    with pytest.raises(InputError) as info:
        parse_matrix("9" * 5000)
    assert len(str(info.value)) < 200


def test_parse_matrix_too_many_rows() -> None:
    text = "\n".join("1 2" for _ in range(MAX_ROWS + 1))
    with pytest.raises(InputError, match="257 rows: at most 256 rows are allowed") as info:
        parse_matrix(text)
    assert info.value.key == "too_many_rows"


def test_parse_matrix_too_many_rows_fails_before_reading_values() -> None:
    # Row 1 is garbage: the row cap must still be the reported problem.
    text = "x\n" + "\n".join("1" for _ in range(MAX_ROWS))
    with pytest.raises(InputError, match="257 rows"):
        parse_matrix(text)


def test_parse_matrix_too_many_cols() -> None:
    text = ", ".join("1" for _ in range(MAX_COLS + 1))
    with pytest.raises(InputError, match="257 columns: at most 256 columns are allowed") as info:
        parse_matrix(text)
    assert info.value.key == "too_many_cols"


def test_parse_matrix_too_long() -> None:
    text = "1" + " " * MAX_TEXT_CHARS
    with pytest.raises(InputError, match=f"{MAX_TEXT_CHARS + 1} characters") as info:
        parse_matrix(text)
    assert info.value.key == "too_long"
    assert info.value.values == {"found": MAX_TEXT_CHARS + 1, "limit": MAX_TEXT_CHARS}


# --- format_matrix ------------------------------------------------------------------------


def test_format_matrix_layout() -> None:
    text = format_matrix(_tensor([[1, -2.5], [0.1, 1e20]]))
    assert text == "1, -2.5\n0.1, 1e+20"


def test_format_matrix_accepts_numpy() -> None:
    assert format_matrix(np.array([[1, 2]], dtype=np.int64)) == "1, 2"


def test_format_matrix_rejects_non_matrix() -> None:
    with pytest.raises(ValueError, match="2-D"):
        format_matrix(torch.zeros(3))


@settings(max_examples=300, deadline=None)
@given(
    hnp.arrays(
        np.float32,
        hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=8),
        elements=st.floats(width=32, allow_nan=False, allow_infinity=False),
    )
)
def test_format_matrix_round_trips_float32_exactly(array: np.ndarray) -> None:
    back = parse_matrix(format_matrix(array))
    assert back.dtype == torch.float32
    assert back.shape == array.shape
    # Compare bit patterns so that -0.0 versus 0.0 also counts.
    assert np.array_equal(back.numpy().view(np.uint32), array.view(np.uint32))


def test_format_matrix_round_trips_boundary_values() -> None:
    info = np.finfo(np.float32)
    array = np.array(
        [[info.max, -info.max, info.tiny], [info.smallest_subnormal, -0.0, 0.1]], dtype=np.float32
    )
    back = parse_matrix(format_matrix(torch.from_numpy(array)))
    assert np.array_equal(back.numpy().view(np.uint32), array.view(np.uint32))


# --- load_csv -----------------------------------------------------------------------------


def test_load_csv_valid() -> None:
    result = load_csv(b"1,2,3\n4.5,-6,7e1\n")
    assert torch.equal(result, _tensor([[1, 2, 3], [4.5, -6, 70]]))


def test_load_csv_bom_crlf_spaces_and_blank_lines() -> None:
    data = "\ufeff1, 2\r\n\r\n 3 ,4\r\n".encode()
    assert torch.equal(load_csv(data), _tensor([[1, 2], [3, 4]]))


def test_load_csv_header_row() -> None:
    with pytest.raises(InputError, match=r"Row 1 of the CSV looks like a header \('x'\)") as info:
        load_csv(b"x,y\n1,2\n3,4\n")
    assert info.value.key == "csv_header"


def test_load_csv_header_names_a_column_rather_than_an_index_corner() -> None:
    with pytest.raises(InputError, match=r"header \('a'\)"):
        load_csv(b",a,b\n0,1,2\n1,3,4\n")


def test_load_csv_semicolon_decimal_comma() -> None:
    with pytest.raises(InputError, match="';' between values") as info:
        load_csv(b"1,5;2,25\n3;4\n")
    assert info.value.key == "csv_semicolon"


@pytest.mark.parametrize(
    ("data", "row", "found", "expected"),
    [(b"1,2,3\n4,5\n", 2, 2, 3), (b"1,2\n3,4\n\n5,6,7\n", 3, 3, 2)],
)
def test_load_csv_ragged(data: bytes, row: int, found: int, expected: int) -> None:
    match = f"Row {row} has {found} values but row 1 has {expected}"
    with pytest.raises(InputError, match=match) as info:
        load_csv(data)
    assert info.value.key == "ragged_rows"


@pytest.mark.parametrize(
    ("data", "key", "match"),
    [
        (b"1,2\n3,nan\n", "not_finite", r"Row 2, column 2: 'nan' is not a finite"),
        (b"1,2\n3,NA\n", "not_a_number", r"Row 2, column 2: 'NA' is not a number"),
        (b"1,,2\n3,4,5\n", "empty_value", r"Row 1, column 2 is empty"),
        (b"1,2\n3,1e39\n", "too_large", r"Row 2, column 2: '1e39' is beyond"),
        (b"x\n", "not_a_number", r"Row 1, column 1: 'x' is not a number"),
        (b"x,1\n2,y\n", "not_a_number", r"Row 1, column 1: 'x' is not a number"),
    ],
)
def test_load_csv_bad_cells(data: bytes, key: str, match: str) -> None:
    with pytest.raises(InputError, match=match) as info:
        load_csv(data)
    assert info.value.key == key


def test_load_csv_not_utf8() -> None:
    with pytest.raises(InputError, match=r"not UTF-8 text \(byte 0xe9 at position 6\)") as info:
        load_csv("1,2\n3,é\n".encode("latin-1"))
    assert info.value.key == "csv_not_text"


@pytest.mark.parametrize("data", [b"", b"\n\n  \n", "\ufeff".encode()])
def test_load_csv_empty(data: bytes) -> None:
    with pytest.raises(InputError, match="empty") as info:
        load_csv(data)
    assert info.value.key == "empty"


def test_load_csv_caps() -> None:
    with pytest.raises(InputError, match="257 rows"):
        load_csv(b"1\n" * (MAX_ROWS + 1))
    with pytest.raises(InputError, match="257 columns"):
        load_csv(b",".join([b"1"] * (MAX_COLS + 1)))
    with pytest.raises(InputError, match=f"{MAX_FILE_BYTES + 1} bytes") as info:
        load_csv(b"1" * (MAX_FILE_BYTES + 1))
    assert info.value.key == "file_too_big"


# --- load_npy -----------------------------------------------------------------------------


def test_load_npy_float64() -> None:
    array = np.array([[1.5, -2.0], [3.25, 1e-3]])
    result = load_npy(_npy(array))
    assert result.dtype == torch.float32
    assert torch.equal(result, torch.from_numpy(array.astype(np.float32)))


@pytest.mark.parametrize("dtype", [np.int64, np.uint8, np.int16, np.bool_, np.float16, ">f8"])
def test_load_npy_other_numeric_dtypes(dtype: npt.DTypeLike) -> None:
    array = np.array([[1, 0, 1], [0, 1, 1]], dtype=dtype)
    result = load_npy(_npy(array))
    assert torch.equal(result, _tensor([[1, 0, 1], [0, 1, 1]]))


def test_load_npy_fortran_order() -> None:
    array = np.asfortranarray(np.arange(6, dtype=np.int32).reshape(2, 3))
    assert torch.equal(load_npy(_npy(array)), _tensor([[0, 1, 2], [3, 4, 5]]))


def test_load_npy_object_dtype() -> None:
    array = np.array([[1, "a"], [None, 2]], dtype=object)
    with pytest.raises(InputError, match="holds object data") as info:
        load_npy(_npy(array, allow_pickle=True))
    assert info.value.key == "npy_dtype"


@pytest.mark.parametrize(
    "array",
    [
        np.zeros((2, 2), dtype=np.complex128),
        np.array([["a", "b"]]),
        np.zeros((2, 2), dtype=[("x", "<f4"), ("y", "<i4")]),
        np.zeros((2, 2), dtype="datetime64[s]"),
    ],
)
def test_load_npy_non_numeric_dtypes(array: np.ndarray) -> None:
    with pytest.raises(InputError, match="only numbers") as info:
        load_npy(_npy(array))
    assert info.value.key == "npy_dtype"
    assert info.value.values == {"dtype": str(array.dtype)}


def test_load_npy_pickle_file() -> None:
    with pytest.raises(InputError, match=r"could not be read: .*magic string") as info:
        load_npy(pickle.dumps([[1.0, 2.0], [3.0, 4.0]]))
    assert info.value.key == "npy_unreadable"


@pytest.mark.parametrize("data", [b"", b"\x93NUMPY", b"\x93NUMPY\x01\x00\x10\x00{'descr': 'x'"])
def test_load_npy_garbage(data: bytes) -> None:
    with pytest.raises(InputError, match="could not be read") as info:
        load_npy(data)
    assert info.value.key == "npy_unreadable"


def test_load_npy_forged_huge_shape_is_refused_without_allocating() -> None:
    buffer = io.BytesIO()
    header = {"descr": "<f8", "fortran_order": False, "shape": (10**12, 10**12)}
    np.lib.format.write_array_header_1_0(buffer, header)
    start = time.perf_counter()
    with pytest.raises(InputError, match="1000000000000 rows: at most 256") as info:
        load_npy(buffer.getvalue())
    assert time.perf_counter() - start < 0.5
    assert info.value.key == "too_many_rows"


def test_load_npy_forged_header_with_too_little_data() -> None:
    buffer = io.BytesIO()
    header = {"descr": "<f8", "fortran_order": False, "shape": (200, 200)}
    np.lib.format.write_array_header_2_0(buffer, header)
    buffer.write(b"\0" * 16)
    with pytest.raises(InputError, match="promises 320000 bytes of data but 16 follow"):
        load_npy(buffer.getvalue())


def test_load_npy_forged_negative_shape() -> None:
    buffer = io.BytesIO()
    header = {"descr": "<f8", "fortran_order": False, "shape": (-1, 3)}
    np.lib.format.write_array_header_1_0(buffer, header)
    with pytest.raises(InputError, match=r"declares the shape \(-1, 3\)") as info:
        load_npy(buffer.getvalue())
    assert info.value.key == "npy_unreadable"


def test_load_npy_truncated_data() -> None:
    data = _npy(np.ones((3, 4)))
    with pytest.raises(InputError, match="could not be read") as info:
        load_npy(data[:-5])
    assert info.value.key == "npy_unreadable"


@pytest.mark.parametrize(("shape", "ndim"), [((2, 3, 4), 3), ((5,), 1), ((), 0)])
def test_load_npy_wrong_ndim(shape: tuple[int, ...], ndim: int) -> None:
    with pytest.raises(InputError, match=f"a {ndim}-D array of shape") as info:
        load_npy(_npy(np.zeros(shape)))
    assert info.value.key == "npy_ndim"
    assert info.value.values == {"ndim": ndim, "shape": shape}


def test_load_npy_nan_inside() -> None:
    array = np.array([[1.0, 2.0, 3.0], [4.0, np.nan, 6.0]])
    with pytest.raises(InputError, match=r"Row 2, column 2: 'nan' is not a finite") as info:
        load_npy(_npy(array))
    assert info.value.key == "not_finite"


def test_load_npy_inf_inside() -> None:
    with pytest.raises(InputError, match=r"Row 1, column 2: '-inf'"):
        load_npy(_npy(np.array([[0.0, -np.inf]], dtype=np.float32)))


def test_load_npy_beyond_float32_range() -> None:
    array = np.array([[1.0, 2.0], [3.0, -1e39]])
    with pytest.raises(InputError, match=r"Row 2, column 2: '-1e\+39' is beyond") as info:
        load_npy(_npy(array))
    assert info.value.key == "too_large"


@pytest.mark.parametrize(
    ("shape", "match"),
    [((MAX_ROWS + 1, 2), "257 rows: at most 256"), ((2, MAX_COLS + 1), "257 columns: at most 256")],
)
def test_load_npy_above_caps(shape: tuple[int, int], match: str) -> None:
    with pytest.raises(InputError, match=match):
        load_npy(_npy(np.zeros(shape, dtype=np.uint8)))


def test_load_npy_at_the_caps() -> None:
    assert load_npy(_npy(np.zeros((MAX_ROWS, MAX_COLS)))).shape == (MAX_ROWS, MAX_COLS)


def test_load_npy_file_too_big() -> None:
    with pytest.raises(InputError, match="at most 8000000 are allowed") as info:
        load_npy(b"\0" * (MAX_FILE_BYTES + 1))
    assert info.value.key == "file_too_big"


def test_load_npy_zero_size() -> None:
    with pytest.raises(InputError) as info:
        load_npy(_npy(np.zeros((0, 3))))
    assert info.value.key == "empty"


# --- parse_valid_lens ---------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "   ", "\n"])
def test_parse_valid_lens_empty_is_none(text: str) -> None:
    assert parse_valid_lens(text, 3, 4) is None


def test_parse_valid_lens_one_number_is_0d() -> None:
    result = parse_valid_lens(" 2 ", 3, 4)
    assert result is not None
    assert result.dtype == torch.int64
    assert result.shape == ()
    assert result.item() == 2


@pytest.mark.parametrize("text", ["0, 4, 2", "0 4 2", "0,4 , 2"])
def test_parse_valid_lens_one_per_query(text: str) -> None:
    result = parse_valid_lens(text, 3, 4)
    assert result is not None
    assert result.dtype == torch.int64
    assert result.tolist() == [0, 4, 2]


@pytest.mark.parametrize(
    "text", ["5", "-1", "1.5", "a", "1, 2", "1, 2, 3, 4", "1,,2", "1e1", "9" * 5000, "0x1"]
)
def test_parse_valid_lens_invalid(text: str) -> None:
    with pytest.raises(InputError, match="between 0 and 4, one or 3 of them") as info:
        parse_valid_lens(text, 3, 4)
    assert info.value.key == "valid_lens"
    shown = text if len(text) <= 40 else text[:39] + "…"  # a 5,000-digit value is shortened
    assert info.value.values == {"value": shown, "m": 4, "n": 3}


def test_matrix_csv_keeps_labels_and_values() -> None:
    matrix = torch.tensor([[0.1, float("-inf")], [1 / 3, 2.0]])
    data = matrix_csv(matrix, ["q0", "=cmd()"], ["k0", "k1"])
    frame = pd.read_csv(io.BytesIO(data), index_col=0)
    assert list(frame.index) == ["q0", "'=cmd()"]  # no spreadsheet formula from a label
    assert list(frame.columns) == ["k0", "k1"]
    np.testing.assert_array_equal(frame.to_numpy(dtype=np.float32), matrix.numpy())


# --- parse_valid_lens, one per sequence of a batch (the masking lesson's) ---


@pytest.mark.parametrize(
    ("text", "batch", "expected"),
    [("4, 6, 2", 3, [4, 6, 2]), ("4 6 2", 3, [4, 6, 2]), (" 0,6 ", 2, [0, 6]), ("06", 1, [6])],
)
def test_parse_valid_lens_per_sequence_accepts_one_whole_number_per_sequence(text, batch, expected):
    lens = parse_valid_lens(text, batch, 6, each="sequence")
    assert lens.dtype == torch.int64 and lens.tolist() == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4, 6", "'4, 6': 2 number(s) for 3 sequences; type exactly one whole number between"),
        ("", "'': 0 number(s) for 3 sequences"),
        ("4, 7, 2", "'7' (sequence 1) is not allowed; each valid length is a whole number between"),
        ("4, -1, 2", "'-1' (sequence 1) is not allowed"),
        ("4, 2.5, 2", "'2.5' (sequence 1)"),
        ("4, two, 2", "'two' (sequence 1)"),
        ("4,,2", "'' (sequence 1)"),
        ("4, 2, " + "9" * 5000, "(sequence 2) is not allowed"),
    ],
)  # fmt: skip
def test_parse_valid_lens_per_sequence_names_the_value_and_the_range(text, message):
    with pytest.raises(InputError) as err:
        parse_valid_lens(text, 3, 6, each="sequence")
    assert message in str(err.value)
    assert "between 0 and 6" in str(err.value)
    assert len(str(err.value)) < 200  # a 5,000-digit token is shortened
