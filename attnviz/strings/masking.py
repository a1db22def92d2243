"""Strings of the masking lesson.

English (EN) and Korean (KO), key for key.
"""

EN: dict[str, str] = {
    "masking.nav": "Masking",
    "masking.tour": (
        "Padding a batch of sequences, causal masks and hand-picked cells; -1e6 against -inf, and "
        "what happens to a row with nothing left to attend to."
    ),
    "masking.title": "Masking",
    "masking.intro": (
        "Sentences in a batch have different lengths, so they are padded to one length m; the "
        "padding positions still hold numbers and would get attention unless they are **masked**. "
        "Here a batch of B random sequences (self-attention: queries = keys = values = X) goes "
        "through one masked softmax: keys at positions ≥ the sequence's valid length are masked "
        "(d2l's `valid_lens`), and a causal mask or hand-picked cells can be added on top. Masked "
        "scores are replaced by the fill value before the softmax, so their weights become 0."
    ),
    "masking.batch": "Sequences B",
    "masking.length": "Padded length m",
    "masking.seed": "Seed",
    "masking.valid_lens": "Valid lengths, one per sequence",
    "masking.valid_lens.help": (
        "{batch} whole numbers between 0 and {m}, separated by commas: sequence b has its first "
        "valid_len tokens, the rest is padding."
    ),
    "masking.sequence": "Sequence to view",
    "masking.sequence.option": "sequence {seq}",
    "masking.causal": "Causal mask",
    "masking.causal.help": "Query i may attend keys 0..i only, as a decoder does.",
    "masking.fill": "Fill value",
    "masking.fill.help": (
        "What masked scores are replaced with: d2l uses -1e6; -inf is exact. They differ only for "
        "a row whose keys are all masked."
    ),
    "masking.cells": "Hand-picked cells",
    "masking.cells.help": "Mask single (query, key) cells, in every sequence of the batch.",
    "masking.cells.heading": "Hand-picked cells (ticked = may attend)",
    "masking.cells.caption": "Untick a cell to forbid that query from attending to that key.",
    "masking.formula_heading": "The masked softmax with the current numbers",
    "masking.formula.true": "true = may attend",
    "masking.batch_heading": "The padded batch and the mask",
    "masking.padding.caption": (
        "Each row is one sequence; padded positions (pad) are the keys that `valid_lens` masks. "
        "The framed row is the sequence shown below."
    ),
    "masking.steps_heading": "Sequence {seq}: raw scores, masked scores, weights",
    "masking.rows_ok": (
        "Every query of sequence {seq} has a key it may attend; its weights sum to 1 (largest "
        "deviation {dev})."
    ),
    "masking.fully": (
        "{count} of the {m} queries of sequence {seq} ({rows}) have every key masked, so the "
        "softmax has nothing to choose between. With fill value {fill}: {what} These rows are "
        "drawn as masked (×) below; hover a cell to read its weight."
    ),
    "masking.fully.uniform": (
        "every score of such a row equals the fill value, so all {m} keys tie and each gets weight "
        "1/{m} = {w}: the query averages every value, padding included."
    ),
    "masking.fully.zeros": (
        "exp(-inf) = 0 for every key, so the softmax would be 0/0; the weights are set to 0 "
        "instead of NaN (as PyTorch's scaled_dot_product_attention does), and the output row is 0."
    ),
    "masking.batch_check": (
        "Whole batch of {batch} sequences: {count} fully masked query row(s); every other row sums "
        "to 1."
    ),
    "masking.hover_note": "At this size some cells leave out their numbers: hover to read them.",
    "masking.pad_queries": (
        "Queries q{first}..q{last} are padding too: valid_lens masks keys only, so these rows "
        "still get weights; a model ignores their outputs later (in the loss, for instance)."
    ),
    "masking.reason.padding": "padding",
    "masking.reason.causal": "causal",
    "masking.reason.cell": "hand-picked",
    "masking.hover.raw": "raw score",
    "masking.hover.masked": "masked score",
    "masking.fig.padding": "The batch: tokens and padding",
    "masking.fig.positions": "Positions (keys)",
    "masking.fig.position": "position",
    "masking.fig.sequences": "Sequences",
    "masking.fig.seq_label": "seq {seq}",
    "masking.fig.token": "token",
    "masking.fig.pad": "pad",
    "masking.fig.mask": "Mask of sequence {seq} (1 = may attend)",
    "masking.fig.may_attend": "may attend",
    "masking.show_masked": "Write masked values in their cells",
    "masking.show_masked.help": "On: the masked scores' cells show the fill value and the "
    "masked weights' cells their 0 (1/m in a fully masked row), on grey, off the colour scale. "
    "Off: a × in each masked cell.",
}

