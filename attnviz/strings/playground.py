"""Strings of the Playground: its matrix input, attention controls and steps.

English (EN) and Korean (KO), key for key.
"""

EN: dict[str, str] = {
    "playground.back.from": (
        "These Q, K and V are **layer {layer}, head {head}** of a model on the Model attention "
        "page. Change them here (a number, a row, the scoring, a mask), then go back: the "
        "output below replaces that head's output and the model runs again."
    ),
    "playground.back.go": "Back to the model with this edit",
    "playground.back.leave": "Not from the model any more",
    "playground.nav": "Playground",
    "playground.tour": (
        "Type, paste, upload or generate queries, keys and values; choose the scoring function and "
        "masks; see every step as a heatmap, and how one output row is made."
    ),
    "playground.title": "Playground",
    "playground.intro": (
        "Enter queries, keys and values, pick a scoring function and masks in the sidebar, and "
        "follow each step: raw scores, masked scores, softmax weights and outputs."
    ),
    "playground.rows_ok": "Every row with an allowed key sums to 1 (largest deviation {dev}).",
    "playground.rows_bad": "Rows do not sum to 1: largest deviation {dev}.",
    "playground.fully_masked": (
        "{count} query row(s) have every key masked: with fill value {fill} their weights are "
        "{what}."
    ),
    "playground.fully_masked.uniform": "uniform (1/m each), as the -1e6 trick gives",
    "playground.fully_masked.zeros": "all zero (a -inf fill leaves nothing to attend to)",
    "playground.steps_heading": "Step by step",
    "playground.breakdown_heading": "How one output row is made",
    "playground.breakdown_query": "Query to inspect",
    "playground.formula_heading": "The formulas with the current numbers",
    "playground.downloads_heading": "Download the matrices (CSV)",
    "playground.big_note": (
        "Numbers are hidden in the cells above {limit} × {limit}; hover to read them."
    ),
    "input.heading": "Inputs: queries, keys, values",
    "input.source": "Where the inputs come from",
    "input.source.edit": "Type, paste or edit",
    "input.source.upload": "Upload files",
    "input.source.random": "Random (seeded)",
    "input.preset": "Preset",
    "input.preset.textbook": "Textbook: one query, ten identical keys (d2l 11.3)",
    "input.preset.small": "Small example: 3 queries, 4 keys",
    "input.preset.tokens": "Self-attention: 4 tokens",
    "input.preset.apply": "Load preset",
    "input.preset.other": "The boxes hold other matrices than this preset's: Load preset puts its own back.",
    "input.self_attention": "Self-attention (keys = values = queries)",
    "input.self_attention.help": (
        "Use the queries as keys and values too, as a self-attention layer does."
    ),
    "input.queries": "Queries Q",
    "input.keys": "Keys K",
    "input.values": "Values V",
    "input.text_help": (
        "One row per line (or separated by ';'); numbers separated by commas or spaces."
    ),
    "input.grid": "Edit as a grid",
    "input.grid_too_big": (
        "The grid editor shows matrices up to {limit} × {limit}; use the text box for this one."
    ),
    "input.upload_help": (
        "CSV (comma-separated numbers, no header) or .npy (a 2-D numeric array), at most {rows} "
        "rows and {cols} columns."
    ),
    "input.uploaded": "Loaded {name}: {rows} × {cols}.",
    "input.n": "Queries n",
    "input.m": "Keys m",
    "input.d_q": "Query size d_q",
    "input.d_k": "Key size d_k",
    "input.d_v": "Value size d_v",
    "input.seed": "Seed",
    "input.new_seed": "New seed",
    "input.reset": "Reset to defaults",
    "input.random_note": "Entries drawn from N(0, 1) with seed {seed}: {n} queries, {m} keys.",
    "input.summary": "Q {n} × {d_q}, K {m} × {d_k}, V {m} × {d_v}.",
    "controls.heading": "Attention",
    "controls.score": "Scoring function",
    "score.dot": "Dot product  q·k",
    "score.scaled_dot": "Scaled dot product  q·k / √d",
    "score.cosine": "Cosine similarity",
    "score.general": "General (bilinear)  qᵀ W k",
    "score.additive": "Additive  w_vᵀ tanh(W_q q + W_k k)",
    "score.gaussian": "Gaussian kernel  −‖q − k‖² / 2σ²",
    "controls.temperature": "Temperature",
    "controls.temperature.help": "Scores are divided by the temperature before the softmax.",
    "controls.sigma": "Kernel width σ",
    "controls.hidden": "Hidden size h",
    "controls.param_seed": "Parameter seed",
    "controls.param_seed.help": (
        "W (general) or W_q, W_k, w_v (additive) are drawn from N(0, 1/fan_in) with this seed."
    ),
    "controls.masks": "Masks",
    "controls.valid_lens": "Padding: valid keys per query",
    "controls.valid_lens.help": (
        "One number (the same for every query) or one per query, separated by commas. Keys at "
        "positions ≥ the valid length are masked. Leave empty for no padding."
    ),
    "controls.causal": "Causal (query i sees keys 0..i)",
    "controls.cells": "Mask hand-picked cells",
    "controls.cells.help": "Untick a cell to forbid that query from attending to that key.",
    "controls.cells_too_big": "Hand-picked cells are available up to {limit} × {limit}.",
    "controls.fill": "Fill value for masked scores",
    "controls.show_masked": "Write masked values in their cells",
    "controls.show_masked.help": "On: a masked score cell shows the fill value, a masked weight "
    "its 0 (or 1/m in a fully masked row); the cells stay grey, so the fill value does not "
    "swamp the colours. Off: a × in each masked cell.",
    "controls.fill.help": (
        "The textbook writes -1e6 into masked scores; -inf gives zero weights to a fully masked "
        "row."
    ),
    "playground.click_tip": (
        "Click a cell of the scores or weights to inspect that query and key below."
    ),
    "playground.pick_tip": (
        "The matrices are too large for click targets: choose the query below (type to search); "
        "hover a heatmap to read a cell's row and column."
    ),
    "playground.selected_cell": (
        "Selected cell {query} → {key_label}: score {score}, weight {weight}{masked}"
    ),
    "playground.selected_masked": " (masked)",
}

