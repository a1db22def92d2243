"""The model lesson's numbers: renormalised rows and the share [CLS] / [SEP] took, by hand."""

from __future__ import annotations

import pytest
import torch

from attnviz.lessons.model.compute import specials_share
from attnviz.transformer.views import renormalise

SPECIALS = [0, 5, 9]  # [CLS] i do need sleep [SEP] i am tired [SEP]


def test_renormalised_rows_sum_to_1_and_keep_their_proportions():
    attn = torch.tensor([[[0.1, 0.3], [0.25, 0.25]]])  # (1, 2, 2): rows summing to 0.4, 0.5
    out = renormalise(attn)
    torch.testing.assert_close(out, torch.tensor([[[0.25, 0.75], [0.5, 0.5]]]))


@pytest.mark.parametrize(
    ("block", "rows"), [("all", [1, 2, 3, 4, 6, 7, 8]), ("AB", [1, 2, 3, 4]), ("BA", [6, 7, 8])]
)
def test_the_specials_share_is_each_shown_rows_attention_to_cls_and_sep(encoder, block, rows):
    encoded = encoder.encode("I do need sleep", "I am tired")
    share = specials_share(encoded, merge_words=False, block=block)  # (L, H, r)
    expected = encoded.attentions[:, :, rows][..., SPECIALS].sum(-1)  # (L, H, r)
    torch.testing.assert_close(share, expected, rtol=1e-5, atol=1e-6)


def test_a_merged_words_share_is_the_mean_of_its_pieces(encoder):
    encoded = encoder.encode("Unbelievably tired")  # [CLS] un ##bel ##ie ##va ##bly tired [SEP]
    merged = specials_share(encoded, merge_words=True, block="all")  # (L, H, 2)
    pieces = encoded.attentions[..., [0, 7]].sum(-1)  # (L, H, T): to [CLS] and [SEP]
    torch.testing.assert_close(merged[..., 0], pieces[..., 1:6].mean(-1), rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(merged[..., 1], pieces[..., 6], rtol=1e-5, atol=1e-6)
