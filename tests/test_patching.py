"""Activation patching on SmolLM2 (attnviz.transformer.patching) against hooked forwards written
here: a plain eager forward of the corrupted prompt, every position, no cache, with one hook
that puts the clean run's activation in one site. The issue's logit differences, the batched
path equal to one site a forward, exact zeros before the first difference, and every refusal."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import torch

from attnviz.errors import InputError
from attnviz.i18n import set_language
from attnviz.transformer import patching
from attnviz.transformer.encoder import Encoder
from tests import families

CLEAN = "When Mary and John went to the store, John gave a drink to"
CORRUPTED = "When Mary and John went to the store, Mary gave a drink to"
IOI = {"answer": " Mary", "wrong": " John"}
NAME = 9  # where the two prompts differ: " John" / " Mary"
KINDS = ("residual", "attention", "mlp")
CELLS = [(0, NAME), (4, 12), (11, NAME), (17, 13), (22, 10), (29, 13)]
HEADS = [(0, 0), (9, 5), (15, 2), (21, 6), (23, 3), (29, 8)]
TINY = ("the cat sat on the mat", "the dog sat on the mat")


@dataclass(frozen=True)
class Pair:
    clean: str
    corrupted: str
    answer: str
    wrong: str


PAIR = Pair(CLEAN, CORRUPTED, **IOI)


@pytest.fixture(scope="module")
def grids(smol: Encoder) -> dict[str, torch.Tensor]:
    """Every grid of the IOI pair once; "head_one" with one site a forward, its first two
    layers only (the forwards that run every layer)."""
    made = {
        kind: getattr(patching, f"{kind}_patching")(smol, CLEAN, CORRUPTED, **IOI) for kind in KINDS
    }
    made["head"] = patching.head_patching(smol, CLEAN, CORRUPTED, **IOI)
    forwards: list[float] = []
    made["head_one"] = patching.head_patching(
        smol, CLEAN, CORRUPTED, **IOI, batch_size=1, progress=forwards.append,
        stop=lambda: len(forwards) == 2 * smol.num_heads,
    )  # fmt: skip
    return made


@pytest.fixture(scope="module")
def lds(smol: Encoder) -> tuple[float, float]:
    """The clean and corrupted logit differences of plain forwards."""
    return logit_difference(smol, CLEAN, PAIR), logit_difference(smol, CORRUPTED, PAIR)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return families.make_all(tmp_path_factory.mktemp("patching"), ("gpt2", "gpt_neox", "qwen2"))


def child(module: Any, names: tuple[str, ...]) -> Any:
    return next(getattr(module, name) for name in names if hasattr(module, name))


def modules(model: Encoder, kind: str, layer: int) -> Any:
    """Llama's, GPT-2's, GPT-NeoX's module of one site: the layer, its attention, its MLP or
    its output projection."""
    block = child(model.model.base_model, ("layers", "h"))[layer]
    attention = child(block, ("self_attn", "attn", "attention"))
    return {"residual": block, "attention": attention, "mlp": block.mlp}.get(
        kind, child(attention, ("o_proj", "c_proj", "dense"))
    )


def logit_difference(model: Encoder, text: str, pair: Pair) -> float:
    with torch.inference_mode():
        ids = torch.tensor([model.tokenizer(text)["input_ids"]])
        logits = model.model(input_ids=ids).logits[0, -1].float()
    answer, wrong = (model.tokenizer(w)["input_ids"][0] for w in (pair.answer, pair.wrong))
    return float(logits[answer] - logits[wrong])


def hooked_run(
    model: Encoder, text: str, pair: Pair, site: tuple[str, int], change: Callable[..., Any]
) -> float:
    """The logit difference of `text` with `change` seeing one layer's site, (1, T, d): the
    layer's input, its attention or MLP output, or o_proj's input; a tensor it returns
    replaces the site's (None leaves it)."""

    def pre(_m: Any, args: tuple, kwargs: dict) -> tuple | None:
        new = change(args[0] if args else kwargs["hidden_states"])
        if new is None:
            return None
        return ((new, *args[1:]), kwargs) if args else (args, {**kwargs, "hidden_states": new})

    def post(_m: Any, _args: Any, output: Any) -> Any:
        new = change(output[0] if isinstance(output, tuple) else output)
        if new is None or not isinstance(output, tuple):
            return new
        return (new, *output[1:])

    module = modules(model, *site)
    if site[0] in ("residual", "head"):
        handle = module.register_forward_pre_hook(pre, with_kwargs=True)
    else:
        handle = module.register_forward_hook(post)
    try:
        return logit_difference(model, text, pair)
    finally:
        handle.remove()


