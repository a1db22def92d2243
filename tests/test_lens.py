"""The logit lens and each head's direct part of a logit (attnviz.transformer.lens), on SmolLM2
and tiny GPT-2, GPT-NeoX and Qwen2 models: each row the final norm and the unembedding of the
stream (the last the model's own logits, not normed twice), and the heads' parts adding up,
with the rest of the stream, to the model's logit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import torch

from attnviz.errors import InputError
from attnviz.transformer import lens
from attnviz.transformer.encoder import Encoder
from attnviz.transformer.interventions import projections
from tests import families

INDUCTION = "The cat sat on the mat. The dog sat on the rug. The cat sat on the"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return families.make_all(tmp_path_factory.mktemp("lens"), ("gpt2", "gpt_neox", "qwen2", "bert"))


def test_each_row_reads_the_stream_through_the_norm_and_the_last_is_the_output(
    smol: Encoder,
) -> None:
    read = lens.logit_lens(smol, INDUCTION, positions=4)
    ids = smol.tokenizer(INDUCTION, return_tensors="pt").input_ids
    with torch.inference_mode():
        out = smol.model(input_ids=ids, output_hidden_states=True)
        streams = out.hidden_states
        assert read.positions == list(range(ids.shape[1] - 4, ids.shape[1]))
        assert read.top_ids.shape == (31, 4, lens.LAYER_TOP)
        for row in (0, 7, 29):
            logits = smol.model.lm_head(smol.model.model.norm(streams[row][0, -4:]))
            top = torch.softmax(logits.float(), -1).topk(lens.LAYER_TOP)
            assert torch.equal(read.top_ids[row], top.indices)
            torch.testing.assert_close(read.top_probs[row], top.values, atol=1e-5, rtol=0)
        output = torch.softmax(out.logits[0, -4:].float(), -1).topk(lens.LAYER_TOP)
        assert torch.equal(read.top_ids[-1], output.indices)
        # The trap: transformers' last hidden state has been normed; normed again it reads wrong.
        twice = smol.model.lm_head(smol.model.model.norm(streams[-1][0, -4:])).float()
        assert not torch.allclose(twice, out.logits[0, -4:].float(), atol=1.0)
    assert smol.tokenizer.convert_ids_to_tokens(int(read.top_ids[-1, -1, 0])) == "Ġcat"
    # " cat" comes late: the embeddings and the first layers do not name it.
    assert float(read.final_probs[-1, -1]) > 0.2 > float(read.final_probs[:20, -1].max())


def _parts(encoder: Encoder, text: str, target: int) -> tuple[float, float, list[float]]:
    """The test's own decomposition: the logit, the rest of the stream's direct part (stream
    less every attention output), and each layer's attention output's part (bias included)."""
    norm = lens.final_norm(encoder)
    outputs: dict[int, torch.Tensor] = {}

    def grab(index: int) -> Any:
        def hook(_module: Any, args: tuple[Any, ...], output: Any) -> None:
            outputs[index] = (args[0] if index < 0 else output)[0, -1].float()

        return hook

    layers = projections(encoder)
    handles = [p.register_forward_hook(grab(i)) for i, p in enumerate(layers)]
    handles.append(norm.register_forward_hook(grab(-1)))
    try:
        ids = encoder.tokenizer(text, return_tensors="pt").input_ids
        with torch.inference_mode():
            logit = float(encoder.model(input_ids=ids).logits[0, -1, target])
    finally:
        for handle in handles:
            handle.remove()
    stream = outputs[-1]
    scale, centred = lens.frozen_norm(norm, stream)
    unembed = encoder.model.get_output_embeddings()
    direction = unembed.weight[target].float() * scale

    def through(part: torch.Tensor) -> float:
        return float(((part - part.mean()) if centred else part) @ direction)

    bias = getattr(norm, "bias", None)
    offset = 0.0 if bias is None else float(bias.float() @ unembed.weight[target].float())
    if getattr(unembed, "bias", None) is not None:
        offset += float(unembed.bias[target])
    attention = [outputs[i] for i in range(len(layers))]
    rest = through(stream - sum(attention))
    biases = [getattr(p, "bias", None) for p in layers]
    per_layer = [
        through(a - (b.float() if b is not None else 0))
        for a, b in zip(attention, biases, strict=True)
    ]
    return (
        logit - offset - rest,
        sum(through(b.float()) for b in biases if b is not None),
        per_layer,
    )


@pytest.mark.parametrize("name", ["smollm2", "gpt2", "gpt_neox", "qwen2"])
def test_heads_parts_add_up_to_the_logit(smol: Encoder, tiny: dict[str, Path], name: str) -> None:
    encoder = smol if name == "smollm2" else Encoder(tiny[name])
    text = INDUCTION if name == "smollm2" else " ".join(families.corpus()[:2])
    ids = encoder.tokenizer(text)["input_ids"]
    target = int(encoder.model(input_ids=torch.tensor([ids])).logits[0, -1].argmax())
    read = lens.logit_lens(encoder, text, target=target)
    assert read.head_logits is not None and read.target == target
    assert read.head_logits.shape == (encoder.num_layers, encoder.num_heads)
    heads_and_biases, biases, per_layer = _parts(encoder, text, target)
    # Every head's part, with the projections' biases, is what attention wrote into the logit.
    # Tolerances follow the parts' size: tiny random models write logits of about 0.01.
    size = max(abs(p) for p in per_layer)
    total = float(read.head_logits.sum()) + biases
    assert total == pytest.approx(heads_and_biases, abs=1e-4 * size)
    torch.testing.assert_close(
        read.head_logits.sum(dim=1), torch.tensor(per_layer), atol=1e-4 * size, rtol=0
    )


def test_ids_read_as_the_text_is(smol: Encoder) -> None:
    ids = smol.tokenizer(INDUCTION)["input_ids"]
    by_text = lens.logit_lens(smol, INDUCTION, positions=2)
    by_ids = lens.logit_lens(smol, ids, positions=2)
    assert torch.equal(by_text.top_ids, by_ids.top_ids) and by_ids.head_logits is None


def test_the_lens_refuses_what_it_cannot_read(tiny: dict[str, Path]) -> None:
    with pytest.raises(InputError) as err:
        lens.logit_lens(Encoder(tiny["bert"]), "a cat")
    assert err.value.key == "lens_needs_decoder"
    with pytest.raises(InputError):
        lens.logit_lens(Encoder(tiny["gpt2"]), [])
