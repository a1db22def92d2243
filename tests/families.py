"""Tiny random models of each family, made at test time: no download.

Each family's folder holds a model made from its config (`from_config`, `save_pretrained`:
safetensors) and a tokenizer of the family's own type trained here with the `tokenizers`
library on the shipped NLI sentences (data/nli/hard.jsonl): WordPiece ("##") for BERT, byte-level
BPE ("Ġ") for GPT-2 and RoBERTa, Unigram ("▁") for T5. So offsets and word merging meet each
piece style, not only BERT's.

`make(family, folder)` writes one; `FAMILIES` names them with their kind.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
# The hard set: the earlier shipped pairs, among them the tests' own sentences ("The lorry
# reversed into the bollard ..."), so their words are in every trained vocabulary.
CORPUS = ROOT / "data" / "nli" / "hard.jsonl"
VOCAB = 600  # tokenizer vocabulary: large enough for whole common words, small for speed
HIDDEN, LAYERS, HEADS, FFN = 32, 2, 4, 64
POSITIONS = 520  # 512 tokens and RoBERTa's offset of two


@dataclass(frozen=True)
class Family:
    model_type: str
    kind: str  # encoder, decoder, encoder-decoder
    tokenizer: str  # wordpiece, bytelevel, unigram, metaspace-bpe
    template: tuple[str, str]  # post-processor templates: single, pair
    specials: dict[str, str]  # role -> token


_BERT = ("[CLS] $A [SEP]", "[CLS] $A [SEP] $B:1 [SEP]:1")
_BERT_SPECIALS = {
    "unk_token": "[UNK]",
    "cls_token": "[CLS]",
    "sep_token": "[SEP]",
    "pad_token": "[PAD]",
    "mask_token": "[MASK]",
}
_ROBERTA = ("<s> $A </s>", "<s> $A </s> </s> $B </s>")
_ROBERTA_SPECIALS = {
    "bos_token": "<s>",
    "pad_token": "<pad>",
    "eos_token": "</s>",
    "unk_token": "<unk>",
    "cls_token": "<s>",
    "sep_token": "</s>",
    "mask_token": "<mask>",
}
_GPT_SPECIALS = {
    "bos_token": "<|endoftext|>",
    "eos_token": "<|endoftext|>",
    "unk_token": "<|endoftext|>",
}
_T5_SPECIALS = {"pad_token": "<pad>", "eos_token": "</s>", "unk_token": "<unk>"}
_LLAMA_SPECIALS = {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>"}

FAMILIES: dict[str, Family] = {
    "bert": Family("bert", "encoder", "wordpiece", _BERT, _BERT_SPECIALS),
    "distilbert": Family("distilbert", "encoder", "wordpiece", _BERT, _BERT_SPECIALS),
    "electra": Family("electra", "encoder", "wordpiece", _BERT, _BERT_SPECIALS),
    "albert": Family("albert", "encoder", "unigram", _BERT, _BERT_SPECIALS),
    "roberta": Family("roberta", "encoder", "bytelevel", _ROBERTA, _ROBERTA_SPECIALS),
    "xlm-roberta": Family("xlm-roberta", "encoder", "unigram", _ROBERTA, _ROBERTA_SPECIALS),
    "deberta-v2": Family("deberta-v2", "encoder", "unigram", _BERT, _BERT_SPECIALS),
    "gpt2": Family("gpt2", "decoder", "bytelevel", ("$A", "$A $B:1"), _GPT_SPECIALS),
    "gpt_neox": Family("gpt_neox", "decoder", "bytelevel", ("$A", "$A $B:1"), _GPT_SPECIALS),
    "llama": Family(
        "llama", "decoder", "metaspace-bpe", ("<s> $A", "<s> $A $B:1"), _LLAMA_SPECIALS
    ),
    "qwen2": Family("qwen2", "decoder", "bytelevel", ("$A", "$A $B:1"), _GPT_SPECIALS),
    "bart": Family("bart", "encoder-decoder", "bytelevel", _ROBERTA, _ROBERTA_SPECIALS),
    "t5": Family("t5", "encoder-decoder", "unigram", ("$A </s>", "$A </s> $B </s>"), _T5_SPECIALS),
}


@functools.cache
def corpus() -> tuple[str, ...]:
    sentences: list[str] = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        sentences += [row["sentence1"], row["sentence2"]]
    return tuple(sentences)


def _tokenizer(family: Family):  # -> tokenizers.Tokenizer
    """The family's tokenizer: trained once per piece style and specials, then given the
    family's own post-processor."""
    from tokenizers import Tokenizer, processors

    key = (
        family.tokenizer,
        tuple(dict.fromkeys(family.specials.values())),
        family.specials.get("unk_token"),
    )
    tok = Tokenizer.from_str(_trained(*key))
    single, pair = family.template
    used = sorted({w.split(":")[0] for w in f"{single} {pair}".split() if not w.startswith("$")})
    tok.post_processor = processors.TemplateProcessing(
        single=single, pair=pair, special_tokens=[(s, tok.token_to_id(s)) for s in used]
    )
    if family.tokenizer == "bytelevel" and family.kind == "decoder":
        tok.post_processor = processors.Sequence(
            [processors.ByteLevel(trim_offsets=False), tok.post_processor]
        )
    return tok


