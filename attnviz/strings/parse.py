"""Strings of the messages of bad input (attnviz.errors.InputError), from the parsers and the model.

English (EN) and Korean (KO), key for key.
"""

EN: dict[str, str] = {
    "parse.empty": "The text is empty: enter at least one row of numbers.",
    "parse.ragged_rows": (
        "Row {row} has {found} values but row 1 has {expected}: every row needs the same number of "
        "values."
    ),
    "parse.not_a_number": "Row {row}, column {col}: {value!r} is not a number.",
    "parse.empty_value": (
        "Row {row}, column {col} is empty: two separators in a row, or one at the end of the row. "
        "Remove the extra separator or type a number there."
    ),
    "parse.not_finite": (
        "Row {row}, column {col}: {value!r} is not a finite number (NaN and infinity are not "
        "allowed)."
    ),
    "parse.too_large": (
        "Row {row}, column {col}: {value!r} is beyond the float32 range (about ±3.4e38)."
    ),
    "parse.too_many_rows": "{found} rows: at most {limit} rows are allowed.",
    "parse.too_many_cols": "{found} columns: at most {limit} columns are allowed.",
    "parse.too_long": "The input has {found} characters: at most {limit} are allowed.",
    "parse.csv_header": (
        "Row 1 of the CSV looks like a header ({value!r}): upload numbers only, without a header "
        "row."
    ),
    "parse.csv_semicolon": (
        "The CSV seems to use ';' between values and ',' as the decimal mark: save it with ',' "
        "between values and '.' as the decimal mark."
    ),
    "parse.csv_unreadable": "The CSV file could not be read as text: {detail}",
    "parse.csv_not_text": (
        "The file is not UTF-8 text (byte {byte} at position {position}): save it as CSV (UTF-8). "
        "A spreadsheet, an image or another binary file renamed .csv cannot be read."
    ),
    "parse.npy_unreadable": "The .npy file could not be read: {detail}",
    "parse.npy_dtype": (
        "The .npy file holds {dtype} data: only numbers (integers, floats or booleans) are allowed."
    ),
    "parse.npy_ndim": (
        "The .npy file holds a {ndim}-D array of shape {shape}: a 2-D array (rows × columns) is "
        "needed."
    ),
    "parse.file_too_big": "The file has {found} bytes: at most {limit} are allowed.",
    "parse.sentence_empty": "{which} is empty: type a sentence.",
    "parse.sizes": (
        "Keys ({m} × {d_k}) have {d_k} columns but queries ({n} × {d_q}) have {d_q}: {score} needs "
        "equal sizes (choose additive or general scoring for different sizes)."
    ),
    "parse.values_rows": (
        "Values ({m_v} × {d_v}) have {m_v} rows but keys ({m} × {d_k}) have {m}: each key needs "
        "exactly one row of values."
    ),
    "parse.sentence_unreadable": (
        "{which} has no characters the tokenizer reads (only spaces, control, zero-width or "
        "combining characters): type some letters, digits or punctuation."
    ),
    "parse.valid_lens": (
        "Valid lengths {value!r}: enter whole numbers between 0 and {m}, one or {n} of them."
    ),
    "parse.pairs_empty": (
        "There are no pairs: enter at least one line with a premise and a hypothesis separated by "
        "a tab or ' ||| '."
    ),
    "parse.pair_separator": "Line {line}: no tab or ' ||| ' between premise and hypothesis.",
    "parse.pair_separators": (
        "Line {line}: more than one tab or ' ||| ': put exactly one between premise and hypothesis."
    ),
    "parse.pair_empty": "Line {line}: the premise and the hypothesis both need some text.",
    "parse.too_many_pairs": "{found} pairs: at most {limit} pairs are allowed.",
    "parse.csv_columns": "The CSV needs the columns premise and hypothesis; it has {found}.",
    "parse.csv_pair_empty": (
        "Row {row} of the CSV (counting from the first row under the header): the premise and the "
        "hypothesis both need some text."
    ),
    "parse.lens_count": (
        "Valid lengths {value!r}: {found} number(s) for {batch} sequences; type exactly one whole "
        "number between 0 and {m} per sequence, separated by commas."
    ),
    "parse.lens_value": (
        "Valid lengths: {value!r} (sequence {seq}) is not allowed; each valid length is a whole "
        "number between 0 and {m}."
    ),
}

