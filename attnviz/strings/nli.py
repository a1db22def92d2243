"""Strings of the NLI alignment lesson.

English (EN) and Korean (KO), key for key.
"""

EN: dict[str, str] = {
    "nli.nav": "NLI alignment",
    "nli.tour": (
        "Premise and hypothesis: a trained decomposable attention model's verdict and the "
        "alignment it learned over real MiniLM token embeddings, beside an untrained one; a batch "
        "of pairs with accuracy where they carry labels."
    ),
    "nli.title": "NLI alignment",
    "nli.intro": (
        "The decomposable attention model (Parikh et al. 2016) aligns a premise A and a "
        "hypothesis B token by token: **attend** scores every pair e_ij = F(a_i)ᵀ F(b_j) and "
        "soft-aligns each token to the other sentence, **compare** sets each token beside its"
        " soft alignment, **aggregate** sums the comparisons. Each sentence is read on its "
        "own by MiniLM, without [CLS] and [SEP]. The verdict comes from a model trained on "
        "pairs people wrote for SNLI and MultiNLI, with MiniLM's layers fine-tuned under it; "
        "its attend step scores by a sharpened cosine, e_ij = k cos(a_i, b_j), so its "
        "alignment stays readable."
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
    "nli.batch_text": (
        "Pairs, one per line: premise ||| hypothesis [||| label] (or tabs between them)"
    ),
    "nli.batch_upload": (
        "…or upload a file: CSV (premise, hypothesis, optional label), SNLI / MultiNLI JSONL "
        "or their tab-separated .txt"
    ),
    "nli.batch_loaded": "Loaded {count} pairs from {name}.",
    "nli.batch_skipped": "{count} rows without a gold label (-) were skipped.",
    "nli.batch_choice": "Pair to view",
    "nli.controls": "Alignment",
    "nli.source": "Token embeddings",
    "nli.source.contextual": "MiniLM contextual (a layer's output)",
    "nli.source.static": "MiniLM static input embeddings",
    "nli.source.random": "Random baseline (seeded)",
    "nli.layer": "MiniLM layer whose output is read",
    "nli.layer.help": (
        "Layers are numbered as on the model page: 0 is the first transformer layer and {last} "
        "the last. “embeddings” is what enters layer 0: the word, position and segment "
        "embeddings, summed and normalised."
    ),
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
    "nli.hard_note": "hard alignment (each row's argmax)",
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
    "nli.compare_title": "Compare (G per token) and aggregate (v, the sum over tokens)",
    "nli.vector": "vector",
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
    "nli.read.summary": "{name} ({fmt}): {rows} rows, {kept} kept ({counts}); {unlabelled} without a gold label (-) skipped; {bad} bad.",
    "nli.read.bad_row": "Line {line}: {detail}",
    "nli.read.more_bad": "… and {count} more bad rows.",
    "nli.scale": "Scale of e (untrained view)",
    "nli.scale.none": "None: e = F(a)ᵀF(b) (the paper)",
    "nli.scale.sqrt_d": "Divide by √d",
    "nli.scale.temperature": "Divide by a temperature T",
    "nli.scale.help": (
        "384-wide dot products are large (tens), so an unscaled softmax is nearly one-hot; "
        "dividing by √d keeps it soft. The trained model uses the scale of its card."
    ),
    "nli.scale.why": "Why divide by √d?",
    "nli.temperature": "Temperature T",
    "nli.batch_help": (
        "An optional third field is the gold label (entailment, neutral or contradiction): "
        "the page then shows the accuracy and a confusion matrix."
    ),
    "nli.verdict.loading": "Loading the trained NLI classifier…",
    "nli.verdict.title": "Verdict of the trained model",
    "nli.verdict.axis": "probability",
    "nli.verdict.metric": "Verdict",
    "nli.verdict.missing": "No trained classifier could be loaded, so there is no verdict: {detail}",
    "nli.label.entailment": "entailment",
    "nli.label.neutral": "neutral",
    "nli.label.contradiction": "contradiction",
    "nli.confusion.gold": "gold label",
    "nli.confusion.predicted": "predicted",
    "nli.confusion.share": "share of the gold row",
    "nli.confusion.bar": "row share",
    "nli.confusion.count": "pairs",
    "nli.card.open": "About this model",
    "nli.card.text": (
        "Decomposable attention (Parikh et al. 2016), F, G and H two-layer MLPs of width "
        "{hidden}, trained on {data} over {source}."
    ),
    "nli.card.static": "MiniLM's static input embeddings",
    "nli.card.layer": "MiniLM layer {layer}'s contextual output",
    "nli.card.embeddings": "MiniLM's embedding output (before layer 0)",
    "nli.card.minilm": (
        "MiniLM itself was fine-tuned (sentence-transformers, a contrastive loss) on sentence "
        "pairs that include SNLI and MultiNLI, each sentence encoded alone as this page encodes "
        "them, so its embeddings already carry some of the signal this model learns."
    ),
    "nli.trained_heading": "Trained: the alignment the model attends with",
    "nli.untrained_heading": "Untrained: the sidebar's F and scale",
    "nli.compare_trained": "The trained model's G per token and its aggregated v_A, v_B (H reads these).",
    "nli.untrained_compare_heading": "The same steps with untrained, seeded layers",
    "nli.col.gold": "gold label",
    "nli.col.verdict": "verdict",
    "nli.col.probability": "P({label})",
    "nli.col.probabilities": "probabilities (E, N, C)",
    "nli.batch_accuracy": "Accuracy on the labelled pairs",
    "nli.batch_accuracy.of": "{correct} of {total}",
    "nli.batch_confusion": "Gold label × verdict",
    "nli.learned_heading": "What the model learned: what it was measured on",
    "nli.learned_confusion": "{data}: gold label × verdict",
    "nli.learned_mistakes": "Pairs of attnviz's own test split it gets wrong",
    "nli.verdict.by_shipped": "The verdict of a model trained by attnviz on its own written pairs.",
    "nli.verdict.by_session": "The verdict of {name}, a model trained or loaded in this session.",
    "nli.verdict.calibrated": "Probabilities calibrated on {on} (temperature {temperature}).",
    "nli.verdict.uncalibrated": (
        "Probabilities not calibrated: this model's card has no temperature, so they are its raw "
        "softmax and may claim more certainty than it has."
    ),
    "nli.verdict.cut": "{which} was cut to the model's first {limit} word pieces: the verdict reads only those.",
    "nli.cards.heading": "Compare the models",
    "nli.cards.intro": "Each model's card side by side: what it was trained on and how it scores.",
    "nli.cards.shipped": "shipped",
    "nli.cards.setting": "setting",
    "nli.cards.data": "trained on",
    "nli.cards.pairs": "training pairs",
    "nli.cards.source": "embeddings",
    "nli.cards.align": "attend step",
    "nli.cards.dev": "dev / selection accuracy",
    "nli.cards.test": "accuracy there",
    "nli.cards.baseline": "hypothesis-only accuracy there",
    "nli.cards.temperature": "temperature",
    "nli.cards.ece": "calibration error there (before → after)",
    "nli.cards.hits": "alignment hits (untrained)",
    "nli.cards.swap": "entailment kept with another scene's premise",
    "nli.align.mlp": "F(a)ᵀF(b), F learned (the paper)",
    "nli.align.cosine": "k·cos(a, b), k learned",
    "nli.align.residual": "k·cos(a + F(a), b + F(b)), F learned from 0",
    "nli.learned_checks": (
        "**Alignment**: for {rate} of {marked} hypothesis words whose premise words a person "
        "marked, the premise word with the most weight is one of them (the same token "
        "vectors, untrained: {untrained}). **Reading the premise**: with each entailment of "
        "attnviz's test split given another scene's premise, it still says entailment for "
        "{swapped} of them ({own} with their own premise)."
    ),
    "nli.hard_heading": "What decomposable attention cannot do: the hard set",
    "nli.hard_text": (
        "{pairs} pairs written against lexical cues (swapped roles, numbers, quantifiers, "
        "comparisons), never trained on. The model is right on **{accuracy}** of them, against "
        "**{test}** on ordinary pairs. Decomposable attention compares soft-aligned words and "
        "sums the comparisons: a bag of alignments, so what depends on order or arithmetic is "
        "out of its reach."
    ),
    "nli.col.tag": "phenomenon",
    "nli.col.accuracy": "accuracy",
    "nli.col.pairs": "pairs",
    "nli.col.why": "why",
    "nli.why.word_order": "No word order: the sums are the same whoever did what to whom.",
    "nli.why.number": "No arithmetic: 3 + 4 and 7 are different words, never added up.",
    "nli.why.quantifier": "All, some, most align to each other as words; their scope is not computed.",
    "nli.why.comparison": "Taller and shorter align alike; which side of the comparison each name is on is order.",
    "nli.why.negation": 'One aligned "not" is a single token among many in the sum, easily outweighed.',
    "nli.why.temporal": "Before and after are order again: the events align, their sequence does not.",
    "nli.why.overlap": "High word overlap looks like entailment to a model of aligned words.",
    "nli.why.paraphrase": "Paraphrases align well when their words are similar, less so when they are not.",
    "nli.why.addition": "An added detail aligns to nothing; the model must learn that this means neutral.",
    "nli.why.antonym": "Antonyms sit close in embedding space and align as if they matched.",
    "nli.why.world_knowledge": "What is not in either sentence cannot be aligned.",
    "nli.why.modality": "Might, must and can are single words whose effect spans the clause.",
    "nli.why.coreference": 'Who "she" is needs more than one alignment step.',
    "nli.why.synonym": "Synonyms align by MiniLM's similarity: mostly right.",
    "nli.why.hypernym": "A dog is an animal, but not the other way round: alignment is symmetric.",
    "nli.mode.file": "Score a file",
    "nli.score.upload": "An evaluation file to score",
    "nli.score.accepted": (
        "SNLI / MultiNLI JSONL or their tab-separated .txt, or a CSV / TSV with premise and "
        "hypothesis columns (or sentence1, sentence2) and an optional label column. Up to "
        "{pairs} pairs and {mb} MB; rows labelled - (no gold label) are dropped and counted."
    ),
    "nli.score.none": (
        "Upload a file to score every pair in it: the accuracy, the confusion matrix, "
        "accuracy per label and per hypothesis length, and the pairs the model gets wrong, "
        "each a click away from its alignment."
    ),
    "nli.score.waiting": (
        "Another file is being scored on this server: {ahead} ahead of yours. Yours starts "
        "when they finish."
    ),
    "nli.score.progress": "Scoring: {done} of {total} pairs, about {left} s left",
    "nli.score.read": "**{name}**: {pairs} pairs scored.",
    "nli.score.dropped": "{count} rows without a gold label (-) were dropped.",
    "nli.score.no_labels": (
        "This file has no gold labels: every pair is listed below with its verdict."
    ),
    "nli.score.ci": "95% interval (Wilson): {low} to {high}",
    "nli.score.per_label": "Accuracy per gold label",
    "nli.score.per_length": "Accuracy per hypothesis length",
    "nli.score.words": "hypothesis words",
    "nli.score.accuracy": "accuracy",
    "nli.score.bar": "{accuracy}<br>({pairs})",
    "nli.score.wrong": "Pairs it gets wrong ({count})",
    "nli.score.filter": "Gold label",
    "nli.score.click": "Click a row to see that pair's verdict and alignment below.",
    "nli.score.csv": "every pair's probabilities",
    "nli.confusion.caption": (
        "Colour and number are the same quantity: the share of each gold label's pairs given "
        "each verdict (a row sums to 1). Hover a cell for its count."
    ),
    "nli.col.pair": "pair",
    "nli.col.confidence": "P(verdict)",
    "nli.card.tuned": "MiniLM's first {layers} layers, fine-tuned with it",
    "nli.card.real_data": "**{pairs}** pairs people wrote for SNLI and MultiNLI",
    "nli.card.own_data": "**{pairs}** pairs of `{file}`, attnviz's own written pairs",
    "nli.card.headline": (
        "**{accuracy}** on {data} ({pairs} pairs, 95% interval {low}–{high}); a "
        "hypothesis-only baseline, trained the same way: **{baseline}**."
    ),
    "nli.card.own_second": "On attnviz's own written test split: {accuracy}.",
    "nli.data.snli_test": "SNLI's test set",
    "nli.data.own_test": "attnviz's own written test split",
    "nli.verdict.convention": (
        "Read as SNLI's annotators read a pair: both sentences describe the same scene, so a "
        "hypothesis about another scene is a contradiction."
    ),
    "nli.verdict.by_real": (
        "The verdict of the shipped model, trained on pairs people wrote for SNLI and MultiNLI."
    ),
    "nli.verdict.fitted_select": "held-out SNLI and MultiNLI dev pairs",
    "nli.verdict.fitted_dev": "the dev split",
    "nli.learned.snli_test": (
        "**SNLI's test set** ({pairs} pairs people wrote for SNLI, scored once, never trained"
        " on): right **{accuracy}** of the time (95% interval {low}–{high}); per gold label "
        "{per_label}. Expected calibration error {ece}. A model that never sees the premise "
        "(hypothesis only, trained the same way) scores **{baseline}**: reading the premise "
        "adds {gap} points."
    ),
    "nli.learned.own_test": (
        "**attnviz's own written test split** ({pairs} pairs): right **{accuracy}** of the "
        "time (95% interval {low}–{high}); per gold label {per_label}. Expected calibration "
        "error {ece}. A model that never sees the premise scores **{baseline}**: reading the "
        "premise adds {gap} points."
    ),
    "nli.learned.mnli_select": (
        "**MultiNLI's matched dev pairs held out for selection** ({pairs} pairs of the five "
        "training genres): {accuracy} (95% interval {low}–{high}); hypothesis only "
        "{baseline}."
    ),
    "nli.learned.own_second": (
        "Second, on **attnviz's own written test split** ({pairs} pairs, written for attnviz,"
        " not a benchmark): {accuracy}; per gold label {per_label}."
    ),
    "nli.cards.measured": "measured on",
    "nli.card.attend_minilm": (
        "Its attend step scores {source}, untouched by the fine-tuning: the alignment it "
        "shows is MiniLM's own similarity, sharpened."
    ),
}

KO: dict[str, str] = {
    "nli.nav": "NLI 정렬",
    "nli.tour": (
        "전제(premise)와 가설(hypothesis): 학습한 분해 가능 어텐션 모델(decomposable attention "
        "model)의 판정과, 실제 MiniLM 토큰 임베딩 위에서 그 모델이 배운 정렬(alignment)을 학습하지 "
        "않은 정렬과 나란히 봅니다. 레이블이 있는 배치는 정확도도 보여 줍니다."
    ),
    "nli.title": "NLI 정렬",
    "nli.intro": (
        "분해 가능 어텐션 모델(decomposable attention model; Parikh et al. 2016)은 전제(premise) A와 "
        "가설(hypothesis) B를 토큰 단위로 정렬(alignment)합니다. **주목**(attend) 단계는 모든 쌍의 점수 e_ij = "
        "F(a_i)ᵀ F(b_j)를 계산하고 각 토큰을 다른 문장에 소프트 정렬하며, **비교**(compare) 단계는 각 토큰을 그 소프트 정렬과 나란히"
        " 놓고, **집계**(aggregate) 단계는 비교 결과를 합합니다. 두 문장은 [CLS]와 [SEP] 없이 MiniLM으로 각각 따로 읽습니다. "
        "판정은 사람들이 SNLI와 MultiNLI를 위해 쓴 쌍으로 학습한 모델이 내리며, 그 아래의 MiniLM 층도 함께 미세 조정했습니다. 이 모델의 "
        "주목 단계는 날카롭게 만든 코사인 e_ij = k cos(a_i, b_j)로 점수를 매기므로 그 정렬을 읽을 수 있습니다."
    ),
    "nli.mode": "문장 쌍",
    "nli.mode.single": "한 쌍",
    "nli.mode.batch": "여러 쌍(배치)",
    "nli.preset": "예제",
    "nli.preset.sleep": "PML의 그림: I do need sleep / I am tired",
    "nli.preset.entailment": "함의: guitar / music",
    "nli.preset.contradiction": "모순: sleeping / running",
    "nli.preset.neutral": "중립: dog / ball",
    "nli.preset.apply": "예제 불러오기",
    "nli.premise": "전제 A",
    "nli.hypothesis": "가설 B",
    "nli.batch_text": "한 줄에 한 쌍씩: 전제 ||| 가설 [||| 레이블] (또는 사이에 탭)",
    "nli.batch_upload": (
        "…또는 파일 업로드: CSV (premise, hypothesis, 선택 사항인 label), SNLI / MultiNLI "
        "JSONL 또는 탭으로 구분한 .txt"
    ),
    "nli.batch_loaded": "{name}에서 {count}개 쌍을 불러왔습니다.",
    "nli.batch_skipped": "정답 레이블이 없는(-) {count}행은 건너뛰었습니다.",
    "nli.batch_choice": "볼 문장 쌍",
    "nli.controls": "정렬",
    "nli.source": "토큰 임베딩",
    "nli.source.contextual": "MiniLM 문맥 임베딩(한 층의 출력)",
    "nli.source.static": "MiniLM 정적 입력 임베딩",
    "nli.source.random": "무작위 기준선(시드 고정)",
    "nli.layer": "출력을 읽을 MiniLM 층",
    "nli.layer.help": (
        "층 번호는 모델 페이지와 같습니다. 0은 첫 번째 트랜스포머 층이고 마지막 층은 "
        "{last}입니다. “임베딩”은 층 0에 들어가는 입력, 곧 단어·위치·세그먼트 임베딩을 더해 "
        "정규화한 것입니다."
    ),
    "nli.f": "F (내적 전에 적용)",
    "nli.f.identity": "항등 함수: e_ij = a_iᵀ b_j",
    "nli.f.mlp": "1층 MLP (시드 고정, 학습하지 않음)",
    "nli.seed": "학습하지 않은 층의 시드",
    "nli.hypothesis_rows": "가설 토큰을 행으로(교재의 방식)",
    "nli.hypothesis_rows.help": (
        "끄면 전제 토큰이 행이 되고, 각 전제 토큰을 가설에 소프트 정렬합니다(beta)."
    ),
    "nli.e_title": "정렬 점수 e",
    "nli.weights_rows_title": "행별 소프트맥스: {rows} 토큰 → {cols}",
    "nli.weights_cols_title": "열별 소프트맥스: {cols} 토큰 → {rows}",
    "nli.hard_note": "하드 정렬(각 행의 argmax)",
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
    "nli.compare_title": "비교(토큰별 G)와 집계(토큰에 걸친 합 v)",
    "nli.vector": "벡터",
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
    "nli.col.tokens": "토큰 수(A, B)",
    "nli.truncated": "{which}는 앞의 {limit}개 워드피스만 남기고 잘랐습니다.",
    "nli.caveat": (
        "MiniLM의 어휘는 영어이며 대소문자를 구분하지 않습니다. 이 문장 쌍에는 모델이 모르는 "
        "워드피스([UNK])가 있거나 글자가 자모 조각으로 쪼개져 있어서, 이 정렬은 별 의미가 "
        "없습니다."
    ),
    "nli.sentence_of_pair": "{pair}번째 쌍의 {side}",
    "nli.read.summary": "{name} ({fmt}): {rows}행 중 {kept}행 사용({counts}); 정답 레이블이 없는(-) {unlabelled}행 건너뜀; 잘못된 행 {bad}개.",
    "nli.read.bad_row": "{line}번째 줄: {detail}",
    "nli.read.more_bad": "… 잘못된 행이 {count}개 더 있습니다.",
    "nli.scale": "e의 스케일(학습하지 않은 보기)",
    "nli.scale.none": "없음: e = F(a)ᵀF(b) (논문)",
    "nli.scale.sqrt_d": "√d로 나누기",
    "nli.scale.temperature": "온도 T로 나누기",
    "nli.scale.help": (
        "384차원 내적은 값이 커서(수십) 스케일 없이 소프트맥스를 취하면 거의 원-핫이 됩니다. "
        "√d로 나누면 부드럽게 유지됩니다. 학습한 모델은 카드에 적힌 스케일을 씁니다."
    ),
    "nli.scale.why": "왜 √d로 나눌까요?",
    "nli.temperature": "온도 T",
    "nli.batch_help": (
        "선택 사항인 세 번째 필드는 정답 레이블(entailment, neutral, contradiction)입니다. "
        "그러면 정확도와 혼동 행렬을 보여 줍니다."
    ),
    "nli.verdict.loading": "학습한 NLI 분류기를 불러오는 중…",
    "nli.verdict.title": "학습한 모델의 판정",
    "nli.verdict.axis": "확률",
    "nli.verdict.metric": "판정",
    "nli.verdict.missing": "학습한 분류기를 불러오지 못해 판정이 없습니다: {detail}",
    "nli.label.entailment": "함의",
    "nli.label.neutral": "중립",
    "nli.label.contradiction": "모순",
    "nli.confusion.gold": "정답 레이블",
    "nli.confusion.predicted": "예측",
    "nli.confusion.share": "정답 행에서의 비율",
    "nli.confusion.bar": "행 비율",
    "nli.confusion.count": "쌍 수",
    "nli.card.open": "이 모델에 대해",
    "nli.card.text": (
        "분해 가능 어텐션(Parikh et al. 2016). F, G, H는 너비 {hidden}의 2층 MLP이며, {source} 위에서 {data}로 "
        "학습했습니다."
    ),
    "nli.card.static": "MiniLM의 정적 입력 임베딩",
    "nli.card.layer": "MiniLM {layer}층의 문맥 출력",
    "nli.card.embeddings": "MiniLM의 임베딩 출력(층 0 이전)",
    "nli.card.minilm": (
        "MiniLM 자체가 SNLI와 MultiNLI를 포함한 문장 쌍으로 미세 조정되었고(sentence-transformers, "
        "대조 손실), 그때 이 페이지처럼 각 문장을 따로 인코딩했습니다. 그래서 그 임베딩에는 이 "
        "모델이 배우는 신호가 이미 일부 들어 있습니다."
    ),
    "nli.trained_heading": "학습함: 모델이 쓰는 정렬",
    "nli.untrained_heading": "학습하지 않음: 사이드바의 F와 스케일",
    "nli.compare_trained": "학습한 모델의 토큰별 G와 집계한 v_A, v_B (H가 이것을 읽습니다).",
    "nli.untrained_compare_heading": "학습하지 않은, 시드로 고정한 층으로 본 같은 단계",
    "nli.col.gold": "정답 레이블",
    "nli.col.verdict": "판정",
    "nli.col.probability": "P({label})",
    "nli.col.probabilities": "확률(E, N, C)",
    "nli.batch_accuracy": "레이블이 있는 쌍의 정확도",
    "nli.batch_accuracy.of": "{total}개 중 {correct}개",
    "nli.batch_confusion": "정답 레이블 × 판정",
    "nli.learned_heading": "모델이 배운 것: 무엇으로 측정했는가",
    "nli.learned_confusion": "{data}: 정답 레이블 × 판정",
    "nli.learned_mistakes": "모델이 틀린 attnviz test 분할의 쌍",
    "nli.verdict.by_shipped": "attnviz가 직접 쓴 쌍으로 학습한 모델의 판정입니다.",
    "nli.verdict.by_session": "{name}의 판정입니다. 이 세션에서 학습하거나 불러온 모델입니다.",
    "nli.verdict.calibrated": "확률은 {on}에서 보정했습니다(온도 {temperature}).",
    "nli.verdict.uncalibrated": (
        "확률을 보정하지 않았습니다. 이 모델의 카드에 온도가 없어 소프트맥스 그대로이며, 실제보다 "
        "확신이 커 보일 수 있습니다."
    ),
    "nli.verdict.cut": "{which}는 모델의 앞 {limit}개 워드피스만 남기고 잘랐습니다. 판정은 그 부분만 읽습니다.",
    "nli.cards.heading": "모델 비교",
    "nli.cards.intro": "모델마다 카드를 나란히 봅니다. 무엇으로 학습했고 점수가 어떤지.",
    "nli.cards.shipped": "배포된 모델",
    "nli.cards.setting": "항목",
    "nli.cards.data": "학습 데이터",
    "nli.cards.pairs": "학습 쌍",
    "nli.cards.source": "임베딩",
    "nli.cards.align": "주목(attend) 단계",
    "nli.cards.dev": "dev / 선택 정확도",
    "nli.cards.test": "그 데이터의 정확도",
    "nli.cards.baseline": "그 데이터에서 가설만 보는 모델의 정확도",
    "nli.cards.temperature": "온도",
    "nli.cards.ece": "그 데이터의 보정 오차(전 → 후)",
    "nli.cards.hits": "정렬 적중(학습 전)",
    "nli.cards.swap": "다른 장면의 전제로 바꿔도 함의라고 한 비율",
    "nli.align.mlp": "F(a)ᵀF(b), F 학습(논문)",
    "nli.align.cosine": "k·cos(a, b), k 학습",
    "nli.align.residual": "k·cos(a + F(a), b + F(b)), F는 0에서 학습",
    "nli.learned_checks": (
        "**정렬**: 사람이 전제 단어를 표시한 가설 단어 {marked}개 중 {rate}에서 가중치가 가장 큰 전제 단어가 표시한 단어였습니다(같은 토큰 "
        "벡터, 학습 전: {untrained}). **전제 읽기**: attnviz test 분할의 함의 쌍마다 전제를 다른 장면의 것으로 바꾸면 "
        "{swapped}에서 여전히 함의라고 합니다(원래 전제로는 {own})."
    ),
    "nli.hard_heading": "분해 어텐션이 못 하는 것: 어려운 세트",
    "nli.hard_text": (
        "어휘 단서를 노리고 쓴 {pairs}개 쌍(역할 바꾸기, 수, 양화사, 비교)으로, 학습에 쓰지 "
        "않았습니다. 모델은 이 중 **{accuracy}**를 맞히고, 보통 쌍에서는 **{test}**를 맞힙니다. 분해 "
        "어텐션은 부드럽게 정렬한 단어를 비교해 더할 뿐이라, 순서나 계산에 달린 것은 다루지 "
        "못합니다."
    ),
    "nli.col.tag": "현상",
    "nli.col.accuracy": "정확도",
    "nli.col.pairs": "쌍",
    "nli.col.why": "이유",
    "nli.why.word_order": "어순이 없습니다. 누가 누구에게 했든 합은 같습니다.",
    "nli.why.number": "계산이 없습니다. 3 + 4와 7은 서로 다른 단어일 뿐 더해지지 않습니다.",
    "nli.why.quantifier": "모두, 일부, 대부분은 단어로서 서로 정렬될 뿐 범위는 계산하지 않습니다.",
    "nli.why.comparison": "더 크다와 더 작다가 비슷하게 정렬되고, 이름이 비교의 어느 쪽인지는 순서입니다.",
    "nli.why.negation": '정렬된 "not" 하나는 합 속의 토큰 하나라 쉽게 묻힙니다.',
    "nli.why.temporal": "전과 후도 순서입니다. 사건은 정렬되지만 순서는 아닙니다.",
    "nli.why.overlap": "단어가 많이 겹치면 정렬 모델에게는 함의처럼 보입니다.",
    "nli.why.paraphrase": "바꿔 쓴 말은 단어가 비슷하면 잘 정렬되고, 아니면 덜 됩니다.",
    "nli.why.addition": "덧붙인 내용은 아무것에도 정렬되지 않습니다. 그것이 중립이라는 것을 배워야 합니다.",
    "nli.why.antonym": "반의어는 임베딩에서 가까워 일치하는 것처럼 정렬됩니다.",
    "nli.why.world_knowledge": "어느 문장에도 없는 것은 정렬할 수 없습니다.",
    "nli.why.modality": "might, must, can은 단어 하나지만 영향은 절 전체에 미칩니다.",
    "nli.why.coreference": '"그녀"가 누구인지는 정렬 한 단계로 알 수 없습니다.',
    "nli.why.synonym": "동의어는 MiniLM의 유사도로 정렬됩니다. 대체로 맞습니다.",
    "nli.why.hypernym": "개는 동물이지만 그 반대는 아닙니다. 정렬은 대칭입니다.",
    "nli.mode.file": "파일 채점",
    "nli.score.upload": "채점할 평가 파일",
    "nli.score.accepted": (
        "SNLI / MultiNLI의 JSONL이나 탭으로 구분한 .txt, 또는 premise와 hypothesis 열(또는 sentence1, "
        "sentence2)과 선택적 label 열이 있는 CSV / TSV. 쌍은 {pairs}개, 크기는 {mb} MB까지이며, 레이블이 -인 행(정답 "
        "레이블 없음)은 빼고 그 수를 알려 줍니다."
    ),
    "nli.score.none": (
        "파일을 올리면 모든 쌍을 채점합니다. 정확도, 혼동 행렬, 레이블별·가설 길이별 정확도, 모델이 틀린 쌍을 보여 주며, 쌍을 누르면 그 정렬을 볼 수 "
        "있습니다."
    ),
    "nli.score.waiting": "이 서버에서 다른 파일을 채점하는 중입니다. 앞에 {ahead}개가 있습니다. 끝나면 이 파일을 시작합니다.",
    "nli.score.progress": "채점 중: 쌍 {total}개 중 {done}개, 약 {left}초 남음",
    "nli.score.read": "**{name}**: 쌍 {pairs}개를 채점했습니다.",
    "nli.score.dropped": "정답 레이블이 없는 행(-) {count}개를 뺐습니다.",
    "nli.score.no_labels": "이 파일에는 정답 레이블이 없습니다. 아래에 모든 쌍을 판정과 함께 보여 줍니다.",
    "nli.score.ci": "95% 구간(Wilson): {low}에서 {high}",
    "nli.score.per_label": "정답 레이블별 정확도",
    "nli.score.per_length": "가설 길이별 정확도",
    "nli.score.words": "가설 단어 수",
    "nli.score.accuracy": "정확도",
    "nli.score.bar": "{accuracy}<br>({pairs})",
    "nli.score.wrong": "모델이 틀린 쌍({count}개)",
    "nli.score.filter": "정답 레이블",
    "nli.score.click": "행을 누르면 아래에 그 쌍의 판정과 정렬이 나옵니다.",
    "nli.score.csv": "모든 쌍의 확률",
    "nli.confusion.caption": (
        "색과 숫자는 같은 값입니다. 각 정답 레이블의 쌍 가운데 각 판정을 받은 비율이며, 한 행의 합은 1입니다. 칸에 마우스를 올리면 쌍 수가 나옵니다."
    ),
    "nli.col.pair": "쌍",
    "nli.col.confidence": "P(판정)",
    "nli.card.tuned": "함께 미세 조정한 MiniLM의 처음 {layers}개 층",
    "nli.card.real_data": "사람들이 SNLI와 MultiNLI를 위해 쓴 쌍 **{pairs}**개",
    "nli.card.own_data": "attnviz가 직접 쓴 쌍인 `{file}`의 **{pairs}**개 쌍",
    "nli.card.headline": (
        "{data}에서 **{accuracy}** (쌍 {pairs}개, 95% 구간 {low}–{high}). 같은 방식으로 학습한 가설만 보는 기준선: "
        "**{baseline}**."
    ),
    "nli.card.own_second": "attnviz가 직접 쓴 test 분할에서는 {accuracy}.",
    "nli.data.snli_test": "SNLI의 test 세트",
    "nli.data.own_test": "attnviz가 직접 쓴 test 분할",
    "nli.verdict.convention": "SNLI의 주석자처럼 읽습니다. 두 문장은 같은 장면을 묘사하므로, 다른 장면에 관한 가설은 모순입니다.",
    "nli.verdict.by_real": "함께 배포된 모델의 판정입니다. 사람들이 SNLI와 MultiNLI를 위해 쓴 쌍으로 학습했습니다.",
    "nli.verdict.fitted_select": "따로 떼어 둔 SNLI·MultiNLI dev 쌍",
    "nli.verdict.fitted_dev": "dev 분할",
    "nli.learned.snli_test": (
        "**SNLI의 test 세트**(사람들이 SNLI를 위해 쓴 쌍 {pairs}개, 한 번만 채점, 학습에 쓰지 않음): **{accuracy}** "
        "맞힙니다(95% 구간 {low}–{high}). 정답 레이블별로 {per_label}. 기대 보정 오차 {ece}. 전제를 전혀 보지 않는 모델(가설만"
        " 보고 같은 방식으로 학습)은 **{baseline}**이므로, 전제를 읽어서 {gap}%p를 더 얻습니다."
    ),
    "nli.learned.own_test": (
        "**attnviz가 직접 쓴 test 분할**(쌍 {pairs}개): **{accuracy}** 맞힙니다(95% 구간 {low}–{high}). 정답 "
        "레이블별로 {per_label}. 기대 보정 오차 {ece}. 전제를 보지 않는 모델은 **{baseline}**이므로, 전제를 읽어서 {gap}%p를"
        " 더 얻습니다."
    ),
    "nli.learned.mnli_select": (
        "**선택용으로 떼어 둔 MultiNLI matched dev 쌍**(학습 장르 다섯 개, 쌍 {pairs}개): {accuracy} (95% 구간 "
        "{low}–{high}). 가설만 보면 {baseline}."
    ),
    "nli.learned.own_second": (
        "둘째로, **attnviz가 직접 쓴 test 분할**(쌍 {pairs}개, attnviz를 위해 쓴 것이며 벤치마크가 아님)에서 {accuracy}."
        " 정답 레이블별로 {per_label}."
    ),
    "nli.cards.measured": "측정한 데이터",
    "nli.card.attend_minilm": (
        "주목 단계는 미세 조정하지 않은 {source}로 점수를 매깁니다. 그래서 보이는 정렬은 MiniLM 자체의 유사도를 날카롭게 만든 것입니다."
    ),
}