@functools.cache
def _trained(style: str, specials_tuple: tuple[str, ...], unk: str | None) -> str:
    """A tokenizer of `style` trained on the corpus, as JSON."""
    from tokenizers import (
        Tokenizer,
        decoders,
        models,
        normalizers,
        pre_tokenizers,
        trainers,
    )

    specials = list(specials_tuple)
    if style == "wordpiece":
        tok = Tokenizer(models.WordPiece(unk_token=unk))
        tok.normalizer = normalizers.BertNormalizer(lowercase=True)
        tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        tok.decoder = decoders.WordPiece()
        trainer = trainers.WordPieceTrainer(vocab_size=VOCAB, special_tokens=specials)
    elif style == "bytelevel":
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        tok.decoder = decoders.ByteLevel()
        trainer = trainers.BpeTrainer(
            vocab_size=VOCAB,
            special_tokens=specials,
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        )
    elif style == "unigram":
        tok = Tokenizer(models.Unigram())
        tok.normalizer = normalizers.NFKC()
        tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
        tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always")
        trainer = trainers.UnigramTrainer(vocab_size=VOCAB, special_tokens=specials, unk_token=unk)
    else:  # metaspace-bpe: Llama's SentencePiece BPE
        tok = Tokenizer(models.BPE(unk_token=unk, byte_fallback=False))
        tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="first")
        tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="first")
        trainer = trainers.BpeTrainer(vocab_size=VOCAB, special_tokens=specials)
    tok.train_from_iterator(corpus(), trainer=trainer)
    return tok.to_str()


def _config(family: Family, vocab: int, ids: dict[str, int]):
    from transformers import AutoConfig

    common = {"vocab_size": vocab, **{k.replace("_token", "_token_id"): v for k, v in ids.items()}}
    if family.model_type == "gpt2":
        kw = {"n_embd": HIDDEN, "n_layer": LAYERS, "n_head": HEADS, "n_positions": POSITIONS}
    elif family.model_type == "distilbert":
        kw = {"dim": HIDDEN, "n_layers": LAYERS, "n_heads": HEADS, "hidden_dim": FFN}
        kw["max_position_embeddings"] = POSITIONS
    elif family.model_type == "t5":
        kw = {"d_model": HIDDEN, "d_kv": HIDDEN // HEADS, "d_ff": FFN, "num_layers": LAYERS}
        kw |= {"num_heads": HEADS, "decoder_start_token_id": ids["pad_token"]}
    elif family.model_type == "bart":
        kw = {"d_model": HIDDEN, "encoder_layers": LAYERS, "decoder_layers": LAYERS}
        kw |= {"encoder_attention_heads": HEADS, "decoder_attention_heads": HEADS}
        kw |= {"encoder_ffn_dim": FFN, "decoder_ffn_dim": FFN, "max_position_embeddings": POSITIONS}
        kw |= {"decoder_start_token_id": ids["eos_token"], "forced_eos_token_id": None}
    else:
        kw = {"hidden_size": HIDDEN, "num_hidden_layers": LAYERS, "num_attention_heads": HEADS}
        kw |= {"intermediate_size": FFN, "max_position_embeddings": POSITIONS}
        if family.model_type in ("llama", "qwen2"):
            kw["num_key_value_heads"] = HEADS // 2  # grouped-query attention
        if family.model_type == "gpt_neox":
            kw["rotary_pct"] = 0.5  # rotary on half of each head's dimensions
        if family.model_type in ("albert", "electra"):
            kw["embedding_size"] = HIDDEN // 2
    common = {k: v for k, v in common.items() if k != "cls_token_id" and k != "sep_token_id"}
    common.pop("mask_token_id", None)
    common.pop("unk_token_id", None)
    return AutoConfig.for_model(family.model_type, **common, **kw)


def make(name: str, folder: Path, *, seed: int = 0) -> Path:
    """A tiny random model of family `name` with its trained tokenizer, saved in `folder`."""
    from transformers import (
        AutoModel,
        AutoModelForCausalLM,
        AutoModelForSeq2SeqLM,
        PreTrainedTokenizerFast,
    )

    family = FAMILIES[name]
    tok = _tokenizer(family)
    ids = {role: tok.token_to_id(token) for role, token in family.specials.items()}
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, model_max_length=512, **family.specials)
    config = _config(family, tok.get_vocab_size(), ids)
    torch.manual_seed(seed)
    classes = {"encoder": AutoModel, "decoder": AutoModelForCausalLM}
    model = classes.get(family.kind, AutoModelForSeq2SeqLM).from_config(config)
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder)
    fast.save_pretrained(folder)
    return folder


def make_all(root: Path, names: tuple[str, ...] | None = None) -> dict[str, Path]:
    """Every family (or those named) in its own folder under `root`."""
    return {name: make(name, root / name) for name in names or tuple(FAMILIES)}


def make_marian(folder: Path) -> Path:
    """A tiny Marian model with no tokenizer: Marian's is SentencePiece's alone, with no fast
    (tokenizers) version, so attnviz cannot read the family (documented as unsupported)."""
    from transformers import AutoConfig, AutoModelForSeq2SeqLM

    config = AutoConfig.for_model(
        "marian",
        d_model=HIDDEN,
        encoder_layers=1,
        decoder_layers=1,
        encoder_attention_heads=HEADS,
        decoder_attention_heads=HEADS,
        encoder_ffn_dim=FFN,
        decoder_ffn_dim=FFN,
        vocab_size=100,
        pad_token_id=99,
        decoder_start_token_id=99,
        max_position_embeddings=64,
    )
    torch.manual_seed(0)
    AutoModelForSeq2SeqLM.from_config(config).save_pretrained(folder)
    (folder / "tokenizer_config.json").write_text(
        json.dumps({"tokenizer_class": "MarianTokenizer"})
    )
    return folder
