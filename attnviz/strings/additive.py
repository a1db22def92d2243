"""Strings of the additive attention lesson.

English (EN) and Korean (KO), key for key.
"""

EN: dict[str, str] = {
    "additive.nav": "Additive attention",
    "additive.tour": (
        "Parametric attention for queries and keys of different sizes: w_vᵀ tanh(W_q q + W_k k) "
        "beside scaled dot-product after projecting both."
    ),
    "additive.title": "Additive attention",
    "additive.intro": (
        "Scaled dot-product attention needs queries and keys of the same size. **Additive "
        "attention** (Bahdanau et al. 2015; d2l 11.3; Murphy, PML1 15.4) learns its scoring "
        "function instead: it projects query and key into a shared hidden space of size h, adds "
        "them, squashes the sum with tanh and reads one number off it with w_v. So a query of size "
        "q can be scored against a key of size k ≠ q."
    ),
    "additive.sizes_heading": "Sizes and seeds",
    "additive.n": "Queries n",
    "additive.m": "Keys m",
    "additive.d_q": "Query size q",
    "additive.d_k": "Key size k",
    "additive.d_v": "Value size d_v",
    "additive.seed": "Seed of Q, K, V",
    "additive.h": "Hidden size h",
    "additive.param_seed": "Seed of W_q, W_k, w_v",
    "additive.param_seed.help": (
        "W_q, W_k and w_v are drawn from N(0, 1/fan_in) with this seed, as attend does."
    ),
    "additive.inputs_note": "Q, K and V are drawn from N(0, 1) with seed {seed}.",
    "additive.params_heading": "Parameters W_q, W_k, w_v (edit them)",
    "additive.params_help": (
        "One row per line, numbers separated by commas. W_q has h = {h} rows of q = {d_q} numbers, "
        "W_k has h = {h} rows of k = {d_k} numbers, w_v is one row of h = {h} numbers. Changing h, "
        "q, k or the parameter seed draws all three anew."
    ),
    "additive.W_q": "W_q (h × q = {h} × {d_q})",
    "additive.W_k": "W_k (h × k = {h} × {d_k})",
    "additive.w_v": "w_v (h = {h} numbers)",
    "additive.redraw": "Re-draw from seed",
    "additive.formula_heading": "The scoring function with the current sizes",
    "additive.inputs_heading": "1. Queries, keys and values",
    "additive.projection_heading": "2. Project queries and keys to the hidden size h",
    "additive.projection_text": (
        "W_q maps every query (size {d_q}) and W_k every key (size {d_k}) to a vector of size h = "
        "{h}: after this step queries and keys live in the same space."
    ),
    "additive.features_heading": "3. The tanh features of one query",
    "additive.features_text": (
        "For the chosen query, each key j gives a feature vector tanh(W_q q_i + W_k k_j) of size "
        "h; its dot product with w_v is the score of that key."
    ),
    "additive.query": "Query to inspect",
    "additive.compare_heading": "4. Additive vs scaled dot-product on the same inputs",
    "additive.compare_text": (
        "Left: additive scores, weights and outputs. Right: scaled dot-product attention of the "
        "projected queries and keys, (W_q q_i)ᵀ(W_k k_j) / √h, with the same values."
    ),
    "additive.compare_additive": "Additive  w_vᵀ tanh(W_q q + W_k k)",
    "additive.compare_dot": "Scaled dot product after projection",
    "additive.difference": (
        "Largest difference between the two weight matrices: {diff}. Queries whose most attended "
        "key differs: {queries}."
    ),
    "additive.difference_none": "none",
    "additive.compare_click": (
        "Click a cell of any of these charts to see its query's features in step 3."
    ),
    "additive.fig.queries": "Queries Q (n × q)",
    "additive.fig.keys": "Keys K (m × k)",
    "additive.fig.values": "Values V (m × d_v)",
    "additive.fig.q_proj": "Projected queries Q W_qᵀ (n × h)",
    "additive.fig.k_proj": "Projected keys K W_kᵀ (m × h)",
    "additive.fig.features": "tanh(W_q q + W_k k_j) for query {query} (m × h)",
    "additive.fig.query_scores": "Scores of {query}",
    "additive.fig.scores": "Additive scores",
    "additive.fig.weights": "Additive weights",
    "additive.fig.output": "Additive outputs",
    "additive.fig.dot_scores": "Scaled dot-product scores",
    "additive.fig.dot_weights": "Scaled dot-product weights",
    "additive.fig.dot_output": "Scaled dot-product outputs",
    "additive.fig.units": "Hidden units",
    "additive.fig.unit": "unit",
    "additive.fig.dims": "Dimensions",
    "additive.fig.feature": "feature",
    "additive.fig.score": "score",
    "parse.additive_overflow": (
        "W_q q or W_k k overflows float32 (beyond about ±3.4e38): use smaller numbers in W_q and "
        "W_k."
    ),
    "parse.additive_shape": (
        "{name} has shape {found} but must be {expected}: fix the text or press “Re-draw from "
        "seed”."
    ),
}

