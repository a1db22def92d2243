"""Strings of the multi-head attention lesson.

English (EN) and Korean (KO), key for key.
"""

EN: dict[str, str] = {
    "multihead.nav": "Multi-head attention",
    "multihead.tour": (
        "Multi-head self-attention over the tokens of a sentence, with positional encodings and "
        "one weight heatmap per head."
    ),
    "multihead.title": "Multi-head self-attention",
    "multihead.intro": (
        "In **self-attention** the queries, keys and values all come from the same tokens: each "
        "token's vector x is projected three times, q = x W_q + b_q, k = x W_k + b_k, "
        "v = x W_v + b_v. "
        "**Multi-head** attention cuts these projections into h slices of d_head = d_model / h "
        "columns and runs scaled dot-product attention on each slice separately, so each head can "
        "look for something different. The heads' outputs are put side by side (*concatenated*) "
        "and mixed by one more matrix W_o (plus a bias b_o). Here the token vectors are random "
        "but fixed (seeded): "
        "the same word always gets the same vector."
    ),
    "multihead.sentence": "Sentence",
    "multihead.sentence.help": (
        "Split into tokens at spaces and lower-cased, so “The” and “the” are the same token. At "
        "most {limit} tokens."
    ),
    "multihead.d_model": "d_model (vector size)",
    "multihead.heads": "Heads h",
    "multihead.heads.help": "d_model must be divisible by h: each head gets d_model / h columns.",
    "multihead.positional": "Positional encodings",
    "multihead.positional.help": (
        "Off: each token is only its word's vector, so the layer cannot tell where a word stands."
    ),
    "multihead.causal": "Causal mask",
    "multihead.causal.help": "Token i may attend only to tokens 0..i (itself and those before it).",
    "multihead.seed": "Seed",
    "multihead.seed.help": "Draws the token vectors and the matrices W_q, W_k, W_v, W_o.",
    "multihead.truncated": "The sentence has {found} tokens: only the first {limit} are used.",
    "multihead.inputs_heading": "Inputs: token vectors and positions",
    "multihead.pe_title": "Positional encodings PE (sin / cos)",
    "multihead.input_title": "Input X = embeddings + PE",
    "multihead.input_title_plain": "Input X = embeddings (no positions)",
    "multihead.pe_off": (
        "Positional encodings are off: the input X is just the word vectors. The encodings that "
        "would be added are still shown on the left."
    ),
    "multihead.heads_heading": "One weight matrix per head",
    "multihead.heads_title": "The {heads} heads' weights (click one to enlarge it)",
    "multihead.heads_click": "Head {head} is enlarged on the right.",
    "multihead.head": "Enlarged head",
    "multihead.head.help": "Heads are counted from 0, as in the code and on the model page.",
    "multihead.head_title": "Head {head} weights",
    "multihead.slices_heading": "Head {head}'s queries, keys and values",
    "multihead.slices_text": (
        "Q_{head} = X W_q^({head}) + b_q^({head}), and likewise K_{head} and V_{head}: the "
        "columns of this head's slice of the projections. Its weights are softmax(Q K^T / "
        "√d_head), its output those weights times V."
    ),
    "multihead.q_title": "Q_{head} = X W_q^({head}) + b_q^({head})",
    "multihead.k_title": "K_{head} = X W_k^({head}) + b_k^({head})",
    "multihead.v_title": "V_{head} = X W_v^({head}) + b_v^({head})",
    "multihead.output_heading": "Concatenation and output",
    "multihead.concat_title": "Concat(head_0, …, head_h-1): before W_o",
    "multihead.concat_x": "Dimensions ({d_head} per head)",
    "multihead.output_title": "Output = Concat · W_o + b_o",
    "multihead.tokens": "Tokens",
    "multihead.token": "token",
    "multihead.formula_heading": "The formulas with the current sizes",
    "multihead.downloads_heading": "Downloads",
    "multihead.symmetry_same": (
        "Without positional encodings, “{a}” (row {i}) and “{b}” (row {j}) have the same vector, "
        "so every head gives them **identical rows of weights** (largest difference {diff}). "
        "Self-attention alone treats the sentence as a bag of words: permuting the tokens only "
        "permutes the outputs."
    ),
    "multihead.symmetry_causal": (
        "“{a}” (row {i}) and “{b}” (row {j}) have the same vector and no positional encodings, yet "
        "their rows of weights differ (largest difference {diff}): the causal mask itself tells "
        "them apart, since each sees a different number of earlier tokens."
    ),
    "multihead.symmetry_positions": (
        "With positional encodings, “{a}” (row {i}) and “{b}” (row {j}) get different inputs, so "
        "their rows of weights differ (largest difference {diff}). Turn the encodings off to see "
        "the two rows become identical."
    ),
    "multihead.symmetry_none": (
        "Repeat a word (like “the” in the default sentence) to see what positional encodings "
        "change: without them, the two copies cannot be told apart."
    ),
    "multihead.formula_slices": (
        "W_q⁽ⁱ⁾ holds the columns i · d_head to (i + 1) · d_head − 1 of W_q, and b_q⁽ⁱ⁾ the same "
        "entries of the bias b_q (likewise for K and V); b_o is the output's bias. Heads are "
        "counted from 0, as in the code and on the model page: the paper (Vaswani et al. 2017) "
        "writes the same formula with head₁, …, head_h."
    ),
    "multihead.formula_mask": (
        "With the causal mask, the score of every key after its query is set to $-10^6$ before "
        "the softmax, so its weight is 0."
    ),
    "multihead.formula_sizes": "With the current sizes",
    "multihead.formula_row": (
        "The last token's row of weights in head {head}, as in the enlarged heatmap:"
    ),
    "parse.multihead_empty": "The sentence is empty: type at least one word.",
    "parse.multihead_heads": (
        "d_model = {d_model} cannot be split into {heads} heads: d_model must be divisible by the "
        "number of heads (d_head = d_model / h). With d_model = {d_model}, these numbers of heads "
        "work: {options}."
    ),
}

