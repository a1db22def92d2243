"""Activation patching on SmolLM2 against one plain forward of the same prompt, in one process.

`attnviz.transformer.patching` on the IOI pair (14 tokens each, the first difference at
position 9): the head grid (30 x 9 = 270 sites; targets within 40x one forward) and the
residual grid (30 x 14; within 60x), the attention and MLP grids beside them. One site a
forward of the whole prompt would cost about one forward a site (270x for the heads).
Run with `python -m benchmarks.bench_patching [--repeats N]`.
"""

from __future__ import annotations

import functools

import torch

from benchmarks.timing import median_seconds, repeats_option

CLEAN = "When Mary and John went to the store, John gave a drink to"
CORRUPTED = "When Mary and John went to the store, Mary gave a drink to"
TARGETS = {"head": 40.0, "residual": 60.0, "attention": None, "mlp": None}


def main() -> None:
    repeats = repeats_option(__doc__)
    torch.set_num_threads(1)
    from attnviz.transformer import models, patching
    from attnviz.transformer.encoder import Encoder

    smol = Encoder(models.resolve(models.SMOLLM2))
    ids = torch.tensor([smol.tokenizer(CLEAN)["input_ids"]])

    def forward() -> object:
        with torch.inference_mode():
            return smol.model(input_ids=ids).logits

    plain = median_seconds(forward, 5 * repeats)
    print(f"SmolLM2, IOI pair ({ids.shape[1]} tokens), one thread:")
    print(f"  one plain forward {plain * 1e3:.0f} ms")
    for kind, target in TARGETS.items():
        grid = getattr(patching, f"{kind}_patching")
        run = functools.partial(grid, smol, CLEAN, CORRUPTED, answer=" Mary", wrong=" John")
        seconds = median_seconds(run, repeats)
        columns = smol.num_heads if kind == "head" else ids.shape[1]
        shape = f"{smol.num_layers} x {columns}"  # the grid's, without running it once more
        wanted = f" (target <= {target:.0f}x)" if target else ""
        print(f"  {kind:9s} grid {shape:7s} {seconds:5.2f} s, {seconds / plain:5.1f}x{wanted}")


if __name__ == "__main__":
    main()
