"""The head finder and ablations on Across layers through AppTest, on SmolLM2: the grids and
table equal attnviz.transformer.head_finder's scores, the ablation's bars, KL and loss equal
attnviz.transformer.interventions on the same heads; and the five scores against the test's own."""

from __future__ import annotations

import numpy as np
import torch

from attnviz.app.model import MODEL
from attnviz.head_stats import pattern_score, sink_share
from attnviz.lessons.across_finder import view as view_ablation
from attnviz.lessons.across_finder import view as view_finder
from attnviz.transformer import head_finder, interventions, models
from attnviz.transformer.encoder import Encoder
from tests.app.test_links import open_with
from tests.apptest import chart, open_page, texts_of, z_of
from tests.lessons.across.test_view import PAGE, show

INDUCTION = "The cat sat on the mat. The dog sat on the rug. The cat sat on the"


def test_the_five_scores_equal_the_tests_own(smol: Encoder) -> None:
    scores = head_finder.head_scores(smol, length=30, seed=1)
    torch.testing.assert_close(
        scores["induction"], head_finder.induction_scores(smol, length=30, seed=1)
    )
    ids = head_finder.repeated_sequence(smol, 30, 1)
    with torch.inference_mode():
        attn = torch.stack(smol.model(input_ids=ids, output_attentions=True).attentions)[:, 0]
    duplicate = torch.stack([attn[:, :, i, i - 30] for i in range(30, 60)], dim=-1).mean(-1)
    torch.testing.assert_close(scores["duplicate"], duplicate.float(), atol=1e-6, rtol=0)
    readings = [smol.encode(s).every_attention() for s in head_finder.CORPUS]
    previous = torch.stack([pattern_score(a, "previous") for a in readings]).mean(0)
    first = torch.stack([sink_share(a) for a in readings]).mean(0)
    torch.testing.assert_close(scores["previous"], previous, atol=1e-6, rtol=0)
    torch.testing.assert_close(scores["first"], first, atol=1e-6, rtol=0)


def test_the_finder_and_the_ablation_on_the_page(smol: Encoder) -> None:
    at = open_page(PAGE)
    at.selectbox(key=MODEL.key).set_value(models.SMOLLM2).run(timeout=120)
    at.text_area(key="across_sentence_a").input(INDUCTION).run()
    at.text_area(key="across_sentence_b").input("").run()
    at = show(at, "finder")
    assert not at.exception, [e.value for e in at.exception]
    scores = head_finder.head_scores(smol)
    np.testing.assert_allclose(z_of(at, view_finder.FINDER_GRID), scores["induction"], atol=1e-6)
    strongest = scores["induction"].flatten().argsort(descending=True)[:5].tolist()
    heads = [divmod(int(i), 9) for i in strongest]
    assert at.multiselect(key=view_ablation.ABLATE).value == [f"{a}.{b}" for a, b in heads]
    after = interventions.next_token_probs(smol, INDUCTION, ablate=heads)
    bars = chart(at, "across_ablation_after")["data"][0]
    np.testing.assert_allclose(bars["x"], after.topk(10).values, atol=1e-6)
    before = interventions.next_token_probs(smol, INDUCTION)
    kl = interventions.kl_divergence(before, after)
    text = " ".join(m.value for m in at.markdown)
    assert f"KL(before || after) = {kl:.4f}" in text and "**␣cat**" in text
    assert "open it in the [head view](Model_attention?model=smollm2" in text
    # A change of heads goes into the link; that link opens the same heads out.
    at.multiselect(key=view_ablation.ABLATE).unselect(f"{heads[0][0]}.{heads[0][1]}").run()
    kept = [f"{a}.{b}" for a, b in heads[1:]]
    assert at.query_params["out"] == ",".join(kept)
    linked = open_with(PAGE, {k: v for k, v in at.query_params.items()})
    assert linked.multiselect(key=view_ablation.ABLATE).value == kept
    assert "heads out: 4" in chart(linked, "across_ablation_after")["layout"]["title"]["text"]
    at.multiselect(key=view_ablation.ABLATE).set_value([]).run()
    assert at.query_params["out"] == "none"
    assert "heads out: 0" in chart(at, "across_ablation_after")["layout"]["title"]["text"]
    text = " ".join(m.value for m in at.markdown)  # no head out: the same first choice
    assert "it still says **␣cat**" in text and "now it says" not in text


def test_an_encoder_has_no_finder() -> None:
    at = show(open_page(PAGE), "finder")
    assert not at.exception and "run a causal language model" in texts_of(at)
