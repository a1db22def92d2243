"""What each generated token drew on (attnviz.transformer.attribution) on SmolLM2 and a tiny
random Qwen2: each row equal to a gradient of the log-probability through `inputs_embeds`
written here, NaN after the row's last position, the ids `generate` writes, fewer rows when an
end token comes early, integrated gradients equal to `attnviz.saliency`'s applied by hand, and
every refusal's message."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from attnviz.errors import InputError
from attnviz.saliency import integrated_gradients
from attnviz.transformer import attribution, generate, generation_attribution
from attnviz.transformer.attribution import attribution_matrix
from attnviz.transformer.encoder import Encoder
from attnviz.transformer.tokens import readable
from tests import families

PROMPT = "The cat sat on the mat. The dog sat on the"
TINY_PROMPT = " ".join(families.corpus()[:2])


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return families.make_all(tmp_path_factory.mktemp("attribution"), ("qwen2", "t5"))


@pytest.fixture(scope="module")
def qwen(tiny: dict[str, Path]) -> Encoder:
    return Encoder(tiny["qwen2"])


def reference_row(encoder: Encoder, ids: list[int], upto: int) -> torch.Tensor:
    """(upto,): x * d log p(ids[upto] | ids[:upto]) / dx summed over d, x the input
    embeddings of ids[:upto], by one autograd call."""
    table = encoder.model.get_input_embeddings().weight  # (V, d)
    x = table[ids[:upto]].detach().clone().requires_grad_(True)  # (upto, d)
    logits = encoder.model(inputs_embeds=x[None]).logits[0, -1]  # (V,)
    value = torch.log_softmax(logits.float(), dim=-1)[ids[upto]]
    (grad,) = torch.autograd.grad(value, x)
    return (x * grad).sum(dim=-1).detach()


def check_rows(encoder: Encoder, prompt: str, new: int) -> None:
    made = generation_attribution(encoder, prompt, max_new_tokens=new)
    count, p = made.matrix.shape[0], made.prompt_length
    assert made.matrix.shape == (count, p + count - 1) and len(made.ids) == p + count
    for i in (0, count - 1):
        expected = reference_row(encoder, made.ids, p + i).double().numpy()
        np.testing.assert_allclose(made.matrix[i, : p + i], expected, rtol=1e-4, atol=1e-5)
    for i in range(count):
        assert np.isfinite(made.matrix[i, : p + i]).all()
        assert np.isnan(made.matrix[i, p + i :]).all()
    assert all(param.grad is None for param in encoder.model.parameters())


def test_rows_equal_the_gradient_through_inputs_embeds_smollm2(smol: Encoder) -> None:
    check_rows(smol, PROMPT, 4)


def test_rows_equal_the_gradient_through_inputs_embeds_tiny(qwen: Encoder) -> None:
    check_rows(qwen, TINY_PROMPT, 6)


def test_ids_and_tokens_are_the_prompt_then_generates(smol: Encoder, qwen: Encoder) -> None:
    for encoder, prompt, settings in (
        (smol, PROMPT, {"max_new_tokens": 3}),
        (qwen, TINY_PROMPT, {"max_new_tokens": 5, "temperature": 1.5, "top_k": 20, "seed": 3}),
    ):
        made = generation_attribution(encoder, prompt, **settings)  # type: ignore[arg-type]
        written = generate(encoder, prompt, **settings)  # type: ignore[arg-type]
        assert made.ids == written.prompt_ids + written.ids
        assert made.prompt_length == len(written.prompt_ids)
        pieces = encoder.tokenizer.convert_ids_to_tokens(written.prompt_ids)
        shown = readable(pieces, encoder.token_style) + readable(
            written.tokens, encoder.token_style
        )
        assert made.tokens == shown
    assert made.ids != generation_attribution(qwen, TINY_PROMPT, max_new_tokens=5).ids


def test_an_early_end_token_gives_fewer_rows(tiny: dict[str, Path]) -> None:
    encoder = Encoder(tiny["qwen2"])
    written = generate(encoder, TINY_PROMPT, max_new_tokens=6)
    encoder.model.config.eos_token_id = written.ids[1]  # the second new token ends it
    encoder.model.generation_config.eos_token_id = written.ids[1]
    made = generation_attribution(encoder, TINY_PROMPT, max_new_tokens=6)
    p = made.prompt_length
    assert made.matrix.shape == (2, p + 1) and made.ids == written.prompt_ids + written.ids[:2]
    assert np.isnan(made.matrix[0, p]) and np.isfinite(made.matrix[1]).all()


def test_integrated_gradients_is_saliencys(qwen: Encoder) -> None:
    made = generation_attribution(
        qwen, TINY_PROMPT, max_new_tokens=3, method="integrated_gradients"
    )
    p, i = made.prompt_length, 2
    table = qwen.model.get_input_embeddings().weight.detach()
    token = made.ids[p + i]

    def forward(x: torch.Tensor) -> torch.Tensor:
        logits = qwen.model(inputs_embeds=x[None]).logits[0, -1]
        return torch.log_softmax(logits.float(), dim=-1)[token]

    expected = integrated_gradients(forward, table[made.ids[: p + i]], steps=32)
    np.testing.assert_allclose(made.matrix[i, : p + i], expected.double().numpy(), atol=1e-5)
    assert np.isnan(made.matrix[0, p:]).all()


def test_longer_texts_take_fewer_points_of_the_path_a_forward(
    qwen: Encoder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Memory stays bounded: a forward's points times positions squared near 8 x 128^2, and
    never one point (saliency's one-point path keeps every point's graph at once)."""
    batches: list[int] = []

    def recorded(forward: object, x: torch.Tensor, **kwargs: int) -> torch.Tensor:
        batches.append(kwargs["batch"])
        return torch.zeros(len(x))

    monkeypatch.setattr(attribution, "integrated_gradients", recorded)
    size = qwen.model.get_input_embeddings().weight.shape[1]
    for length in (10, 128, 200, 600):
        attribution.attribute_row(qwen, torch.zeros(length, size), 0, "integrated_gradients")
    assert batches == [8, 8, 3, 2]


