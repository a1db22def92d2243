"""Text / CSV / .npy -> tensors, with InputError messages a person can act on."""

from __future__ import annotations

import csv
import io
import math
import re
from typing import Literal

import numpy as np
import numpy.typing as npt
import pandas as pd
import torch

from attnviz.errors import InputError

MAX_ROWS = 256
MAX_COLS = 256
MAX_TEXT_CHARS = 4_000_000
MAX_FILE_BYTES = 8_000_000

# ASCII digits only: `float()` would also accept "1_000", "١٢" or " 1 ", none of which a person
# typing a matrix means as a plain decimal number.
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_NON_FINITE = re.compile(r"[+-]?(?:nan|inf(?:inity)?)", re.IGNORECASE)
# A comma (with any spaces around it) or a run of spaces separates values; "1,,2" therefore
# yields an empty field, which is reported rather than silently dropped.
_VALUE_SEPARATOR = re.compile(r"\s*,\s*|\s+")
_WHOLE_NUMBER = re.compile(r"[0-9]+")
# A 5,000-digit token would make every message unreadable.
_SHOWN_CHARS = 40


def _shown(token: str) -> str:
    return token if len(token) <= _SHOWN_CHARS else token[: _SHOWN_CHARS - 1] + "…"


def _is_numeric_token(token: str) -> bool:
    return _NUMBER.fullmatch(token) is not None or _NON_FINITE.fullmatch(token) is not None


def _parse_value(token: str, row: int, col: int) -> float:
    """One cell as a float32-representable float; `row` and `col` are 1-based."""
    if not token:
        # "1,,2" or a trailing "1,2,": say where the gap is rather than that '' is no number.
        raise InputError("empty_value", row=row, col=col)
    if _NON_FINITE.fullmatch(token):
        raise InputError("not_finite", row=row, col=col, value=token)
    if not _NUMBER.fullmatch(token):
        raise InputError("not_a_number", row=row, col=col, value=_shown(token))
    value = float(token)  # overflows to inf for 1e309 or a 5,000-digit integer, never raises
    # Compare after rounding to float32, not against finfo.max: "3.4028235e+38" (how float32's
    # maximum prints) is above finfo.max as a double yet rounds back to it.
    with np.errstate(over="ignore"):
        if not math.isfinite(value) or math.isinf(float(np.float32(value))):
            raise InputError("too_large", row=row, col=col, value=_shown(token))
    return value


def _check_shape(rows: int, cols: int) -> None:
    if rows > MAX_ROWS:
        raise InputError("too_many_rows", found=rows, limit=MAX_ROWS)
    if cols > MAX_COLS:
        raise InputError("too_many_cols", found=cols, limit=MAX_COLS)


def _check_rectangular(widths: list[int]) -> None:
    expected = widths[0]
    if expected > MAX_COLS:
        raise InputError("too_many_cols", found=expected, limit=MAX_COLS)
    for index, found in enumerate(widths[1:], start=2):
        if found != expected:
            raise InputError("ragged_rows", row=index, found=found, expected=expected)


def _cells_to_tensor(cells: list[list[str]]) -> torch.Tensor:
    values = [
        [_parse_value(token, r, c) for c, token in enumerate(row, start=1)]
        for r, row in enumerate(cells, start=1)
    ]
    with np.errstate(under="ignore"):
        array = np.array(values, dtype=np.float32)
    return torch.from_numpy(array)


def parse_matrix(text: str) -> torch.Tensor:
    """A float32 (rows, cols) tensor from rows split by newline or ';', values by ',' or spaces."""
    if len(text) > MAX_TEXT_CHARS:
        raise InputError("too_long", found=len(text), limit=MAX_TEXT_CHARS)
    # Text copied out of a UTF-8 file with a BOM starts with U+FEFF, which strip() keeps.
    text = text.removeprefix("\ufeff")
    rows = [part.strip() for line in text.splitlines() for part in line.split(";")]
    rows = [row for row in rows if row]
    if not rows:
        raise InputError("empty")
    # Count rows before splitting values so that a huge paste fails without tokenising it.
    _check_shape(len(rows), 0)
    cells = [_VALUE_SEPARATOR.split(row) for row in rows]
    _check_rectangular([len(row) for row in cells])
    return _cells_to_tensor(cells)


def format_matrix(matrix: torch.Tensor | npt.NDArray[np.generic]) -> str:
    """Text that `parse_matrix` reads back to exactly the same float32 values."""
    if isinstance(matrix, torch.Tensor):
        array = matrix.detach().cpu().to(torch.float32).numpy()
    else:
        array = np.asarray(matrix, dtype=np.float32)
    if array.ndim != 2:
        raise ValueError(f"format_matrix needs a 2-D matrix, got shape {tuple(array.shape)}")
    return "\n".join(", ".join(_shortest(value) for value in row) for row in array)