def hooked_share(
    model: Encoder, pair: Pair, lds: tuple[float, float], kind: str, layer: int, index: int
) -> float:
    """The corrupted prompt's share recovered with one site the clean run's: position `index`
    (residual, attention, MLP) or head `index` at every position."""
    kept: list[torch.Tensor] = []
    hooked_run(model, pair.clean, pair, (kind, layer), lambda x: kept.append(x[0].clone()))
    size = model.hidden_size // model.num_heads
    cut = slice(index * size, (index + 1) * size)

    def put(x: torch.Tensor) -> torch.Tensor:
        x = x.clone()
        if kind == "head":
            x[0, :, cut] = kept[0][:, cut]
        else:
            x[0, index] = kept[0][index]
        return x

    clean_ld, corrupted_ld = lds
    patched = hooked_run(model, pair.corrupted, pair, (kind, layer), put)
    return (patched - corrupted_ld) / (clean_ld - corrupted_ld)


def test_the_logit_differences_are_the_issues(smol: Encoder, lds: tuple[float, float]) -> None:
    ours = patching.logit_differences(smol, CLEAN, CORRUPTED, **IOI)
    assert ours == pytest.approx((6.12, -5.49), abs=0.05)
    assert ours == pytest.approx(lds, abs=1e-4)  # the same as a plain forward's logits
    paris = patching.logit_differences(
        smol,
        "The Eiffel Tower is in the city of",
        "The Colosseum is in the city of",
        answer=" Paris",
        wrong=" Rome",
    )
    assert paris == pytest.approx((2.86, -8.70), abs=0.05)


@pytest.mark.parametrize("family", ["gpt2", "gpt_neox", "qwen2"])
def test_other_families_equal_hooked_forwards(tiny: dict[str, Path], family: str) -> None:
    """GPT-2 passes its cache and mask to each block positionally, GPT-NeoX adds attention and
    MLP in parallel: every kind of site of every layer, against the hooked forward."""
    model = Encoder(tiny[family])
    ids, other = (model.tokenizer(text)["input_ids"] for text in TINY)
    pair = Pair(*TINY, *(model.tokenizer.decode([i]) for i in (ids[0], ids[-1])))
    lds = logit_difference(model, pair.clean, pair), logit_difference(model, pair.corrupted, pair)
    first = next(i for i, (a, b) in enumerate(zip(ids, other, strict=True)) if a != b)
    for kind in (*KINDS, "head"):
        grid = getattr(patching, f"{kind}_patching")(
            model, *TINY, answer=pair.answer, wrong=pair.wrong, batch_size=3
        )
        indices = range(model.num_heads) if kind == "head" else (first - 1, first, len(ids) - 1)
        for layer in range(model.num_layers):
            for index in indices:
                expected = hooked_share(model, pair, lds, kind, layer, index)
                assert abs(float(grid[layer, index]) - expected) < 2e-3, (kind, layer, index)


def test_the_grids_shapes(grids: dict[str, torch.Tensor]) -> None:
    assert grids["head"].shape == (30, 9)
    assert all(grids[kind].shape == (30, 14) for kind in KINDS)
    assert not any(grids[kind].isnan().any() for kind in (*KINDS, "head"))


@pytest.mark.parametrize("layer, head", HEADS)
def test_a_head_equals_a_hooked_forward(
    smol: Encoder, grids: dict, lds: tuple[float, float], layer: int, head: int
) -> None:
    expected = hooked_share(smol, PAIR, lds, "head", layer, head)
    assert abs(float(grids["head"][layer, head]) - expected) < 2e-3


