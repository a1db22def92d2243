"""Strings of the figures kit: chart words (query, key, masked, ...) and the formulas' words.

English (EN) and Korean (KO), key for key.
"""

EN: dict[str, str] = {
    "fig.layer": "layer",
    "fig.head": "head",
    "fig.scores": "Raw scores",
    "fig.masked_scores": "Masked scores",
    "fig.weights": "Attention weights (softmax)",
    "fig.values": "Values V",
    "fig.output": "Outputs",
    "fig.queries": "Queries",
    "fig.keys": "Keys",
    "fig.dims": "Dimensions",
    "fig.masked": "masked",
    "fig.masked_shown": "masked, value shown",
    "fig.scale_max": "0 to max {top}",
    "fig.breakdown.masked_note": "× = masked key: its masked score s̃ is {fill}",
    "fig.hover.query": "query",
    "fig.hover.key": "key",
    "fig.hover.score": "score",
    "fig.hover.weight": "weight",
    "fig.hover.value": "value",
    "fig.breakdown.title": "Query {query}: scores, weights and contributions",
    "fig.breakdown.scores": "Scores per key",
    "fig.breakdown.weights": "Weight per key",
    "fig.breakdown.contrib": "weight × value (rows sum to the output)",
    "fig.breakdown.raw": "raw score",
    "fig.breakdown.masked": "masked score",
    "fig.breakdown.weight": "weight",
    "fig.breakdown.output": "output",
    "formula.scores": "Scores",
    "formula.mask": "Mask",
    "formula.softmax": "Softmax",
    "formula.output": "Output",
    "formula.allowed": "if query i may attend key j",
    "formula.otherwise": "otherwise",
    "fig.too_big": (
        "The chart “{title}” is not drawn: it would send {size} MB to the browser, over the "
        "{limit} MB one chart may send. A smaller input draws it."
    ),
    "fig.pooled": "each pixel: mean of {rows} × {cols} cells",
    "fig.breakdown.others": "other {count} keys",
    "fig.breakdown.top": (
        "The {shown} keys with the largest weights of {total}; the others are summed in one row."
    ),
    "fig.lines.queries": "Queries",
    "fig.lines.keys": "Keys",
    "fig.lines.row": "its strongest keys",
    "fig.lines.col": "the queries that attend to it most",
}

KO: dict[str, str] = {
    "fig.layer": "층",
    "fig.head": "헤드",
    "fig.scores": "원시 점수",
    "fig.masked_scores": "마스킹된 점수",
    "fig.weights": "어텐션 가중치(소프트맥스)",
    "fig.values": "값 V",
    "fig.output": "출력",
    "fig.queries": "쿼리",
    "fig.keys": "키",
    "fig.dims": "차원",
    "fig.masked": "마스킹됨",
    "fig.masked_shown": "마스킹됨, 값 표시",
    "fig.scale_max": "0~최댓값 {top}",
    "fig.breakdown.masked_note": "× = 마스킹된 키: 마스킹된 점수 s̃는 {fill}",
    "fig.hover.query": "쿼리",
    "fig.hover.key": "키",
    "fig.hover.score": "점수",
    "fig.hover.weight": "가중치",
    "fig.hover.value": "값",
    "fig.breakdown.title": "쿼리 {query}: 점수, 가중치, 기여도",
    "fig.breakdown.scores": "키별 점수",
    "fig.breakdown.weights": "키별 가중치",
    "fig.breakdown.contrib": "가중치 × 값(행을 더하면 출력)",
    "fig.breakdown.raw": "원시 점수",
    "fig.breakdown.masked": "마스킹된 점수",
    "fig.breakdown.weight": "가중치",
    "fig.breakdown.output": "출력",
    "formula.scores": "점수",
    "formula.mask": "마스크",
    "formula.softmax": "소프트맥스",
    "formula.output": "출력",
    "formula.allowed": "쿼리 i가 키 j에 어텐션할 수 있으면",
    "formula.otherwise": "그 밖의 경우",
    "fig.too_big": (
        "차트 “{title}”는 그리지 않았습니다: 브라우저로 {size} MB를 보내야 하는데, 차트 하나가 "
        "보낼 수 있는 {limit} MB를 넘습니다. 입력을 줄이면 그려집니다."
    ),
    "fig.pooled": "각 픽셀: {rows} × {cols}칸의 평균",
    "fig.breakdown.others": "나머지 키 {count}개",
    "fig.breakdown.top": (
        "{total}개 키 가운데 가중치가 가장 큰 {shown}개입니다. 나머지는 한 행으로 합쳤습니다."
    ),
    "fig.lines.queries": "쿼리",
    "fig.lines.keys": "키",
    "fig.lines.row": "가중치가 가장 큰 키",
    "fig.lines.col": "이 키에 가장 많이 어텐션하는 쿼리",
}
