"""Strings of the NLI alignment lesson.

English (EN) and Korean (KO), key for key.
"""

EN: dict[str, str] = {
    "nli.nav": "NLI alignment",
    "nli.tour": (
        "Premise and hypothesis: the decomposable attention model's alignment matrix over real "
        "MiniLM token embeddings, both softmax directions, the hard alignment, a batch of pairs."
    ),
    "nli.title": "NLI alignment",
    "nli.intro": (
        "The decomposable attention model (Parikh et al. 2016) aligns a premise A and a hypothesis "
        "B token by token: **attend** scores every pair e_ij = F(a_i)ᵀ F(b_j) and soft-aligns each "
        "token to the other sentence, **compare** sets each token beside its soft alignment, "
        "**aggregate** sums the comparisons. Each sentence is embedded on its own by MiniLM, "
        "without [CLS] and [SEP]."
    ),
    "nli.mode": "Pairs",
    "nli.mode.single": "One pair",
    "nli.mode.batch": "A batch of pairs",
    "nli.preset": "Example",
    "nli.preset.sleep": "PML's figure: I do need sleep / I am tired",
    "nli.preset.entailment": "Entailment: guitar / music",
    "nli.preset.contradiction": "Contradiction: sleeping / running",
    "nli.preset.neutral": "Neutral: dog / ball",
    "nli.preset.apply": "Load example",
    "nli.premise": "Premise A",
    "nli.hypothesis": "Hypothesis B",
    "nli.batch_text": "Pairs, one per line: premise ||| hypothesis (or a tab between them)",
    "nli.batch_upload": "…or upload a CSV with the columns premise, hypothesis",
    "nli.batch_loaded": "Loaded {count} pairs from {name}.",
    "nli.batch_choice": "Pair to view",
    "nli.controls": "Alignment",
    "nli.source": "Token embeddings",
    "nli.source.contextual": "MiniLM contextual (a layer's output)",
    "nli.source.static": "MiniLM static input embeddings",
    "nli.source.random": "Random baseline (seeded)",
    "nli.layer": "MiniLM layer (0 = embedding output)",
    "nli.f": "F (applied before the dot product)",
    "nli.f.identity": "Identity: e_ij = a_iᵀ b_j",
    "nli.f.mlp": "One-layer MLP (seeded, untrained)",
    "nli.seed": "Seed of the untrained layers",
    "nli.hypothesis_rows": "Hypothesis tokens as rows (the textbook's view)",
    "nli.hypothesis_rows.help": (
        "Off: premise tokens as rows, each soft-aligned to the hypothesis (beta)."
    ),
    "nli.e_title": "Alignment scores e",
    "nli.weights_rows_title": "Softmax over each row: {rows} token → {cols}",
    "nli.weights_cols_title": "Softmax over each column: {cols} token → {rows}",
    "nli.hard_title": "Hard alignment (argmax of each row)",
    "nli.premise_tokens": "Premise",
    "nli.hypothesis_tokens": "Hypothesis",
    "nli.pairs_heading": "Aligned token pairs",
    "nli.col.row_token": "{rows} token",
    "nli.col.col_token": "aligned {cols} token",
    "nli.col.weight": "weight",
    "nli.compare_heading": "Compare and aggregate",
    "nli.untrained": (
        "F, G and the sums below use **untrained, seeded** layers: they show how the model "
        "computes, not whether the premise entails the hypothesis."
    ),
    "nli.compare_a": "G([a_i; β_i]) per premise token",
    "nli.compare_b": "G([b_j; α_j]) per hypothesis token",
    "nli.aggregate": "Aggregated v_A and v_B",
    "nli.dims": "dimension",
    "nli.similarity": "Sentence similarity",
    "nli.similarity.help": (
        "Cosine of the mean-pooled token embeddings: how alike the two sentences are, not an "
        "entailment verdict."
    ),
    "nli.batch_heading": "All pairs",
    "nli.col.premise": "premise",
    "nli.col.hypothesis": "hypothesis",
    "nli.col.similarity": "similarity",
    "nli.col.tokens": "tokens (A, B)",
    "nli.truncated": "{which} was cut to its first {limit} word pieces.",
    "nli.caveat": (
        "MiniLM's vocabulary is English and uncased: this pair has word pieces it does not know "
        "([UNK]) or letters split into jamo pieces, so these alignments mean little."
    ),
    "nli.sentence_of_pair": "{side} of pair {pair}",
}

KO: dict[str, str] = {
    "nli.nav": "NLI 정렬",
    "nli.tour": (
        "전제 (premise)와 가설 (hypothesis): 실제 MiniLM 토큰 임베딩 위에서 본 분해 가능 어텐션 "
        "모델 (decomposable attention model)의 정렬 (alignment) 행렬, 소프트맥스의 두 방향, 하드 "
        "정렬 (hard alignment), 여러 문장 쌍의 배치."
    ),
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
    "nli.sentence_of_pair": "{pair}번째 쌍의 {side}",
}
