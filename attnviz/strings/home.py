"""Strings of the landing page (dashboard.py).

English (EN) and Korean (KO), key for key.
"""

EN: dict[str, str] = {
    "home.nav": "Overview",
    "home.title": "attnviz: see how attention works",
    "home.intro": (
        "Attention turns a set of **queries** into outputs by looking at a set of **keys** and "
        "**values**. Each query is compared with every key (a *score*), some pairs may be "
        "forbidden (a *mask*), the scores of each query become weights that sum to 1 (*softmax*), "
        "and the output is the weighted sum of the values."
    ),
    "home.pipeline_title": "From queries, keys and values to outputs",
    "home.example_heading": "A tiny live example",
    "home.example_text": (
        "Three queries and four keys in two dimensions, scored with scaled dot-product. Drag the "
        "temperature: a low temperature sharpens each row of weights towards its best-matching "
        "key, a high one spreads it out."
    ),
    "home.tour_heading": "Pages",
    "pipeline.queries": "queries Q (n × d_q)",
    "pipeline.keys": "keys K (m × d_k)",
    "pipeline.values": "values V (m × d_v)",
    "pipeline.scores": "scores a(q, k) (n × m)",
    "pipeline.mask": "mask (padding, causal, cells)",
    "pipeline.softmax": "softmax per row: weights",
    "pipeline.output": "output = weights · V (n × d_v)",
}

KO: dict[str, str] = {
    "home.nav": "개요",
    "home.title": "attnviz: 어텐션의 작동 원리를 눈으로 확인하기",
    "home.intro": (
        "어텐션(attention)은 **키** (key)와 **값** (value)의 집합을 살펴서 **쿼리** (query)의 "
        "집합을 출력으로 바꿉니다. 각 쿼리를 모든 키와 비교하고(*점수*, score), 일부 쌍은 금지할 "
        "수 있으며(*마스크*, mask), 쿼리마다 점수를 합이 1인 가중치로 바꾸고(*소프트맥스*, "
        "softmax), 출력은 값들의 가중합입니다."
    ),
    "home.pipeline_title": "쿼리, 키, 값에서 출력까지",
    "home.example_heading": "작은 실시간 예제",
    "home.example_text": (
        "2차원 공간의 쿼리 3개와 키 4개를 스케일드 닷 프로덕트(scaled dot-product)로 "
        "점수화합니다. 온도(temperature) 슬라이더를 움직여 보세요. 온도가 낮으면 가중치의 각 행이 "
        "가장 잘 맞는 키 쪽으로 뾰족해지고, 높으면 고르게 퍼집니다."
    ),
    "home.tour_heading": "페이지 안내",
    "pipeline.queries": "쿼리 Q (n × d_q)",
    "pipeline.keys": "키 K (m × d_k)",
    "pipeline.values": "값 V (m × d_v)",
    "pipeline.scores": "점수 a(q, k) (n × m)",
    "pipeline.mask": "마스크(패딩, 인과, 셀)",
    "pipeline.softmax": "행별 소프트맥스: 가중치",
    "pipeline.output": "출력 = 가중치 · V (n × d_v)",
}
