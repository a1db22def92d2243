"""MiniLM's layers fine-tuned under the NLI head: where the shipped classifier's token vectors
come from.

Decomposable attention (Parikh et al. 2016) reads each sentence's token vectors, here MiniLM's
(all-MiniLM-L6-v2) with each sentence encoded alone. The shipped checkpoint fine-tunes MiniLM's
first `layers` transformer layers together with the head (attend, compare, aggregate) on human-
written SNLI and MultiNLI pairs; the embeddings (word, position and type rows and their norm)
stay the shared MiniLM's, loaded once per process. The tuned layers are a float16 safetensors
file of their own beside the checkpoint (`<name>.layers.safetensors`, named by the card), read
once and run in float32 with PyTorch's fused attention (no weights are kept: the page shows the
head's alignment, not these layers' heads).

Shape letters: N sentences, T tokens ([CLS] and [SEP] included), d MiniLM's width (384).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING

import torch
from safetensors import SafetensorError
from safetensors.torch import load as load_tensors
from safetensors.torch import save as save_tensors
from torch import nn

from attnviz.errors import InputError

if TYPE_CHECKING:
    from attnviz.transformer.encoder import Encoder

FORMAT = "attnviz-nli-layers/1"
MAX_LAYERS_BYTES = 40_000_000  # MiniLM's six layers in float16: 21 MB


class TunedLayers(nn.Module):
    """A BERT of `layers` layers over the shared encoder's own embeddings module."""

    def __init__(self, encoder: Encoder, layers: int) -> None:
        super().__init__()
        base = encoder.model
        if encoder.model_type != "bert" or not 1 <= layers <= encoder.num_layers:
            raise InputError(
                "checkpoint_card", detail=f"{layers} tuned layers of a {encoder.model_type}"
            )
        config = copy.deepcopy(base.config)
        config.num_hidden_layers = layers
        config._attn_implementation = "sdpa"  # the fused path: no weights are needed here
        with torch.device("meta"):  # no random weights drawn only to be overwritten below
            bert = type(base)(config, add_pooling_layer=False)
        own = {  # copies: the tuned weights are loaded into these, never into the shared MiniLM
            k: v.detach().clone()
            for k, v in base.encoder.state_dict().items()
            if int(k.split(".")[1]) < layers
        }
        bert.encoder.load_state_dict(own, assign=True)
        bert.embeddings = base.embeddings  # shared: one copy per process, never trained here
        self.bert, self.layers = bert.train(False), layers

    def train(self, mode: bool = True) -> TunedLayers:
        super().train(mode)
        self.bert.embeddings.train(False)  # shared with every page's encoder: always inference
        return self

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """(N, T, d) the last tuned layer's output of padded ids (N, T) with their mask."""
        return self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    def from_embeddings(self, rows: torch.Tensor) -> torch.Tensor:
        """(T, d) from one sentence's word-embedding rows (T, d), [CLS] and [SEP] included:
        the path saliency takes its gradients through."""
        return self.bert(inputs_embeds=rows[None]).last_hidden_state[0]

    def trainable(self) -> list[nn.Parameter]:
        """The tuned layers' parameters (the shared embeddings are not among them)."""
        return list(self.bert.encoder.parameters())

    def to_bytes(self) -> bytes:
        """The tuned layers as float16 safetensors."""
        state = self.bert.encoder.state_dict()
        tensors = {k: v.detach().to(torch.float16).contiguous() for k, v in state.items()}
        return save_tensors(tensors, metadata={"format": FORMAT, "layers": str(self.layers)})

    def load_bytes(self, data: bytes) -> TunedLayers:
        """Read float16 safetensors written by `to_bytes` (into float32 weights)."""
        if len(data) > MAX_LAYERS_BYTES:
            raise InputError("file_too_big", found=len(data), limit=MAX_LAYERS_BYTES)
        try:
            tensors = {k: v.to(torch.float32) for k, v in load_tensors(data).items()}
            self.bert.encoder.load_state_dict(tensors, strict=True)
        except (SafetensorError, RuntimeError, ValueError) as err:
            raise InputError("checkpoint_tensors", detail=str(err).splitlines()[0][:200]) from None
        return self


def padded_ids(
    rows: Sequence[Sequence[int]], cls: int, sep: int, pad: int = 0
) -> tuple[torch.Tensor, torch.Tensor]:
    """[CLS] ids [SEP] of each sentence, padded: ids (N, T) and mask (N, T)."""
    width = max(len(row) for row in rows) + 2
    ids = torch.full((len(rows), width), pad, dtype=torch.long)  # (N, T)
    mask = torch.zeros_like(ids)
    for n, row in enumerate(rows):
        ids[n, : len(row) + 2] = torch.tensor([cls, *row, sep], dtype=torch.long)
        mask[n, : len(row) + 2] = 1
    return ids, mask


def words_only(hidden: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(N, T - 2, d) the word pieces' vectors ([CLS] and [SEP] left out, zeros at padding) and
    their lengths (N,), from a padded batch's output (N, T, d) and its mask (N, T)."""
    lens = mask.sum(dim=1) - 2  # (N,)
    words = hidden[:, 1:-1]  # (N, T - 2, d); each row's [SEP] is at lens, cut by the mask below
    keep = torch.arange(words.shape[1])[None, :] < lens[:, None]  # (N, T - 2)
    return words * keep[..., None].to(words.dtype), lens