KO: dict[str, str] = {
    "parse.empty": "텍스트가 비어 있습니다. 숫자로 된 행을 하나 이상 입력하세요.",
    "parse.ragged_rows": (
        "{row}행에는 값이 {found}개 있지만 1행에는 {expected}개 있습니다. 모든 행의 값 개수가 "
        "같아야 합니다."
    ),
    "parse.not_a_number": "{row}행 {col}열: {value!r}은(는) 숫자가 아닙니다.",
    "parse.empty_value": (
        "{row}행 {col}열이 비어 있습니다. 구분자가 두 번 연달아 있거나 행 끝에 있습니다. 남는 "
        "구분자를 지우거나 그 자리에 숫자를 입력하세요."
    ),
    "parse.not_finite": (
        "{row}행 {col}열: {value!r}은(는) 유한한 수가 아닙니다 (NaN과 무한대는 허용되지 않습니다)."
    ),
    "parse.too_large": "{row}행 {col}열: {value!r}은(는) float32 범위 (약 ±3.4e38)를 벗어납니다.",
    "parse.too_many_rows": "{found}행: 최대 {limit}행까지 허용됩니다.",
    "parse.too_many_cols": "{found}열: 최대 {limit}열까지 허용됩니다.",
    "parse.too_long": "입력이 {found}자입니다. 최대 {limit}자까지 허용됩니다.",
    "parse.csv_header": (
        "CSV의 1행이 헤더처럼 보입니다 ({value!r}). 헤더 행 없이 숫자만 업로드하세요."
    ),
    "parse.csv_semicolon": (
        "CSV가 값 사이에 ';'를, 소수점으로 ','를 쓰는 것 같습니다. 값 사이에는 ',', 소수점에는 "
        "'.'를 쓰도록 저장하세요."
    ),
    "parse.csv_unreadable": "CSV 파일을 텍스트로 읽을 수 없습니다: {detail}",
    "parse.csv_not_text": (
        "파일이 UTF-8 텍스트가 아닙니다 (위치 {position}의 바이트 {byte}). CSV (UTF-8)로 "
        "저장하세요. 스프레드시트, 이미지 등 이름만 .csv로 바꾼 바이너리 파일은 읽을 수 없습니다."
    ),
    "parse.npy_unreadable": ".npy 파일을 읽을 수 없습니다: {detail}",
    "parse.npy_dtype": (
        ".npy 파일에 {dtype} 데이터가 들어 있습니다. 숫자 (정수, 부동소수점, 불리언)만 허용됩니다."
    ),
    "parse.npy_ndim": (
        ".npy 파일에 모양이 {shape}인 {ndim}차원 배열이 들어 있습니다. 2차원 배열 (행 × 열)이 "
        "필요합니다."
    ),
    "parse.file_too_big": "파일이 {found}바이트입니다. 최대 {limit}바이트까지 허용됩니다.",
    "parse.sentence_empty": "{which} 칸이 비어 있습니다. 문장을 입력하세요.",
    "parse.sizes": (
        "키 ({m} × {d_k})의 열은 {d_k}개인데 쿼리 ({n} × {d_q})의 열은 {d_q}개입니다. 점수 함수 "
        "{score}에는 같은 크기가 필요합니다 (크기가 다르면 가법 또는 일반형 점수 함수를 고르세요)."
    ),
    "parse.values_rows": (
        "값 ({m_v} × {d_v})은 {m_v}행인데 키 ({m} × {d_k})는 {m}행입니다. 키마다 값이 정확히 한 "
        "행씩 있어야 합니다."
    ),
    "parse.sentence_unreadable": (
        "{which}에 토크나이저가 읽는 문자가 없습니다 (공백, 제어 문자, 폭 없는 문자, 결합 문자뿐). "
        "글자, 숫자 또는 문장 부호를 입력하세요."
    ),
    "parse.valid_lens": "유효 길이 {value!r}: 0에서 {m} 사이의 정수를 1개 또는 {n}개 입력하세요.",
    "parse.pairs_empty": (
        "문장 쌍이 없습니다. 전제와 가설을 탭이나 ' ||| '로 구분한 줄을 하나 이상 입력하세요."
    ),
    "parse.pair_separator": "{line}번째 줄: 전제와 가설 사이에 탭이나 ' ||| '가 없습니다.",
    "parse.pair_separators": (
        "{line}번째 줄: 탭이나 ' ||| '가 두 개 이상입니다. 전제와 가설 사이에 정확히 하나만 "
        "넣으세요."
    ),
    "parse.pair_empty": "{line}번째 줄: 전제와 가설 모두 내용이 있어야 합니다.",
    "parse.too_many_pairs": "{found}쌍: 최대 {limit}쌍까지 허용됩니다.",
    "parse.csv_columns": "CSV에는 premise와 hypothesis 열이 필요합니다. 지금 있는 열: {found}.",
    "parse.csv_pair_empty": (
        "CSV의 {row}행 (헤더 바로 아래 행부터 셈): 전제와 가설 모두 내용이 있어야 합니다."
    ),
    "parse.lens_count": (
        "유효 길이 {value!r}: 시퀀스 {batch}개에 숫자가 {found}개 입력되었습니다. 시퀀스마다 0에서 "
        "{m} 사이의 정수를 정확히 하나씩 쉼표로 구분해 입력하세요."
    ),
    "parse.lens_value": (
        "유효 길이: 시퀀스 {seq}의 값 {value!r}은(는) 허용되지 않습니다. 유효 길이는 0에서 {m} "
        "사이의 정수여야 합니다."
    ),
}