def test_a_written_generation_is_attributed_as_it_stands(qwen: Encoder) -> None:
    """The page's path: the ids a generation kept (a Stop can keep fewer), attributed."""
    made = generation_attribution(qwen, TINY_PROMPT, max_new_tokens=4)
    p = made.prompt_length
    seen: list[tuple[int, int]] = []
    kept = attribution_matrix(qwen, made.ids[: p + 3], p, progress=lambda *a: seen.append(a))
    np.testing.assert_array_equal(kept, made.matrix[:3, : p + 2])
    assert seen == [(1, 3), (2, 3), (3, 3)]
    with pytest.raises(ValueError, match="attribute 1 or more"):
        attribution_matrix(qwen, made.ids[:p], p)
    with pytest.raises(InputError, match="choose one of"):
        attribution_matrix(qwen, made.ids, p, method="lime")


def test_an_interrupted_matrix_passed_again_resumes_where_it_stopped(qwen: Encoder) -> None:
    made = generation_attribution(qwen, TINY_PROMPT, max_new_tokens=4)
    p = made.prompt_length
    rows = np.full(made.matrix.shape, np.nan)

    def interrupt(done: int, count: int) -> None:
        if done == 2:
            raise KeyboardInterrupt  # as a rerun interrupts the page's run, after row 2

    with pytest.raises(KeyboardInterrupt):
        attribution_matrix(qwen, made.ids, p, progress=interrupt, into=rows)
    np.testing.assert_array_equal(rows[:2], made.matrix[:2])
    assert np.isnan(rows[2:]).all()
    assert attribution.rows_done(rows).tolist() == [True, True, False, False]
    seen: list[tuple[int, int]] = []
    found = attribution_matrix(qwen, made.ids, p, progress=lambda *a: seen.append(a), into=rows)
    assert found is rows and seen == [(3, 4), (4, 4)]  # rows 1 and 2 not computed again
    np.testing.assert_array_equal(found, made.matrix)
    with pytest.raises(ValueError, match=r"into must be a float64 array of shape \(4, "):
        attribution_matrix(qwen, made.ids, p, into=np.full((3, 3), np.nan))


def test_every_refusal_says_what_to_do(qwen: Encoder, tiny: dict[str, Path]) -> None:
    cases = [
        ({"method": "saliency"}, "'saliency' is not an attribution method attnviz computes: "
         "choose one of gradient_x_input, integrated_gradients."),
        ({"max_new_tokens": 0}, "0 new tokens: attribution follows generation, which writes 1 "
         "to 64 new tokens. Pick a count in that range."),
        ({"max_new_tokens": 65}, "65 new tokens"),
        ({"prompt": ""}, "The prompt is empty: type the text the model should continue"),
    ]  # fmt: skip
    for changed, message in cases:
        settings = {"prompt": TINY_PROMPT, "max_new_tokens": 2, **changed}
        prompt = settings.pop("prompt")
        with pytest.raises(InputError) as refused:
            generation_attribution(qwen, prompt, **settings)  # type: ignore[arg-type]
        assert str(refused.value).startswith(message)
    with pytest.raises(InputError, match="Generating text needs a causal language model"):
        generation_attribution(Encoder(tiny["t5"]), "A dog runs.", max_new_tokens=2)
    with pytest.raises(InputError, match="at most 512 are read"):
        generation_attribution(qwen, "word " * 600, max_new_tokens=2)
