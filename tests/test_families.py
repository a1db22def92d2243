"""Every family attnviz reads, as tiny random models made here (tests/families.py), loaded
through the picker's own code path (attnviz.transformer.models.resolve, then Encoder).

Each family's attention is recomputed from its own query and key projections, on the input its
attention module received, through attnviz.attention, and must equal the model's
`output_attentions`; the neuron view's scores must equal those logits and its weights the
model's. Rotary embeddings, grouped-query keys and T5's position bias are written out here
again, from the papers (Su et al. 2021; Ainslie et al. 2023; Raffel et al. 2020).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import torch

from attnviz.attention import attend, causal_mask, masked_softmax
from attnviz.errors import InputError
from attnviz.transformer import models
from attnviz.transformer.encoder import Encoded, Encoder
from attnviz.transformer.neurons import head_vectors, neuron_terms
from attnviz.transformer.words import word_groups, word_labels
from tests import families

TEXT = "The lorry reversed into the bollard outside the bakery."
PAIR = "Nobody  was hurt."
TARGET = "The driver parked."
DECODERS = [n for n, f in families.FAMILIES.items() if f.kind == "decoder"]
SEQ2SEQ = [n for n, f in families.FAMILIES.items() if f.kind == "encoder-decoder"]
RECOMPUTED = [n for n in families.FAMILIES if n != "deberta-v2"]  # DeBERTa: disentangled


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> models.Root:
    base = tmp_path_factory.mktemp("families")
    families.make_all(base)
    return models.Root("tiny", base)


@pytest.fixture(scope="module")
def encoders(root: models.Root) -> dict[str, Encoder]:
    found = {f.name for f in models.discover([root])}
    assert found == {f"tiny/{name}" for name in families.FAMILIES}
    return {
        name: Encoder(models.resolve(f"tiny/{name}", [root]), max_params=10**6)
        for name in families.FAMILIES
    }


def _encode(encoder: Encoder, pair: bool = True) -> Encoded:
    target = TARGET if encoder.kind == "encoder-decoder" else None
    return encoder.encode(TEXT, PAIR if pair else None, target=target)


# --- the model's own projections, written out -----------------------------------------------


@contextmanager
def inputs_of(modules: list[Any]) -> Iterator[list[tuple[Any, tuple[Any, ...], dict[str, Any]]]]:
    """What each of `modules` is called with, in call order."""
    seen: list[tuple[Any, tuple[Any, ...], dict[str, Any]]] = []
    handles = [
        m.register_forward_pre_hook(
            lambda mod, args, kwargs: seen.append((mod, args, kwargs)), with_kwargs=True
        )
        for m in modules
    ]
    try:
        yield seen
    finally:
        for handle in handles:
            handle.remove()


def _attention_modules(encoder: Encoder, stack: str) -> list[Any]:
    model, kind = encoder.model, encoder.model_type
    if kind in ("bert", "roberta", "xlm-roberta", "electra"):
        return [layer.attention.self for layer in model.encoder.layer]
    if kind == "albert":
        return [model.encoder.albert_layer_groups[0].albert_layers[0].attention]
    if kind == "distilbert":
        return [layer.attention for layer in model.transformer.layer]
    if kind == "gpt2":
        return [block.attn for block in model.transformer.h]
    if kind == "gpt_neox":
        return [layer.attention for layer in model.gpt_neox.layers]
    if kind in ("llama", "qwen2"):
        return [layer.self_attn for layer in model.model.layers]
    if kind == "bart":
        coder = model.model.encoder if stack == "encoder" else model.model.decoder
        return [
            getattr(layer, "encoder_attn" if stack == "cross" else "self_attn")
            for layer in coder.layers
        ]
    if kind == "t5":
        coder = model.encoder if stack == "encoder" else model.decoder
        index = 1 if stack == "cross" else 0
        name = "EncDecAttention" if stack == "cross" else "SelfAttention"
        return [getattr(block.layer[index], name) for block in coder.block]
    raise AssertionError(kind)


def _heads(x: torch.Tensor, size: int) -> torch.Tensor:
    """(T, n * size) -> (n, T, size)."""
    return x.view(x.shape[0], -1, size).transpose(0, 1)


def _rotate(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Rotary position embedding (Su et al. 2021) on the first cos.shape[-1] dimensions, with
    the halves paired as GPT-NeoX and Llama pair them."""
    n = cos.shape[-1]
    part, rest = x[..., :n], x[..., n:]
    half = n // 2
    rotated = torch.cat((-part[..., half:], part[..., :half]), dim=-1)
    return torch.cat((part * cos + rotated * sin, rest), dim=-1)


