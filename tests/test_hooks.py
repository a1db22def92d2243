"""A hook for one call on the shared model acts only on its own thread's forwards: another
session's forward at the same moment reads the model as it is (attnviz.transformer.hooks)."""

from __future__ import annotations

import threading

import torch

from attnviz.transformer import interventions
from attnviz.transformer.encoder import Encoder
from attnviz.transformer.hooks import mine


def forward(encoder: Encoder, inputs: dict) -> torch.Tensor:
    with torch.inference_mode():
        return encoder.model(**inputs).logits[0].float()


def in_thread(work):
    found = []
    thread = threading.Thread(target=lambda: found.append(work()))
    thread.start()
    thread.join()
    return found[0]


def test_a_hook_runs_only_in_the_thread_that_made_it():
    calls = []
    hook = mine(lambda *args: calls.append(args) or "changed")
    assert hook(1, 2) == "changed" and calls == [(1, 2)]
    assert in_thread(lambda: hook(3)) is None
    assert calls == [(1, 2)]


def test_another_threads_forward_is_untouched_while_heads_are_ablated(smol: Encoder):
    encoder = smol
    inputs = dict(encoder.tokenizer("the cat sat on the mat", return_tensors="pt"))
    plain = forward(encoder, inputs)
    every_head = [(layer, head) for layer in range(2) for head in range(encoder.num_heads)]
    handles = interventions._hooks(encoder, every_head, "zero")
    try:
        ablated = forward(encoder, inputs)
        other = in_thread(lambda: forward(encoder, inputs))
    finally:
        for handle in handles:
            handle.remove()
    assert (ablated - plain).abs().max() > 0.1  # the hooks act here
    torch.testing.assert_close(other, plain)  # and not on the other thread's forward