KO: dict[str, str] = {
    "multihead.nav": "멀티헤드 어텐션",
    "multihead.tour": (
        "문장의 토큰에 대한 멀티헤드 셀프 어텐션(multi-head self-attention): 위치 인코딩"
        "(positional encoding)과 헤드마다 하나씩 그린 가중치 히트맵."
    ),
    "multihead.title": "멀티헤드 셀프 어텐션",
    "multihead.intro": (
        "**셀프 어텐션** (self-attention)에서는 쿼리, 키, 값이 모두 같은 토큰에서 나옵니다. 각 "
        "토큰의 벡터 x를 세 번 사영해 q = x W_q + b_q, k = x W_k + b_k, v = x W_v + b_v를 "
        "얻습니다. **멀티헤드** "
        "(multi-head) 어텐션은 이 사영을 d_head = d_model / h개 열씩 h개 조각으로 나누고 조각마다 "
        "따로 스케일드 닷 프로덕트 어텐션을 실행하므로, 헤드마다 서로 다른 것을 찾을 수 있습니다. "
        "헤드들의 출력은 나란히 이어 붙인 뒤(*연결*, concatenate) 행렬 W_o 하나와 편향 b_o로 "
        "섞습니다. "
        "여기서 토큰 벡터는 무작위이지만(시드로) 고정되어 있어서, 같은 단어는 항상 같은 벡터를 "
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
    "multihead.input_title_plain": "입력 X = 임베딩(위치 정보 없음)",
    "multihead.pe_off": (
        "위치 인코딩이 꺼져 있으므로 입력 X는 단어 벡터 그대로입니다. 더해졌을 인코딩은 왼쪽에 "
        "그대로 보여 줍니다."
    ),
    "multihead.heads_heading": "헤드마다 가중치 행렬 하나",
    "multihead.heads_title": "헤드 {heads}개의 가중치(하나를 누르면 크게 보입니다)",
    "multihead.heads_click": "오른쪽에 크게 보이는 것은 헤드 {head}입니다.",
    "multihead.head": "크게 볼 헤드",
    "multihead.head.help": "헤드는 코드와 모델 페이지처럼 0부터 셉니다.",
    "multihead.head_title": "헤드 {head}의 가중치",
    "multihead.slices_heading": "헤드 {head}의 쿼리, 키, 값",
    "multihead.slices_text": (
        "Q_{head} = X W_q^({head}) + b_q^({head})이고 K_{head}, V_{head}도 같은 방식입니다. 사영 "
        "가운데 이 헤드가 맡은 조각의 열입니다. 이 헤드의 가중치는 softmax(Q K^T / √d_head)이고, "
        "출력은 그 가중치에 V를 곱한 것입니다."
    ),
    "multihead.q_title": "Q_{head} = X W_q^({head}) + b_q^({head})",
    "multihead.k_title": "K_{head} = X W_k^({head}) + b_k^({head})",
    "multihead.v_title": "V_{head} = X W_v^({head}) + b_v^({head})",
    "multihead.output_heading": "연결과 출력",
    "multihead.concat_title": "Concat(head_0, …, head_h-1): W_o 적용 전",
    "multihead.concat_x": "차원(헤드당 {d_head}개)",
    "multihead.output_title": "출력 = Concat · W_o + b_o",
    "multihead.tokens": "토큰",
    "multihead.token": "토큰",
    "multihead.formula_heading": "현재 크기를 대입한 수식",
    "multihead.downloads_heading": "내려받기",
    "multihead.symmetry_same": (
        "위치 인코딩이 없으면 {i}행의 “{a}”와 {j}행의 “{b}”, 두 토큰은 벡터가 같으므로 모든 헤드가 "
        "두 토큰에 **똑같은 가중치 행**을 줍니다(최대 차이 {diff}). 셀프 어텐션만으로는 문장을 "
        "단어 주머니(bag of words)로 다룹니다. 토큰의 순서를 바꾸면 출력의 순서만 바뀝니다."
    ),
    "multihead.symmetry_causal": (
        "{i}행의 “{a}”와 {j}행의 “{b}”, 두 토큰은 벡터가 같고 위치 인코딩도 없지만 가중치 행이 "
        "서로 다릅니다(최대 차이 {diff}). 두 토큰이 볼 수 있는 앞 토큰의 개수가 달라서, 인과 "
        "마스크 자체가 둘을 구별해 줍니다."
    ),
    "multihead.symmetry_positions": (
        "위치 인코딩이 있으면 {i}행의 “{a}”와 {j}행의 “{b}”, 두 토큰은 서로 다른 입력을 받으므로 "
        "가중치 행도 다릅니다(최대 차이 {diff}). 인코딩을 끄면 두 행이 똑같아지는 것을 볼 수 "
        "있습니다."
    ),
    "multihead.symmetry_none": (
        "단어를 반복해 보면(기본 문장의 “the”처럼) 위치 인코딩이 무엇을 바꾸는지 알 수 있습니다. "
        "위치 인코딩이 없으면 반복된 두 단어를 구별할 수 없습니다."
    ),
    "multihead.formula_slices": (
        "W_q⁽ⁱ⁾는 W_q의 i · d_head번째부터(i + 1) · d_head − 1번째까지의 열이고, b_q⁽ⁱ⁾는 편향 "
        "b_q의 같은 성분입니다(K와 V도 같습니다). b_o는 출력의 편향입니다. 헤드는 코드와 모델 "
        "페이지처럼 0부터 셉니다. 논문(Vaswani et al. 2017)은 같은 식을 head₁, …, head_h로 "
        "씁니다."
    ),
    "multihead.formula_mask": (
        "인과 마스크를 켜면 쿼리보다 뒤에 있는 키의 점수를 소프트맥스 전에 $-10^6$으로 바꾸므로, "
        "그 가중치는 0이 됩니다."
    ),
    "multihead.formula_sizes": "현재 크기에서",
    "multihead.formula_row": "헤드 {head}에서 마지막 토큰의 가중치 행(크게 보인 히트맵과 같음):",
    "parse.multihead_empty": "문장이 비어 있습니다. 단어를 하나 이상 입력하세요.",
    "parse.multihead_heads": (
        "d_model = {d_model}: 헤드 {heads}개로 나눌 수 없습니다. d_model은 헤드 수로 "
        "나누어떨어져야 합니다(d_head = d_model / h). d_model = {d_model}에서 가능한 헤드 수: "
        "{options}."
    ),
}
