"""Activation patching (attnviz.transformer.patching) against TransformerLens's own
(`transformer_lens.patching`, on a `TransformerBridge` of the same HF weights): every cell the
same share of the logit difference recovered, `(LD_patched - LD_corrupted) / (LD_clean -
LD_corrupted)`.

TransformerLens 4.x boots a local folder with `TransformerBridge.boot_transformers(path)`: raw
HF weights, eager attention, no layer norm folding nor weight centring (those come only with
`enable_compatibility_mode()`), so the bridge is the same function as attnviz's model. Its
sites: `blocks.{l}.hook_resid_pre` (the residual entering layer l), `blocks.{l}.attn.hook_z`
(each head's slice of the output projection's input), `blocks.{l}.hook_attn_out` and
`blocks.{l}.hook_mlp_out` (before the residual adds). TransformerLens runs one whole forward per
cell, so on SmolLM2 it patches a sample of cells (about 0.25 s a forward on one core), and the
tiny models every cell. Both sides read the same token ids: TransformerLens's own tokenizing
would prepend its BOS.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import torch

from attnviz.transformer import models, patching
from attnviz.transformer.encoder import Encoder
from tests import families

tl_patching = pytest.importorskip(
    "transformer_lens.patching",
    reason="TransformerLens is not installed (make test installs it: requirements-peers.txt, "
    "--no-deps)",
)
pd = pytest.importorskip("pandas")

CLEAN = "When Mary and John went to the store, John gave a drink to"
CORRUPTED = "When Mary and John went to the store, Mary gave a drink to"
IOI = {"answer": " Mary", "wrong": " John"}
NAME = 9  # where the two prompts differ
TINY = ("the cat sat on the mat", "the dog sat on the mat")
TOLERANCE = 1e-4  # float32, the same weights and the same eager attention: ~1e-6 seen
# TransformerLens's function and its index axes for each of attnviz's grids
PEERS = {
    "residual": ("get_act_patch_resid_pre", ("layer", "pos")),
    "attention": ("get_act_patch_attn_out", ("layer", "pos")),
    "mlp": ("get_act_patch_mlp_out", ("layer", "pos")),
    "head": ("get_act_patch_attn_head_out_all_pos", ("layer", "head")),
}
# SmolLM2's sampled cells: (layer, position) from the changed name on, and (layer, head)
CELLS = [(0, NAME), (4, 12), (11, NAME), (17, 13), (22, 10), (29, 13), (29, NAME)]
HEADS = [(0, 0), (9, 5), (15, 2), (21, 6), (23, 3), (29, 8)]


def bridge(path: Path, tokenizer: Any) -> Any:
    """TransformerLens's bridge of the model saved in `path`, unprocessed, in eval mode."""
    from transformer_lens import TransformerBridge

    model = TransformerBridge.boot_transformers(str(path), device="cpu", tokenizer=tokenizer)
    model.eval()
    return model


def tl_grid(
    model: Any,
    encoder: Encoder,
    texts: tuple[str, str],
    answer: str,
    wrong: str,
    kind: str,
    cells: list[tuple[int, int]] | None = None,
) -> torch.Tensor:
    """TransformerLens's grid of `kind` with the normalised logit-difference metric: every cell,
    or only `cells` (flattened, in their order)."""
    clean, corrupted = (torch.tensor([encoder.tokenizer(t)["input_ids"]]) for t in texts)
    ids = [encoder.tokenizer(w, add_special_tokens=False)["input_ids"] for w in (answer, wrong)]
    assert all(len(i) == 1 for i in ids), ids
    a, w = ids[0][0], ids[1][0]

    def ld(logits: torch.Tensor) -> torch.Tensor:
        return logits[0, -1, a] - logits[0, -1, w]

    name, axes = PEERS[kind]
    with torch.inference_mode():
        ld_clean, ld_corrupted = float(ld(model(clean))), float(ld(model(corrupted)))
        _, cache = model.run_with_cache(clean)

        def metric(logits: torch.Tensor) -> torch.Tensor:
            return (ld(logits) - ld_corrupted) / (ld_clean - ld_corrupted)

        function = getattr(tl_patching, name)
        if cells is None:
            return function(model, corrupted, cache, metric).float()
        index = pd.DataFrame(cells, columns=list(axes))
        return function(
            model, corrupted, cache, metric, index_axis_names=None, index_df=index
        ).float()


@pytest.fixture(scope="module")
def smol_bridge(smol: Encoder) -> Any:
    return bridge(models.resolve(models.SMOLLM2), smol.tokenizer)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    names = ("llama", "gpt2", "gpt_neox", "qwen2")
    return families.make_all(tmp_path_factory.mktemp("peers"), names)


def test_the_bridge_reads_the_same_logits(smol: Encoder, smol_bridge: Any) -> None:
    ids = torch.tensor([smol.tokenizer(CLEAN)["input_ids"]])
    with torch.inference_mode():
        ours = smol.model(input_ids=ids).logits
        theirs = smol_bridge(ids)
    torch.testing.assert_close(theirs, ours, atol=1e-4, rtol=0)


@pytest.mark.parametrize("kind", ["residual", "attention", "mlp"])
def test_smollm2_positions_equal_transformer_lens(
    smol: Encoder, smol_bridge: Any, kind: str
) -> None:
    ours = getattr(patching, f"{kind}_patching")(smol, CLEAN, CORRUPTED, **IOI)
    theirs = tl_grid(smol_bridge, smol, (CLEAN, CORRUPTED), **IOI, kind=kind, cells=CELLS)
    expected = torch.stack([ours[layer, position] for layer, position in CELLS])
    torch.testing.assert_close(theirs, expected, atol=TOLERANCE, rtol=0)


def test_smollm2_heads_equal_transformer_lens(smol: Encoder, smol_bridge: Any) -> None:
    ours = patching.head_patching(smol, CLEAN, CORRUPTED, **IOI)
    theirs = tl_grid(smol_bridge, smol, (CLEAN, CORRUPTED), **IOI, kind="head", cells=HEADS)
    expected = torch.stack([ours[layer, head] for layer, head in HEADS])
    torch.testing.assert_close(theirs, expected, atol=TOLERANCE, rtol=0)


@pytest.mark.parametrize("family", ["llama", "gpt2", "gpt_neox", "qwen2"])
def test_tiny_families_equal_transformer_lens_everywhere(
    tiny: dict[str, Path], family: str
) -> None:
    """Every cell of every grid: Llama and Qwen2 (grouped-query attention), GPT-2 (Conv1D,
    learned positions), GPT-NeoX (parallel attention and MLP, partial rotary)."""
    encoder = Encoder(tiny[family])
    ids = encoder.tokenizer(TINY[0])["input_ids"]
    answer, wrong = (encoder.tokenizer.decode([i]) for i in (ids[-1], ids[-2]))
    model = bridge(tiny[family], encoder.tokenizer)
    for kind in PEERS:
        ours = getattr(patching, f"{kind}_patching")(
            encoder, *TINY, answer=answer, wrong=wrong, batch_size=3
        )
        theirs = tl_grid(model, encoder, TINY, answer, wrong, kind)
        assert theirs.shape == ours.shape, kind
        torch.testing.assert_close(
            theirs, ours, atol=TOLERANCE, rtol=0, msg=lambda m, kind=kind: f"{kind}: {m}"
        )