def recomputed(
    encoder: Encoder, encoded: Encoded, stack: str = "encoder"
) -> tuple[torch.Tensor, torch.Tensor]:
    """(L, H, T, S) logits (q·k, scaled, plus any position bias) and weights, from each layer's
    own projections through attnviz.attention."""
    modules = _attention_modules(encoder, stack)
    with inputs_of(modules) as seen, torch.inference_mode():
        encoder.model(**encoded.inputs)
    kind, config = encoder.model_type, encoder.model.config
    heads = encoder.num_heads
    logits, weights, bias0 = [], [], None
    for module, args, kwargs in seen:
        x = (args[0] if args else kwargs["hidden_states"])[0]  # (T, d)
        source = kwargs.get("key_value_states", kwargs.get("encoder_hidden_states"))
        y = x if source is None else source[0]  # (S, d)
        bias, scale = None, None
        if kind in ("bert", "roberta", "xlm-roberta", "electra", "albert"):
            d_head = module.attention_head_size
            q, k = _heads(module.query(x), d_head), _heads(module.key(y), d_head)
        elif kind == "distilbert":
            d_head = config.dim // heads
            q, k = _heads(module.q_lin(x), d_head), _heads(module.k_lin(y), d_head)
        elif kind == "gpt2":
            d_head = config.n_embd // heads
            q, k, _ = module.c_attn(x).split(config.n_embd, dim=-1)
            q, k = _heads(q, d_head), _heads(k, d_head)
        elif kind == "gpt_neox":
            d_head = config.hidden_size // heads
            qkv = module.query_key_value(x).view(x.shape[0], heads, 3 * d_head).transpose(0, 1)
            q, k, _ = qkv.chunk(3, dim=-1)
            cos, sin = kwargs["position_embeddings"]
            q, k = _rotate(q, cos[0], sin[0]), _rotate(k, cos[0], sin[0])
        elif kind in ("llama", "qwen2"):
            d_head = config.hidden_size // heads
            q, k = _heads(module.q_proj(x), d_head), _heads(module.k_proj(y), d_head)
            cos, sin = kwargs["position_embeddings"]
            q, k = _rotate(q, cos[0], sin[0]), _rotate(k, cos[0], sin[0])
            k = k.repeat_interleave(heads // k.shape[0], dim=0)  # grouped-query: shared keys
        elif kind == "bart":
            d_head = config.d_model // heads
            q, k = _heads(module.q_proj(x), d_head), _heads(module.k_proj(y), d_head)
        else:  # t5: no scale, a learned bias by relative position (Raffel et al. 2020)
            d_head = config.d_kv
            q, k = _heads(module.q(x), d_head), _heads(module.k(y), d_head)
            scale = 1.0
            if stack != "cross":
                if module.has_relative_attention_bias:
                    bias0 = module.compute_bias(x.shape[0], y.shape[0])[0]  # (H, T, S)
                bias = bias0
        causal = stack == "decoder" or encoder.kind == "decoder"
        mask = causal_mask(q.shape[1], k.shape[1]) if causal else None  # (T, S)
        if scale is None:
            result = attend(q, k, k, score="scaled_dot", mask=mask)
            scores = result.scores
        else:
            scores = attend(q, k, k, score="dot").scores * scale
        if bias is not None:
            scores = scores + bias
        logits.append(scores)
        weights.append(masked_softmax(scores, mask, fill_value=float("-inf")))
    return torch.stack(logits), torch.stack(weights)


def _model_attentions(encoded: Encoded, stack: str) -> torch.Tensor:
    return {
        "encoder": encoded.attentions,
        "decoder": encoded.decoder_attentions,
        "cross": encoded.cross_attentions,
    }[stack]


def _stacks(name: str) -> list[str]:
    return ["encoder", "decoder", "cross"] if name in SEQ2SEQ else ["encoder"]


# --- tests -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(families.FAMILIES))
def test_each_family_loads_with_its_kind(encoders: dict[str, Encoder], name: str) -> None:
    encoder = encoders[name]
    family = families.FAMILIES[name]
    assert (encoder.kind, encoder.model_type) == (family.kind, family.model_type)
    assert encoder.max_length == 512
    encoded = _encode(encoder)
    n = len(encoded.tokens)
    assert encoded.attentions.shape == (families.LAYERS, families.HEADS, n, n)
    assert torch.allclose(encoded.attentions.sum(-1), torch.ones(()), atol=1e-5)
    assert encoded.hidden_states.shape[0] == families.LAYERS + 1


@pytest.mark.parametrize("name", RECOMPUTED)
def test_attentions_recomputed_from_the_projections(
    encoders: dict[str, Encoder], name: str
) -> None:
    encoder = encoders[name]
    encoded = _encode(encoder)
    for stack in _stacks(name):
        _, weights = recomputed(encoder, encoded, stack)
        expected = _model_attentions(encoded, stack)
        assert weights.shape == expected.shape
        torch.testing.assert_close(weights, expected, atol=1e-5, rtol=0)


@pytest.mark.parametrize("name", RECOMPUTED)
def test_the_neuron_view_against_the_projections(encoders: dict[str, Encoder], name: str) -> None:
    encoder = encoders[name]
    encoded = _encode(encoder)
    for stack in _stacks(name):
        logits, _ = recomputed(encoder, encoded, stack)  # (L, H, T, S)
        expected = _model_attentions(encoded, stack)
        for layer, head in ((0, 0), (families.LAYERS - 1, families.HEADS - 1)):
            vectors = head_vectors(encoder, encoded, layer=layer, head=head, stack=stack)
            query = vectors.queries.shape[0] - 1
            terms = neuron_terms(vectors, query)
            allowed = expected[layer, head, query] > 0
            scores = terms.dots * terms.scale + (0 if terms.bias is None else terms.bias)
            torch.testing.assert_close(
                scores[allowed], logits[layer, head, query][allowed], atol=1e-5, rtol=0
            )
            torch.testing.assert_close(
                terms.weights, expected[layer, head, query], atol=1e-5, rtol=0
            )
            torch.testing.assert_close(terms.products.sum(-1), terms.dots)


def test_the_neuron_view_shows_each_familys_terms(encoders: dict[str, Encoder]) -> None:
    llama = head_vectors(encoders["llama"], _encode(encoders["llama"]), layer=0, head=3)
    assert (llama.rotary, llama.key_heads, llama.key_head) == (True, 2, 1)  # heads 2, 3 share
    t5_encoded = _encode(encoders["t5"])
    t5 = head_vectors(encoders["t5"], t5_encoded, layer=1, head=0)
    assert t5.scale == 1.0 and t5.bias is not None and t5.mask is None
    cross = head_vectors(encoders["t5"], t5_encoded, layer=0, head=0, stack="cross")
    assert cross.bias is None and cross.keys.shape[0] == len(t5_encoded.tokens)
    bert = head_vectors(encoders["bert"], _encode(encoders["bert"]), layer=0, head=0)
    assert not bert.rotary and bert.bias is None and bert.scale == pytest.approx(8**-0.5)
    gpt2 = head_vectors(encoders["gpt2"], _encode(encoders["gpt2"]), layer=0, head=0)
    assert gpt2.mask is not None
    above = torch.ones_like(gpt2.mask, dtype=torch.bool).triu(1)
    assert bool((gpt2.mask[above] < -1e30).all()) and bool((gpt2.mask[~above] == 0).all())


def test_deberta_says_its_scores_are_not_broken_down(encoders: dict[str, Encoder]) -> None:
    encoded = _encode(encoders["deberta-v2"])
    assert torch.allclose(encoded.attentions.sum(-1), torch.ones(()), atol=1e-5)
    with pytest.raises(InputError) as err:
        head_vectors(encoders["deberta-v2"], encoded, layer=0, head=0)
    assert err.value.key == "neuron_unsupported" and "deberta-v2" in str(err.value)


@pytest.mark.parametrize("name", [*DECODERS, *SEQ2SEQ])
def test_the_causal_mask_holds(encoders: dict[str, Encoder], name: str) -> None:
    encoded = _encode(encoders[name])
    causal = encoded.attentions if name in DECODERS else encoded.decoder_attentions
    assert causal is not None
    assert bool((causal.triu(diagonal=1) == 0).all())  # exactly 0 above the diagonal


@pytest.mark.parametrize("name", SEQ2SEQ)
def test_cross_attention_is_target_by_source(encoders: dict[str, Encoder], name: str) -> None:
    encoder = encoders[name]
    encoded = _encode(encoder)
    assert encoded.decoder_tokens is not None and encoded.cross_attentions is not None
    t, s = len(encoded.decoder_tokens), len(encoded.tokens)
    pieces = encoder.tokenizer(TARGET, add_special_tokens=False)["input_ids"]
    assert t == 1 + len(pieces)  # the start token, then the target's pieces
    assert encoded.cross_attentions.shape == (families.LAYERS, families.HEADS, t, s)
    assert torch.allclose(encoded.cross_attentions.sum(-1), torch.ones(()), atol=1e-5)
    generated = encoder.encode(TEXT, max_new_tokens=5)
    assert generated.generated and generated.decoder_tokens is not None
    assert 2 <= len(generated.decoder_tokens) <= 6


@pytest.mark.parametrize("name", DECODERS)
def test_next_tokens_are_the_models_top_probabilities(
    encoders: dict[str, Encoder], name: str
) -> None:
    encoder = encoders[name]
    encoded = _encode(encoder, pair=False)
    with torch.inference_mode():
        logits = encoder.model(input_ids=encoded.inputs["input_ids"]).logits[0]  # (T, V)
    probs = torch.softmax(logits.float(), dim=-1)
    assert encoded.next_token_ids is not None and encoded.next_token_probs is not None
    top = probs.topk(10, dim=-1)
    torch.testing.assert_close(encoded.next_token_probs, top.values)
    assert encoded.next_tokens is not None
    assert encoded.next_tokens[-1] == encoder.tokenizer.convert_ids_to_tokens(top.indices[-1])


@pytest.mark.parametrize(
    ("name", "marker"), [("bert", "##"), ("roberta", "Ġ"), ("t5", "▁"), ("llama", "▁")]
)
def test_words_are_merged_whatever_the_piece_style(
    encoders: dict[str, Encoder], name: str, marker: str
) -> None:
    encoded = _encode(encoders[name])
    pieces = [
        tok for tok, special in zip(encoded.tokens, encoded.special, strict=True) if not special
    ]
    assert any(marker in piece for piece in pieces)
    for piece, special, segment, (start, end) in zip(
        encoded.tokens, encoded.special, encoded.segments, encoded.offsets, strict=True
    ):
        if not special:  # each piece's offsets point at its own characters in its own sentence
            covered = encoded.texts[segment][start:end].strip().lower()
            assert covered == piece.replace(marker, "").lower()
    groups = word_groups(encoded)
    labels = word_labels(encoded, groups)
    words = [
        label
        for label, group in zip(labels, groups, strict=True)
        if not all(encoded.special[i] for i in group)
    ]
    assert words == TEXT.split() + PAIR.split()


def test_long_input_is_cut_to_the_total_longest_first(encoders: dict[str, Encoder]) -> None:
    long = " ".join(["the lorry reversed into the bollard"] * 200)
    for name in ("bert", "roberta", "gpt2", "t5"):
        encoder = encoders[name]
        target = TARGET if encoder.kind == "encoder-decoder" else None
        encoded = encoder.encode(long, PAIR, max_length=512, target=target)
        assert len(encoded.tokens) == 512
        assert encoded.truncated == (True, False)  # only the longer sentence is cut
        assert encoded.attentions.shape[-1] == 512
    for name in ("bert", "roberta"):  # as transformers' own "longest_first" cuts a pair
        encoder = encoders[name]
        for size, second in ((100, long), (101, long), (20, PAIR)):
            encoded = encoder.encode(long, second, max_length=size)
            theirs = encoder.tokenizer(long, second, truncation="longest_first", max_length=size)
            assert encoder.tokenizer.convert_tokens_to_ids(encoded.tokens) == theirs["input_ids"]


def test_marian_is_refused_for_want_of_a_fast_tokenizer(tmp_path: Path) -> None:
    folder = families.make_marian(tmp_path / "marian")
    with pytest.raises(InputError) as err:
        Encoder(folder)
    assert err.value.key == "model_no_tokenizer" and "marian" in str(err.value)


def test_refusals_load_nothing(
    root: models.Root, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import transformers

    loaded: list[str] = []
    for auto in ("AutoModel", "AutoModelForCausalLM", "AutoModelForSeq2SeqLM", "AutoTokenizer"):
        original = getattr(transformers, auto).from_pretrained
        monkeypatch.setattr(
            getattr(transformers, auto),
            "from_pretrained",
            lambda *a, _o=original, _n=auto, **k: (loaded.append(_n), _o(*a, **k))[1],
        )
    with pytest.raises(InputError) as err:
        Encoder(models.resolve("tiny/gpt2", [root]), max_params=1000)
    assert err.value.key == "model_too_big"
    pickled = tmp_path / "pickled"
    pickled.mkdir()
    (pickled / "config.json").write_text('{"model_type": "gpt2"}')
    (pickled / "pytorch_model.bin").write_bytes(b"\x80\x04")
    with pytest.raises(InputError) as err:
        Encoder(pickled)
    assert err.value.key == "model_pickle"
    assert loaded == []