KO: dict[str, str] = {
    "playground.back.from": (
        "이 Q, K, V는 모델 어텐션 페이지에 있는 모델의 **{layer}층 {head}번 헤드**입니다. 여기서 "
        "바꾼 뒤(숫자, 행, 점수 함수, 마스크) 돌아가면, 아래 출력이 그 헤드의 출력을 대신하고 "
        "모델이 다시 계산합니다."
    ),
    "playground.back.go": "이 편집을 가지고 모델로 돌아가기",
    "playground.back.leave": "더는 모델과 잇지 않기",
    "playground.nav": "플레이그라운드",
    "playground.tour": (
        "쿼리, 키, 값을 직접 입력하거나 붙여 넣거나 업로드하거나 무작위로 생성합니다. 점수 함수"
        "(scoring function)와 마스크를 고르고, 모든 단계를 히트맵으로 보며 출력의 한 행이 어떻게 "
        "만들어지는지 확인합니다."
    ),
    "playground.title": "플레이그라운드",
    "playground.intro": (
        "쿼리, 키, 값을 입력하고 사이드바에서 점수 함수와 마스크를 고른 다음 각 단계를 따라가 "
        "보세요: 원시 점수(raw score), 마스킹된 점수, 소프트맥스 가중치, 출력."
    ),
    "playground.rows_ok": "허용된 키가 있는 모든 행의 합이 1입니다(최대 편차 {dev}).",
    "playground.rows_bad": "행의 합이 1이 아닙니다: 최대 편차 {dev}.",
    "playground.fully_masked": (
        "쿼리 행 {count}개는 모든 키가 마스킹되었습니다. 채움 값이 {fill}일 때 이 행들의 가중치는 "
        "{what}."
    ),
    "playground.fully_masked.uniform": "균등합니다(각각 1/m, -1e6 기법이 주는 결과)",
    "playground.fully_masked.zeros": "모두 0입니다(-inf로 채우면 어텐션할 대상이 남지 않습니다)",
    "playground.steps_heading": "단계별 보기",
    "playground.breakdown_heading": "출력 한 행이 만들어지는 과정",
    "playground.breakdown_query": "살펴볼 쿼리",
    "playground.formula_heading": "현재 수치를 대입한 수식",
    "playground.downloads_heading": "행렬 내려받기(CSV)",
    "playground.big_note": (
        "{limit} × {limit}보다 큰 행렬은 셀에 숫자를 표시하지 않습니다. 마우스를 올려 값을 "
        "확인하세요."
    ),
    "input.heading": "입력: 쿼리, 키, 값",
    "input.source": "입력 방식",
    "input.source.edit": "입력, 붙여 넣기, 편집",
    "input.source.upload": "파일 업로드",
    "input.source.random": "무작위(시드 고정)",
    "input.preset": "프리셋",
    "input.preset.textbook": "교재: 쿼리 1개, 똑같은 키 10개(d2l 11.3)",
    "input.preset.small": "작은 예제: 쿼리 3개, 키 4개",
    "input.preset.tokens": "셀프 어텐션: 토큰 4개",
    "input.preset.apply": "프리셋 불러오기",
    "input.preset.other": "입력 칸에는 이 프리셋과 다른 행렬이 들어 있습니다. 프리셋 불러오기를 누르면 프리셋의 행렬로 돌아갑니다.",
    "input.self_attention": "셀프 어텐션(키 = 값 = 쿼리)",
    "input.self_attention.help": "셀프 어텐션 층처럼 쿼리를 키와 값으로도 사용합니다.",
    "input.queries": "쿼리 Q",
    "input.keys": "키 K",
    "input.values": "값 V",
    "input.text_help": "한 줄에 한 행(또는 ';'로 구분), 숫자는 쉼표나 공백으로 구분합니다.",
    "input.grid": "표로 편집",
    "input.grid_too_big": (
        "표 편집기는 {limit} × {limit}까지의 행렬만 보여 줍니다. 이 행렬은 텍스트 상자를 "
        "사용하세요."
    ),
    "input.upload_help": (
        "CSV (쉼표로 구분한 숫자, 헤더 없음) 또는 .npy (2차원 숫자 배열), 최대 {rows}행 {cols}열."
    ),
    "input.uploaded": "{name}에서 불러왔습니다: {rows} × {cols}.",
    "input.n": "쿼리 수 n",
    "input.m": "키 수 m",
    "input.d_q": "쿼리 크기 d_q",
    "input.d_k": "키 크기 d_k",
    "input.d_v": "값 크기 d_v",
    "input.seed": "시드",
    "input.new_seed": "새 시드",
    "input.reset": "기본값 복원",
    "input.random_note": "시드 {seed}로 N(0, 1)에서 뽑은 값: 쿼리 {n}개, 키 {m}개.",
    "input.summary": "Q {n} × {d_q}, K {m} × {d_k}, V {m} × {d_v}.",
    "controls.heading": "어텐션",
    "controls.score": "점수 함수",
    "score.dot": "닷 프로덕트  q·k",
    "score.scaled_dot": "스케일드 닷 프로덕트  q·k / √d",
    "score.cosine": "코사인 유사도",
    "score.general": "일반형(쌍선형)  qᵀ W k",
    "score.additive": "가산  w_vᵀ tanh(W_q q + W_k k)",
    "score.gaussian": "가우스 커널  −‖q − k‖² / 2σ²",
    "controls.temperature": "온도",
    "controls.temperature.help": "소프트맥스 전에 점수를 온도로 나눕니다.",
    "controls.sigma": "커널 폭 σ",
    "controls.hidden": "은닉 크기 h",
    "controls.param_seed": "파라미터 시드",
    "controls.param_seed.help": (
        "W (일반형) 또는 W_q, W_k, w_v (가산)를 이 시드로 N(0, 1/fan_in)에서 뽑습니다."
    ),
    "controls.masks": "마스크",
    "controls.valid_lens": "패딩: 쿼리별 유효 키 개수",
    "controls.valid_lens.help": (
        "숫자 하나(모든 쿼리에 같은 값) 또는 쿼리마다 하나씩 쉼표로 구분해 입력합니다. 위치가 "
        "유효 길이 이상(≥)인 키는 마스킹됩니다. 패딩을 쓰지 않으려면 비워 두세요."
    ),
    "controls.causal": "인과 마스크(쿼리 i는 키 0..i만 봄)",
    "controls.cells": "셀을 직접 골라 마스킹",
    "controls.cells.help": "셀의 체크를 해제하면 그 쿼리가 그 키에 어텐션하지 못합니다.",
    "controls.cells_too_big": "셀 직접 고르기는 {limit} × {limit}까지만 쓸 수 있습니다.",
    "controls.fill": "마스킹된 점수의 채움 값",
    "controls.show_masked": "마스킹된 칸에 값 쓰기",
    "controls.show_masked.help": "켜면 마스킹된 점수 칸에 채움 값, 마스킹된 가중치 칸에 0(모두 "
    "마스킹된 행은 1/m)을 씁니다. 칸은 회색으로 남아 채움 값이 색을 덮지 않습니다. 끄면 마스킹된 "
    "칸마다 ×를 그립니다.",
    "controls.fill.help": (
        "교재는 마스킹된 점수에 -1e6을 넣습니다. -inf를 넣으면 완전히 마스킹된 행의 가중치가 0이 "
        "됩니다."
    ),
    "playground.click_tip": (
        "점수나 가중치 히트맵의 셀을 클릭하면 그 쿼리와 키를 아래에서 자세히 볼 수 있습니다."
    ),
    "playground.pick_tip": (
        "행렬이 너무 커서 클릭으로 고를 수 없습니다. 아래에서 쿼리를 고르세요(입력해서 검색할 수 "
        "있습니다). 히트맵에 마우스를 올리면 셀의 행과 열을 볼 수 있습니다."
    ),
    "playground.selected_cell": (
        "선택한 셀 {query} → {key_label}: 점수 {score}, 가중치 {weight}{masked}"
    ),
    "playground.selected_masked": " (마스킹됨)",
}
