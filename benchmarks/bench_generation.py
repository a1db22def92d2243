"""Generation and ablations on SmolLM2 against transformers' own calls, in one process.

- `attnviz.transformer.generation.generate` (32 greedy tokens, every step's attention row
  kept) against transformers' `generate(do_sample=False, output_attentions=True,
  return_dict_in_generate=True)`: tokens a second, target at most 1.2x its time.
- `attnviz.transformer.interventions.next_token_probs` with 5 heads zeroed against a bare
  forward with one hand-written pre-hook on each ablated layer's `o_proj`.
Run with `python -m benchmarks.bench_generation [--repeats N]`.
"""

from __future__ import annotations

import torch

from benchmarks.timing import median_seconds, repeats_option

PROMPT = "The cat sat on the mat. The dog sat on the rug. The cat sat on the"
TOKENS = 32
HEADS = [(3, 1), (8, 4), (14, 3), (20, 7), (26, 2)]


def main() -> None:
    repeats = repeats_option(__doc__)
    torch.set_num_threads(1)
    from attnviz.transformer import generation, interventions, models
    from attnviz.transformer.encoder import Encoder

    smol = Encoder(models.resolve(models.SMOLLM2))
    ids = smol.tokenizer(PROMPT, return_tensors="pt").input_ids

    def ours() -> object:
        return generation.generate(smol, PROMPT, max_new_tokens=TOKENS)

    def theirs() -> object:
        with torch.inference_mode():
            return smol.model.generate(
                ids, do_sample=False, max_new_tokens=TOKENS, min_new_tokens=TOKENS,
                output_attentions=True, return_dict_in_generate=True,
            )  # fmt: skip

    made = generation.generate(smol, PROMPT, max_new_tokens=TOKENS)
    count = len(made.ids)
    ours_s = median_seconds(ours, repeats)
    theirs_s = median_seconds(theirs, repeats)
    print(f"SmolLM2, {count} greedy tokens after a {ids.shape[1]}-token prompt, one thread:")
    print(
        f"  attnviz generate {count / ours_s:5.1f} tokens/s, transformers generate with "
        f"attentions {TOKENS / theirs_s:5.1f} tokens/s; ratio of times per token "
        f"{(ours_s / count) / (theirs_s / TOKENS):.2f} (target <= 1.2)"
    )

    d = smol.hidden_size // smol.num_heads

    def bare() -> object:
        handles = []
        for layer, head in HEADS:

            def hook(_m: object, args: tuple[torch.Tensor, ...], h: int = head) -> tuple:
                x = args[0].clone()
                x[..., h * d : (h + 1) * d] = 0
                return (x,)

            handles.append(
                smol.model.model.layers[layer].self_attn.o_proj.register_forward_pre_hook(hook)
            )
        try:
            with torch.inference_mode():
                return torch.softmax(smol.model(input_ids=ids).logits[0, -1], dim=-1)
        finally:
            for handle in handles:
                handle.remove()

    def ablated() -> object:
        return interventions.next_token_probs(smol, PROMPT, ablate=HEADS)

    ours_s, bare_s = (
        median_seconds(ablated, 5 * repeats),
        median_seconds(bare, 5 * repeats),
    )
    print(
        f"  5 heads zeroed: attnviz {ours_s * 1e3:.0f} ms, bare hooked forward "
        f"{bare_s * 1e3:.0f} ms, ratio {ours_s / bare_s:.2f}"
    )


if __name__ == "__main__":
    main()