KO: dict[str, str] = {
    "additive.nav": "가산 어텐션",
    "additive.tour": (
        "크기가 서로 다른 쿼리와 키를 위한 파라미터를 학습하는(parametric) 어텐션: w_vᵀ tanh(W_q "
        "q + W_k k)를 두 벡터를 사영한 뒤의 스케일드 닷 프로덕트와 나란히 비교합니다."
    ),
    "additive.title": "가산 어텐션",
    "additive.intro": (
        "스케일드 닷 프로덕트 어텐션(scaled dot-product attention)은 쿼리와 키의 크기가 같아야 "
        "합니다. **가산 어텐션** (additive attention; Bahdanau et al. 2015; d2l 11.3; Murphy, PML1 "
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
        "W_q는 각 쿼리(크기 {d_q})를, W_k는 각 키(크기 {d_k})를 크기 h = {h}인 벡터로 보냅니다. "
        "이 단계를 거치면 쿼리와 키가 같은 공간에 놓입니다."
    ),
    "additive.features_heading": "3. 쿼리 하나의 tanh 특성",
    "additive.features_text": (
        "선택한 쿼리에 대해 각 키 j는 크기 h인 특성 벡터 tanh(W_q q_i + W_k k_j)를 만듭니다. 이 "
        "벡터와 w_v의 내적이 그 키의 점수입니다."
    ),
    "additive.query": "살펴볼 쿼리",
    "additive.compare_heading": "4. 같은 입력에서 가산 어텐션과 스케일드 닷 프로덕트 비교",
    "additive.compare_text": (
        "왼쪽: 가산 어텐션의 점수, 가중치, 출력. 오른쪽: 사영한 쿼리와 키에 대한 스케일드 닷 "
        "프로덕트 어텐션(W_q q_i)ᵀ(W_k k_j) / √h, 값은 똑같이 사용합니다."
    ),
    "additive.compare_additive": "가산  w_vᵀ tanh(W_q q + W_k k)",
    "additive.compare_dot": "사영 후 스케일드 닷 프로덕트",
    "additive.difference": (
        "두 가중치 행렬의 최대 차이: {diff}. 가장 많이 어텐션하는 키가 서로 다른 쿼리: {queries}."
    ),
    "additive.difference_none": "없음",
    "additive.compare_click": ("아무 차트의 칸이나 누르면 그 쿼리의 특성이 3단계에 나타납니다."),
    "additive.fig.queries": "쿼리 Q (n × q)",
    "additive.fig.keys": "키 K (m × k)",
    "additive.fig.values": "값 V (m × d_v)",
    "additive.fig.q_proj": "사영한 쿼리 Q W_qᵀ (n × h)",
    "additive.fig.k_proj": "사영한 키 K W_kᵀ (m × h)",
    "additive.fig.features": "쿼리 {query}의 tanh(W_q q + W_k k_j) (m × h)",
    "additive.fig.query_scores": "{query}의 점수",
    "additive.fig.scores": "가산 어텐션 점수",
    "additive.fig.weights": "가산 어텐션 가중치",
    "additive.fig.output": "가산 어텐션 출력",
    "additive.fig.dot_scores": "스케일드 닷 프로덕트 점수",
    "additive.fig.dot_weights": "스케일드 닷 프로덕트 가중치",
    "additive.fig.dot_output": "스케일드 닷 프로덕트 출력",
    "additive.fig.units": "은닉 유닛",
    "additive.fig.unit": "유닛",
    "additive.fig.dims": "차원",
    "additive.fig.feature": "특성",
    "additive.fig.score": "점수",
    "parse.additive_overflow": (
        "W_q q 또는 W_k k가 float32 범위(약 ±3.4e38)를 넘습니다. W_q와 W_k에 더 작은 수를 쓰세요."
    ),
    "parse.additive_shape": (
        "{name}의 모양은 {found}이지만 {expected}이어야 합니다. 텍스트를 고치거나 “시드로 다시 "
        "뽑기”를 누르세요."
    ),
}