KO: dict[str, str] = {
    "masking.nav": "마스킹",
    "masking.tour": (
        "시퀀스 배치의 패딩(padding), 인과 마스크(causal mask), 직접 고른 셀. -1e6과 -inf의 "
        "차이, 그리고 어텐션할 대상이 하나도 남지 않은 행에 어떤 일이 생기는지 살펴봅니다."
    ),
    "masking.title": "마스킹",
    "masking.intro": (
        "배치 안의 문장들은 길이가 서로 달라서 하나의 길이 m으로 패딩(padding)합니다. 패딩 "
        "위치에도 숫자가 들어 있으므로 **마스킹** (masking)하지 않으면 어텐션을 받게 됩니다. "
        "여기서는 무작위 시퀀스 B개로 이루어진 배치(셀프 어텐션: 쿼리 = 키 = 값 = X)가 마스크드 "
        "소프트맥스(masked softmax)를 한 번 거칩니다. 위치가 시퀀스의 유효 길이 이상인 키는 "
        "마스킹되며(d2l의 `valid_lens`), 그 위에 인과 마스크나 직접 고른 셀을 더할 수 있습니다. "
        "마스킹된 점수는 소프트맥스 전에 채움 값(fill value)으로 바뀌므로 그 가중치는 0이 됩니다."
    ),
    "masking.batch": "시퀀스 수 B",
    "masking.length": "패딩한 길이 m",
    "masking.seed": "시드",
    "masking.valid_lens": "유효 길이(시퀀스마다 하나)",
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
    "masking.cells.help": "배치의 모든 시퀀스에서(쿼리, 키) 셀을 하나씩 골라 마스킹합니다.",
    "masking.cells.heading": "직접 고른 셀(체크 = 어텐션 가능)",
    "masking.cells.caption": "셀의 체크를 해제하면 그 쿼리가 그 키에 어텐션하지 못합니다.",
    "masking.formula_heading": "현재 수치를 대입한 마스크드 소프트맥스",
    "masking.formula.true": "true = 어텐션 가능",
    "masking.batch_heading": "패딩한 배치와 마스크",
    "masking.padding.caption": (
        "각 행은 시퀀스 하나입니다. 패딩 위치(pad)는 `valid_lens`가 마스킹하는 키입니다. 테두리를 "
        "두른 행이 아래에 보이는 시퀀스입니다."
    ),
    "masking.steps_heading": "시퀀스 {seq}: 원시 점수, 마스킹된 점수, 가중치",
    "masking.rows_ok": (
        "시퀀스 {seq}의 모든 쿼리에 어텐션할 수 있는 키가 있으며, 가중치의 합은 1입니다(최대 편차 "
        "{dev})."
    ),
    "masking.fully": (
        "시퀀스 {seq}의 쿼리 {m}개 중 {count}개({rows})는 모든 키가 마스킹되어 소프트맥스가 고를 "
        "대상이 없습니다. 채움 값이 {fill}일 때: {what} 아래 그림에서 이 행들은 마스킹됨(×)으로 "
        "표시됩니다. 셀에 마우스를 올리면 가중치를 볼 수 있습니다."
    ),
    "masking.fully.uniform": (
        "이런 행의 점수는 모두 채움 값과 같아서 키 {m}개가 모두 동점이 되고, 각각 가중치 1/{m} = "
        "{w}를 받습니다. 즉 쿼리는 패딩을 포함한 모든 값의 평균을 냅니다."
    ),
    "masking.fully.zeros": (
        "모든 키에서 exp(-inf) = 0이므로 소프트맥스는 0/0이 됩니다. 가중치는 NaN 대신 0으로 두고"
        "(PyTorch의 scaled_dot_product_attention과 같은 방식), 출력 행은 0이 됩니다."
    ),
    "masking.batch_check": (
        "배치 전체(시퀀스 {batch}개): 완전히 마스킹된 쿼리 행이 {count}개이고, 나머지 행은 모두 "
        "합이 1입니다."
    ),
    "masking.hover_note": (
        "이 크기에서는 일부 셀에 숫자를 표시하지 않습니다. 마우스를 올려 값을 확인하세요."
    ),
    "masking.pad_queries": (
        "쿼리 q{first}..q{last}도 패딩입니다. valid_lens는 키만 마스킹하므로 이 행들도 가중치를 "
        "받지만, 모델은 나중에(예를 들어 손실을 계산할 때) 이 출력을 무시합니다."
    ),
    "masking.reason.padding": "패딩",
    "masking.reason.causal": "인과",
    "masking.reason.cell": "직접 고름",
    "masking.hover.raw": "원시 점수",
    "masking.hover.masked": "마스킹된 점수",
    "masking.fig.padding": "배치: 토큰과 패딩",
    "masking.fig.positions": "위치(키)",
    "masking.fig.position": "위치",
    "masking.fig.sequences": "시퀀스",
    "masking.fig.seq_label": "시퀀스 {seq}",
    "masking.fig.token": "토큰",
    "masking.fig.pad": "pad",
    "masking.fig.mask": "시퀀스 {seq}의 마스크(1 = 어텐션 가능)",
    "masking.fig.may_attend": "어텐션 가능",
    "masking.show_masked": "마스킹된 칸에 값 쓰기",
    "masking.show_masked.help": "켜면 마스킹된 점수 칸에 채움 값, 마스킹된 가중치 칸에 0(모두 "
    "마스킹된 행은 1/m)을 회색 바탕에 씁니다. 색 척도에는 넣지 않습니다. 끄면 마스킹된 칸마다 ×를 "
    "그립니다.",
}