@pytest.mark.parametrize("kind", KINDS)
def test_cells_equal_hooked_forwards(
    smol: Encoder, grids: dict, lds: tuple[float, float], kind: str
) -> None:
    for layer, position in CELLS:
        expected = hooked_share(smol, PAIR, lds, kind, layer, position)
        assert abs(float(grids[kind][layer, position]) - expected) < 2e-3, (layer, position)


def test_the_batched_path_equals_one_site_a_forward(grids: dict[str, torch.Tensor]) -> None:
    torch.testing.assert_close(grids["head"][:2], grids["head_one"][:2], atol=1e-4, rtol=0)
    assert grids["head_one"][2:].isnan().all()


def test_sites_before_the_first_difference_are_exactly_zero(grids: dict) -> None:
    for kind in KINDS:
        assert (grids[kind][:, :NAME] == 0).all()


def test_the_changed_name_and_the_last_position_carry_the_answer(grids: dict) -> None:
    residual = grids["residual"]
    assert residual[0, NAME] == pytest.approx(1.0, abs=0.01)  # the whole input, changed back
    assert residual[-1, -1] == pytest.approx(1.0, abs=0.1)  # the last layer reads the rest
    assert residual[0, NAME + 1 :].abs().max() < 0.01  # nothing else differs at layer 0


def test_progress_and_stop(smol: Encoder) -> None:
    shares: list[float] = []
    grid = patching.residual_patching(
        smol, CLEAN, CORRUPTED, **IOI, progress=shares.append, stop=lambda: len(shares) >= 2
    )
    assert len(shares) == 2 and 0 < shares[0] < shares[1] < 1
    assert not grid[:2].isnan().any() and grid[2:, NAME:].isnan().all()
    assert (grid[:, :NAME] == 0).all()


def test_refusals(smol: Encoder, encoder: Encoder) -> None:
    with pytest.raises(InputError, match=r"14 tokens .* as 15; they first differ at position 9"):
        patching.head_patching(smol, CLEAN, CORRUPTED.replace("Mary gave", "Mary Ann gave"), **IOI)
    with pytest.raises(InputError, match=r"' Marigold' reads as 3 tokens \('␣Mar' \+ 'ig"):
        patching.head_patching(smol, CLEAN, CORRUPTED, answer=" Marigold", wrong=" John")
    with pytest.raises(InputError, match="nothing for a patch to recover"):
        patching.residual_patching(smol, CLEAN, CLEAN, **IOI)
    with pytest.raises(InputError, match="causal language model") as refused:
        patching.mlp_patching(encoder, CLEAN, CORRUPTED, **IOI)
    assert refused.value.key == "patching_needs_decoder"
    with pytest.raises(InputError, match="one of them is empty"):
        patching.head_patching(smol, CLEAN, CORRUPTED, answer="", wrong=" John")
    # A prompt that reads as no token is named in the language the message is read in.
    with pytest.raises(InputError) as empty:
        patching.head_patching(smol, CLEAN, "", **IOI)
    assert str(empty.value).startswith("The corrupted prompt has no characters the tokenizer")
    set_language("ko")
    try:
        assert str(empty.value).startswith("손상된 프롬프트에 토크나이저가 읽는 문자가 없습니다")
    finally:
        set_language("en")


@pytest.mark.parametrize("size", [0, -3, 2.5, "4", True])
def test_a_batch_size_that_is_not_a_whole_number_of_sites_is_refused(smol: Encoder, size) -> None:
    with pytest.raises(ValueError, match=f"batch_size must be a whole number >= 1, got {size!r}"):
        patching.attention_patching(smol, CLEAN, CORRUPTED, **IOI, batch_size=size)


def test_an_unknown_option_names_the_public_function(smol: Encoder) -> None:
    with pytest.raises(
        TypeError, match=r"^head_patching\(\) got an unexpected keyword .*'batchsize'"
    ):
        patching.head_patching(smol, CLEAN, CORRUPTED, **IOI, batchsize=4)  # type: ignore[call-arg]
