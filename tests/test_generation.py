"""Generation, ablations and the induction finder on SmolLM2 and tiny decoders
(attnviz.transformer: generation, interventions, head_finder): greedy text equal to
transformers' generate, each step's attention row equal to a full eager forward's last row,
ablations equal to the test's own hook, induction scores equal to the test's own computation,
and SmolLM2's induction heads carrying " cat"."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
import torch

from attnviz.errors import InputError
from attnviz.transformer import generation, head_finder, interventions
from attnviz.transformer.encoder import Encoder
from tests import families

INDUCTION = "The cat sat on the mat. The dog sat on the rug. The cat sat on the"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return families.make_all(tmp_path_factory.mktemp("gen"), ("gpt2", "gpt_neox", "qwen2", "t5"))


def test_greedy_equals_transformers_generate(smol: Encoder) -> None:
    made = generation.generate(smol, INDUCTION, max_new_tokens=12)
    ids = smol.tokenizer(INDUCTION, return_tensors="pt").input_ids
    with torch.inference_mode():
        theirs = smol.model.generate(ids, do_sample=False, max_new_tokens=12)
    assert made.ids == theirs[0, ids.shape[1] :].tolist()
    assert made.tokens[0] == "Ġcat" and made.prompt_ids == ids[0].tolist()
    assert made.steps[0].top[0][1] == "Ġcat" and made.steps[0].top[0][2] > 0.2


def test_each_step_attention_is_the_full_forwards_last_row(smol: Encoder) -> None:
    made = generation.generate(smol, INDUCTION, max_new_tokens=6)
    for i, step in enumerate(made.steps):
        ids = torch.tensor([made.prompt_ids + made.ids[:i]])
        with torch.inference_mode():
            out = smol.model(input_ids=ids, output_attentions=True)
        last = torch.stack([a[0, :, -1, :] for a in out.attentions]).float()
        assert step.attention.shape == (30, 9, len(made.prompt_ids) + i)
        torch.testing.assert_close(step.attention, last, atol=1e-4, rtol=0)
        probs = torch.softmax(out.logits[0, -1].float(), dim=-1)
        torch.testing.assert_close(
            torch.tensor([p for _, _, p in step.top]), probs.topk(10).values, atol=1e-5, rtol=0
        )
    # The cache grows by one row a step: keys and values, 30 layers x 3 heads x 64 x 4 bytes.
    grown = [b.cache_bytes - a.cache_bytes for a, b in itertools.pairwise(made.steps)]
    assert set(grown) == {2 * 30 * 3 * 64 * 4}


def test_sampling_is_seeded_and_filtered(smol: Encoder) -> None:
    kwargs = {"max_new_tokens": 8, "temperature": 1.2, "top_k": 5}
    first = generation.generate(smol, "Once upon a time", seed=7, **kwargs)  # type: ignore[arg-type]
    again = generation.generate(smol, "Once upon a time", seed=7, **kwargs)  # type: ignore[arg-type]
    assert first.ids == again.ids
    for step in first.steps:  # each token among the 5 most probable under the temperature
        assert step.token_id in [i for i, _, _ in step.top[:5]]


def test_each_step_keeps_its_tokens_probability(tiny: dict[str, Path]) -> None:
    """The drawn token's probability under the temperature, even when it is not among the 10
    most probable (the page's caption reads it: 0.0% was a token outside the top list)."""
    encoder = Encoder(tiny["gpt2"])
    text = " ".join(families.corpus()[:2])
    made = generation.generate(encoder, text, max_new_tokens=6, temperature=3.0, seed=1)
    outside = 0
    for i, step in enumerate(made.steps):
        ids = torch.tensor([made.prompt_ids + made.ids[:i]])
        with torch.inference_mode():
            logits = encoder.model(input_ids=ids).logits[0, -1].float()
        probs = torch.softmax(logits / 3.0, dim=-1)
        assert step.probability == pytest.approx(float(probs[step.token_id]), rel=1e-4)
        outside += step.token_id not in [i for i, _, _ in step.top]
    assert outside > 0  # the check above covered a token outside the top list


def test_each_token_is_handed_over_as_it_comes(smol: Encoder) -> None:
    """What the page keeps for its Stop button: the text so far after every token, final."""
    seen: list[generation.Generation] = []
    asked = iter([False, False, True])
    made = generation.generate(
        smol, INDUCTION, max_new_tokens=10, on_token=seen.append, stop=lambda: next(asked)
    )
    assert made.stopped == "stopped" and len(made.ids) == 3
    assert [len(s.ids) for s in seen] == [1, 2, 3] and all(s.stopped == "stopped" for s in seen)
    assert seen[1].ids == made.ids[:2] and seen[1].steps == made.steps[:2]
    assert seen[0].ids == [made.ids[0]]  # a copy: later tokens do not grow it


def test_generation_refuses_what_it_cannot_do(smol: Encoder, tiny: dict[str, Path]) -> None:
    with pytest.raises(InputError, match="causal language model"):
        generation.generate(Encoder(tiny["t5"]), "A dog runs.")
    with pytest.raises(InputError, match="at most 512"):
        generation.generate(smol, "word " * 600)
    with pytest.raises(ValueError, match="max_new_tokens"):
        generation.generate(smol, "Hi", max_new_tokens=65)


def _hooked(encoder: Encoder, text: str, layer: int, head: int, mode: str) -> torch.Tensor:
    """The test's own ablation: the head's slice of the output projection's input replaced."""
    module = dict(encoder.model.named_modules())
    name = next(
        n for n in module
        if n.endswith(("self_attn.o_proj", "attn.c_proj", "attention.dense"))
        and f".{layer}." in f".{n}"
    )  # fmt: skip
    d = encoder.hidden_size // encoder.num_heads

    def hook(_module: object, args: tuple[torch.Tensor, ...]) -> tuple[torch.Tensor, ...]:
        x = args[0].clone()
        part = x[..., head * d : (head + 1) * d]
        x[..., head * d : (head + 1) * d] = 0 if mode == "zero" else part.mean(dim=1, keepdim=True)
        return (x,)

    handle = module[name].register_forward_pre_hook(hook)
    try:
        ids = encoder.tokenizer(text, return_tensors="pt").input_ids
        with torch.inference_mode():
            return torch.softmax(encoder.model(input_ids=ids).logits[0, -1].float(), dim=-1)
    finally:
        handle.remove()


@pytest.mark.parametrize("mode", interventions.MODES)
def test_ablations_equal_the_tests_own_hook(smol: Encoder, mode: str) -> None:
    plain = interventions.next_token_probs(smol, INDUCTION)
    ids = smol.tokenizer(INDUCTION, return_tensors="pt").input_ids
    with torch.inference_mode():
        forward = torch.softmax(smol.model(input_ids=ids).logits[0, -1].float(), dim=-1)
    torch.testing.assert_close(plain, forward)
    ablated = interventions.next_token_probs(smol, INDUCTION, ablate=[(14, 3)], mode=mode)
    torch.testing.assert_close(ablated, _hooked(smol, INDUCTION, 14, 3, mode), atol=1e-6, rtol=0)
    assert interventions.kl_divergence(plain, ablated) > 0


@pytest.mark.parametrize("name", ["gpt2", "gpt_neox", "qwen2"])
def test_ablations_in_the_families(tiny: dict[str, Path], name: str) -> None:
    encoder = Encoder(tiny[name])
    text = " ".join(families.corpus()[:2])
    for mode in interventions.MODES:
        ours = interventions.next_token_probs(encoder, text, ablate=[(1, 2)], mode=mode)
        torch.testing.assert_close(ours, _hooked(encoder, text, 1, 2, mode), atol=1e-6, rtol=0)


def test_induction_scores_equal_the_tests_own(smol: Encoder) -> None:
    scores = head_finder.induction_scores(smol, length=40, seed=3)
    special = set(smol.tokenizer.all_special_ids)
    pool = torch.tensor([i for i in range(smol.model.config.vocab_size) if i not in special])
    picks = pool[torch.randint(len(pool), (40,), generator=torch.Generator().manual_seed(3))]
    ids = torch.cat([picks, picks])[None]
    with torch.inference_mode():
        attn = torch.stack(smol.model(input_ids=ids, output_attentions=True).attentions)[:, 0]
    expected = torch.stack([attn[:, :, i, i - 39] for i in range(40, 80)], dim=-1).mean(-1)
    torch.testing.assert_close(scores, expected.float(), atol=1e-6, rtol=0)
    assert scores.shape == (30, 9) and float(scores.max()) > 0.3  # SmolLM2 has induction heads


def test_the_induction_heads_carry_cat(smol: Encoder) -> None:
    scores = head_finder.induction_scores(smol)
    cat = smol.tokenizer.convert_tokens_to_ids("Ġcat")
    plain = float(interventions.next_token_probs(smol, INDUCTION)[cat])
    top = [divmod(int(i), 9) for i in scores.flatten().topk(5).indices]
    induction = float(interventions.next_token_probs(smol, INDUCTION, ablate=top)[cat])
    generator = torch.Generator().manual_seed(0)
    randoms = []
    for _ in range(20):
        picks = torch.randperm(30 * 9, generator=generator)[:5]
        heads = [divmod(int(i), 9) for i in picks]
        randoms.append(float(interventions.next_token_probs(smol, INDUCTION, ablate=heads)[cat]))
    random_mean = sum(randoms) / len(randoms)
    print(f'p(" cat"): {plain:.3f}; top-5 induction heads out {induction:.3f}; '
          f"5 random heads out {random_mean:.3f} (mean of 20)")  # fmt: skip
    assert induction < random_mean


def test_ablation_refuses_other_families(tmp_path: Path) -> None:
    bert = Encoder(families.make("bert", tmp_path / "bert"))
    with pytest.raises(InputError, match="cannot take heads out"):
        interventions.next_token_probs(bert, "A dog runs.", ablate=[(0, 0)])


def _head_output(encoder: Encoder, inputs: dict[str, torch.Tensor], layer: int, head: int):
    """The test's own reading of one head's output: its slice where the heads lie joined."""
    module, before = interventions.head_sites(encoder)[layer]
    seen: dict[str, torch.Tensor] = {}

    def pre(_m: object, args: tuple[torch.Tensor, ...]) -> None:
        seen["x"] = args[0]

    def post(_m: object, _a: object, output: tuple[torch.Tensor, ...]) -> None:
        seen["x"] = output[0]

    handle = module.register_forward_pre_hook(pre) if before else module.register_forward_hook(post)
    try:
        with torch.inference_mode():
            encoder.model(**inputs)
    finally:
        handle.remove()
    size = encoder.hidden_size // encoder.num_heads
    return seen["x"][0, :, head * size : (head + 1) * size].float()


@pytest.mark.parametrize("name", ["smollm2", "minilm"])
def test_a_heads_output_replaced(smol: Encoder, encoder: Encoder, name: str) -> None:
    """What the Playground's round trip does: the neuron view's q, k, v give the head's own
    output (weights @ v); put back unchanged it changes nothing; zeros in a decoder equal the
    zero ablation."""
    from attnviz.transformer.neurons import head_vectors

    model = smol if name == "smollm2" else encoder
    encoded = model.encode(INDUCTION)
    layer, head = (14, 3) if name == "smollm2" else (2, 5)
    vectors = head_vectors(model, encoded, layer=layer, head=head)
    own = _head_output(model, encoded.inputs, layer, head)
    torch.testing.assert_close(vectors.weights @ vectors.values, own, atol=1e-5, rtol=1e-4)
    with torch.inference_mode():
        out = model.model(**encoded.inputs)
    plain = (out.logits if name == "smollm2" else out.last_hidden_state)[0].float()
    same = interventions.patched_output(model, encoded.inputs, {(layer, head): own})
    torch.testing.assert_close(same, plain, atol=1e-4, rtol=1e-4)
    zeros = torch.zeros_like(own)
    changed = interventions.patched_output(model, encoded.inputs, {(layer, head): zeros})
    assert (changed - plain).abs().max() > 1e-3
    if name == "smollm2":
        ablated = interventions.next_token_probs(model, INDUCTION, ablate=[(layer, head)])
        torch.testing.assert_close(torch.softmax(changed[-1], -1), ablated, atol=1e-6, rtol=0)
    # Only the first rows: later positions keep the head's own output.
    first = interventions.patched_output(model, encoded.inputs, {(layer, head): zeros[:2]})
    assert not torch.allclose(first, changed)
    with pytest.raises(InputError) as err:
        interventions.patched_output(model, encoded.inputs, {(layer, head): zeros[:, :5]})
    assert err.value.key == "edit_shape"