def _shortest(value: np.float32) -> str:
    # str() of a numpy float32 is the shortest text that rounds back to the same float32;
    # whole numbers drop their ".0" so a grid edit of 7 reads "7", as a person types it.
    text = str(value)
    return text[:-2] if text.endswith(".0") else text


def decode_csv(data: bytes) -> str:
    """An uploaded file as text: UTF-8 (a BOM dropped), or an InputError naming the bad byte."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        byte = f"0x{data[exc.start]:02x}"
        raise InputError("csv_not_text", byte=byte, position=exc.start) from exc
    # NUL is valid UTF-8 but never part of a text file: a binary file renamed .csv.
    nul = data.find(b"\x00")
    if nul >= 0:
        raise InputError("csv_not_text", byte="0x00", position=nul)
    return text


def _is_blank_record(record: list[str]) -> bool:
    # pandas' skip_blank_lines drops empty lines and lines of spaces, but keeps a quoted "" line
    # (the csv module's ['']) as a row; mirror that so that both agree on the row numbers.
    return not record or (len(record) == 1 and record[0] != "" and not record[0].strip())


def _csv_records(text: str) -> list[list[str]]:
    """Fields of each non-blank record as the csv module splits them (quotes honoured)."""
    records: list[list[str]] = []
    try:
        for record in csv.reader(io.StringIO(text, newline="")):
            if _is_blank_record(record):
                continue
            records.append(record)
            if len(records) > MAX_ROWS:
                # Stop here: walking millions of records takes seconds, counting lines does not.
                lines = sum(1 for line in text.splitlines() if line.strip())
                raise InputError("too_many_rows", found=max(lines, len(records)), limit=MAX_ROWS)
    except csv.Error as exc:
        raise InputError("csv_unreadable", detail=str(exc)) from exc
    return records


def load_csv(data: bytes) -> torch.Tensor:
    """A float32 tensor from a headerless CSV of numbers (UTF-8, optional BOM)."""
    if len(data) > MAX_FILE_BYTES:
        raise InputError("file_too_big", found=len(data), limit=MAX_FILE_BYTES)
    text = decode_csv(data)
    if not text.strip():
        raise InputError("empty")
    records = _csv_records(text)
    if not records:
        raise InputError("empty")
    # Before the ragged check: "1,5;2,25" splits on its decimal commas into a ragged mess.
    if any(";" in field for rec in records for field in rec):
        raise InputError("csv_semicolon")
    # pandas pads short rows with "" (na_filter=False), indistinguishable from an empty field,
    # and raises without usable numbers on long ones, so the shape is checked on the csv split.
    _check_rectangular([len(rec) for rec in records])
    try:
        frame = pd.read_csv(
            io.StringIO(text),
            header=None,
            dtype=str,
            skip_blank_lines=True,
            sep=",",
            # Keep every cell's text: the default NA parsing turns "", "nan", "NA" or "null"
            # into NaN, losing what the person wrote and hiding empty fields.
            na_filter=False,
        )
    except (ValueError, pd.errors.ParserError) as exc:
        raise InputError("csv_unreadable", detail=str(exc)) from exc
    cells = [[str(cell).strip() for cell in row] for row in frame.to_numpy(dtype=object)]
    if len(cells) != len(records) or len(cells[0]) != len(records[0]):
        # Only odd quoting gets here; say what disagreed rather than guess which row is wrong.
        found = f"{len(cells)} × {len(cells[0]) if cells else 0}"
        expected = f"{len(records)} × {len(records[0])}"
        detail = f'its rows split into {found} cells, not {expected}; check the quotes (")'
        raise InputError("csv_unreadable", detail=detail)
    # Words, not blanks, make a header: an empty field alone is a missing number, while the
    # blank corner of a pandas-written index column sits next to named columns.
    names = [cell for cell in cells[0] if cell and not _is_numeric_token(cell)]
    if (
        names
        and len(cells) > 1
        and all(_is_numeric_token(cell) for row in cells[1:] for cell in row)
    ):
        raise InputError("csv_header", value=_shown(names[0]))
    return _cells_to_tensor(cells)


def _read_npy_header(buffer: io.BytesIO) -> tuple[tuple[int, ...], np.dtype[np.generic]]:
    try:
        version = np.lib.format.read_magic(buffer)
        if version == (1, 0):
            shape, _fortran, dtype = np.lib.format.read_array_header_1_0(buffer)
        elif version == (2, 0):
            shape, _fortran, dtype = np.lib.format.read_array_header_2_0(buffer)
        else:
            # Version 3.0 only adds UTF-8 field names, i.e. structured dtypes we refuse anyway.
            raise ValueError(f"format version {version[0]}.{version[1]} is not supported")
    except (ValueError, EOFError, SyntaxError, TypeError) as exc:
        raise InputError("npy_unreadable", detail=str(exc)) from exc
    # numpy's header check accepts negative sizes, which only a forged file contains.
    if any(size < 0 for size in shape):
        raise InputError("npy_unreadable", detail=f"the header declares the shape {shape}")
    return tuple(int(size) for size in shape), dtype


def load_npy(data: bytes) -> torch.Tensor:
    """A float32 tensor from a 2-D numeric .npy file; the header is vetted before any data."""
    if len(data) > MAX_FILE_BYTES:
        raise InputError("file_too_big", found=len(data), limit=MAX_FILE_BYTES)
    buffer = io.BytesIO(data)
    shape, dtype = _read_npy_header(buffer)
    # Structured dtypes have kind "V"; object, string, complex, datetime are all outside "biuf".
    if dtype.kind not in "biuf" or dtype.fields is not None or dtype.subdtype is not None:
        raise InputError("npy_dtype", dtype=str(dtype))
    if len(shape) != 2:
        raise InputError("npy_ndim", ndim=len(shape), shape=shape)
    rows, cols = shape
    # A forged header can claim any shape: refuse it here, before numpy allocates anything.
    _check_shape(rows, cols)
    if rows == 0 or cols == 0:
        raise InputError("empty")
    expected = rows * cols * dtype.itemsize
    found = len(data) - buffer.tell()
    if found != expected:
        detail = f"the header promises {expected} bytes of data but {found} follow"
        raise InputError("npy_unreadable", detail=detail)
    try:
        array = np.load(io.BytesIO(data), allow_pickle=False)
    except (ValueError, EOFError, OSError) as exc:
        raise InputError("npy_unreadable", detail=str(exc)) from exc
    if dtype.kind == "f":
        bad = ~np.isfinite(array)
        if bad.any():
            r, c = (int(i) for i in np.argwhere(bad)[0])
            raise InputError("not_finite", row=r + 1, col=c + 1, value=str(array[r, c]))
    with np.errstate(over="ignore", under="ignore"):
        converted = np.ascontiguousarray(array, dtype=np.float32)
    # Finite float64 (or longdouble) beyond ±3.4e38 becomes inf only in the float32 copy.
    overflow = np.isinf(converted)
    if overflow.any():
        r, c = (int(i) for i in np.argwhere(overflow)[0])
        raise InputError("too_large", row=r + 1, col=c + 1, value=str(array[r, c]))
    return torch.from_numpy(converted)


def parse_valid_lens(
    text: str, n: int, m: int, *, each: Literal["query", "sequence"] = "query"
) -> torch.Tensor | None:
    """Valid lengths (whole numbers in [0, m]) as int64, d2l's `valid_lens`.

    `each="query"` (the Playground's): None for an empty box, else one length for every query
    (0-d) or one per query (shape (n,)). `each="sequence"` (a padded batch): exactly one per
    sequence of the n in the batch, shape (n,).
    """
    stripped = text.strip()
    if not stripped and each == "query":
        return None
    tokens = _VALUE_SEPARATOR.split(stripped) if stripped else []
    counts = (1, n) if each == "query" else (n,)
    if len(tokens) not in counts:
        if each == "query":
            raise InputError("valid_lens", value=_shown(text), m=m, n=n)
        raise InputError("lens_count", value=_shown(stripped), found=len(tokens), batch=n, m=m)
    lengths = []
    for position, token in enumerate(tokens):
        # The digit cap keeps int() away from a 5,000-digit token, which Python refuses.
        whole = _WHOLE_NUMBER.fullmatch(token) and len(token.lstrip("0")) <= len(str(m))
        if not whole or int(token) > m:
            if each == "query":
                raise InputError("valid_lens", value=_shown(text), m=m, n=n)
            raise InputError("lens_value", value=_shown(token), seq=position, m=m)
        lengths.append(int(token))
    if each == "query" and len(lengths) == 1:
        return torch.tensor(lengths[0], dtype=torch.int64)
    return torch.tensor(lengths, dtype=torch.int64)


def matrix_csv(matrix: object, row_labels: list[str], col_labels: list[str]) -> bytes:
    """A matrix as CSV with its labels as header and index, for the download buttons."""
    array = np.asarray(matrix.detach().cpu() if isinstance(matrix, torch.Tensor) else matrix)
    frame = pd.DataFrame(array, index=row_labels, columns=col_labels)
    # Spreadsheets run cells that start with = + - @ as formulas: quote such labels.
    frame.index = [_csv_safe(label) for label in frame.index]
    frame.columns = [_csv_safe(label) for label in frame.columns]
    return frame.to_csv(float_format="%.9g").encode("utf-8")


def _csv_safe(label: object) -> str:
    text = str(label)
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text
