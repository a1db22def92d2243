"""The across-layers lesson's numbers against independent computations: the similarity
against the encoder's own mean-pooled reading, the verdict against the classifier's own
probabilities, integrated gradients' completeness, the statistics against attnviz.head_stats."""

from __future__ import annotations

from dataclasses import replace

import pytest
import torch
from scipy.stats import spearmanr

from attnviz import head_stats, nli, saliency
from attnviz.app.cache import Kept
from attnviz.lessons.across import compute
from attnviz.rollout import attention_rollout

A, B = "A man is playing a guitar on stage.", "A person is performing music."


@pytest.fixture(scope="module")
def trained(encoder):
    return nli.load_classifier(encoder=encoder)


def test_statistics_are_head_stats_of_the_reading_in_the_pages_order(encoder):
    encoded = encoder.encode(A, B)
    stats = compute.head_statistics(encoded)
    assert list(stats) == list(compute.STATISTICS)
    attn = encoded.attentions
    torch.testing.assert_close(stats["entropy"], head_stats.entropy(attn))
    torch.testing.assert_close(
        stats["sep"], attn[..., [encoded.tokens.index("[SEP]"), -1]].sum(-1).mean(-1)
    )
    torch.testing.assert_close(stats["cls"], attn[..., 0].mean(-1))
    torch.testing.assert_close(stats["first"], stats["cls"])  # [CLS] is the first token
    torch.testing.assert_close(stats["previous"], head_stats.pattern_score(attn, "previous"))
    assert all(value.shape == (encoder.num_layers, encoder.num_heads) for value in stats.values())


def test_similarity_is_the_cosine_of_each_sentence_read_alone_and_mean_pooled(encoder):
    result = compute.token_saliency(encoder, A, B, steps=64)
    alone = [encoder.encode(A), encoder.encode(B)]  # token ids, not embeddings: another path
    pooled = [e.hidden_states[-1].mean(dim=0) for e in alone]
    expected = torch.nn.functional.cosine_similarity(*pooled, dim=0)
    assert result.value == pytest.approx(float(expected), abs=1e-5)
    assert result.tokens == alone[0].tokens + alone[1].tokens
    assert result.sentence == [0] * len(alone[0].tokens) + [1] * len(alone[1].tokens)
    # Each sentence's rollout from its own [CLS] row, beside the saliency.
    rollout = torch.cat([attention_rollout(e.attentions)[-1, 0] for e in alone])
    torch.testing.assert_close(result.rollout, rollout, atol=1e-5, rtol=1e-5)
    # Completeness: the attributions sum to the change from the baseline (zeros here).
    change = result.value - result.baseline_value
    assert float(result.integrated.sum()) == pytest.approx(change, rel=0.01)
    assert result.gradient_x_input.shape == result.integrated.shape == (len(result.tokens),)


def test_gradient_x_input_is_the_models_own_gradient(encoder):
    result = compute.token_saliency(encoder, A, B, steps=8)
    alone = [encoder.encode(A), encoder.encode(B)]
    rows = [e.input_embeddings.clone().requires_grad_(True) for e in alone]
    pooled = [encoder.model(inputs_embeds=r[None]).last_hidden_state[0].mean(dim=0) for r in rows]
    torch.nn.functional.cosine_similarity(*pooled, dim=0).backward()
    expected = torch.cat([(r * r.grad).sum(-1) for r in rows])
    torch.testing.assert_close(result.gradient_x_input, expected, atol=1e-6, rtol=1e-4)


def test_pad_baseline_keeps_the_specials_and_replaces_the_words(encoder):
    readings = encoder.encode_batch([A, B])
    rows = compute.baseline_rows(encoder, readings, "pad")
    pad = encoder.model.get_input_embeddings().weight[encoder.tokenizer.pad_token_id]
    special = [s for r in readings for s in r.special]
    words = torch.cat([r.input_embeddings for r in readings])
    for position, kept in enumerate(special):
        torch.testing.assert_close(rows[position], words[position] if kept else pad)
    assert compute.baseline_rows(encoder, readings, "zeros") is None
    with pytest.raises(ValueError, match="unknown baseline 'ones'"):
        compute.baseline_rows(encoder, readings, "ones")
    result = compute.token_saliency(encoder, A, B, baseline="pad", steps=64)
    change = result.value - result.baseline_value
    assert float(result.integrated.sum()) == pytest.approx(change, rel=0.01)


def test_verdict_is_the_classifiers_logit_of_its_predicted_label(encoder, trained):
    # 256 steps: the path from the zero baseline crosses MiniLM's layer norms near 0, where the
    # cosine attend step makes the verdict bend sharply (64 steps: 13% short, 256: 1%).
    result = compute.token_saliency(encoder, A, B, target="verdict", classifier=trained, steps=256)
    probabilities = trained.predict([(A, B)])[0]
    assert result.label == int(probabilities.argmax())
    readings = encoder.encode_batch([A, B])
    x = torch.cat([r.input_embeddings for r in readings])
    sizes = [len(r.tokens) for r in readings]
    with torch.no_grad():
        logits = compute.verdict_forward(trained, sizes)(x)
    # The logits are the model's own (uncalibrated); predict divides them by the card's T.
    torch.testing.assert_close(trained.probabilities(logits), probabilities, atol=1e-5, rtol=1e-4)
    assert result.value == pytest.approx(float(logits[result.label]), abs=1e-5)
    assert result.rollout is None  # the classifier's attention is the cross-alignment
    change = result.value - result.baseline_value
    assert float(result.integrated.sum()) == pytest.approx(change, rel=0.02)


def test_a_classifier_on_word_rows_reads_no_specials(encoder, trained):
    # The checkpoint's weights read as if trained on the static rows: the wiring, not a verdict.
    static = nli.Classifier(trained.model, replace(trained.card, source="static"), encoder)
    result = compute.token_saliency(encoder, A, B, target="verdict", classifier=static, steps=16)
    _, a, lens_a = static.embed([A])
    _, b, lens_b = static.embed([B])
    with torch.no_grad():
        logits = static.model(a, b, lens_a, lens_b)[0]
    assert result.value == pytest.approx(float(logits[result.label]), abs=1e-5)
    specials = torch.tensor(result.special)
    assert torch.all(result.gradient_x_input[specials] == 0)
    assert torch.all(result.gradient_x_input[~specials] != 0)


def test_verdict_needs_a_classifier_that_reads_the_words(encoder, trained):
    with pytest.raises(ValueError, match="needs a trained NLI classifier"):
        compute.token_saliency(encoder, A, B, target="verdict")
    with pytest.raises(ValueError, match="unknown target"):
        compute.token_saliency(encoder, A, B, target="loss")
    random = nli.Classifier(trained.model, replace(trained.card, source="random"), encoder)
    with pytest.raises(ValueError, match="no gradient reaches them"):
        compute.verdict_forward(random, [3, 3])


def test_spearman_and_the_correlations_reported():
    a, b = torch.tensor([0.1, 0.5, 0.2, 0.9]), torch.tensor([1.0, 3.0, -2.0, 4.0])
    assert compute.spearman(a, b) == pytest.approx(spearmanr(a, b).statistic)
    assert compute.spearman(a, -a) == pytest.approx(-1.0)
    assert torch.isnan(torch.tensor(compute.spearman(a, torch.ones(4))))
    result = compute.Saliency(
        tokens=list("abcd"), sentence=[0, 0, 1, 1], special=[False] * 4, target="similarity",
        label=None, value=1.0, baseline_value=0.0, gradient_x_input=b, integrated=-b, rollout=a,
    )  # fmt: skip
    found = compute.correlations(result)
    assert found["gxi_ig"] == pytest.approx(-1.0)
    # Rollout has no sign: it is ranked against the saliencies' sizes.
    assert found["rollout_gxi"] == pytest.approx(spearmanr(a, b.abs()).statistic)
    assert found["rollout_ig"] == found["rollout_gxi"]


def test_kept_results_are_shared_bounded_and_least_recently_used_out():
    kept = Kept(entries=2)
    calls = []

    def make(value):
        return lambda: calls.append(value) or value

    assert kept.get("a", make(1)) == 1 and kept.get("a", make(9)) == 1
    kept.get("b", make(2))
    kept.get("a", make(9))  # "a" is now the most recent
    kept.get("c", make(3))  # so "b" goes
    assert kept.get("b", make(4)) == 4 and kept.get("a", make(9)) == 9
    assert calls == [1, 2, 3, 4, 9]


def _result(gap: float) -> compute.Saliency:
    """A saliency whose integrated gradients miss the change 1.0 by `gap`."""
    return compute.Saliency(
        tokens=["a", "b"], sentence=[0, 0], special=[False, False], target="next", label=0,
        value=0.5, baseline_value=-0.5, gradient_x_input=torch.zeros(2),
        integrated=torch.tensor([0.5, 0.5 + gap]), rollout=torch.tensor([0.75, 0.25]),
    )  # fmt: skip


def test_the_steps_that_close_the_gap_are_measured_in_order():
    assert compute.step_ladder(32, (8, 16, 32, 64, 128, 256)) == [64, 128, 256, 512, 1024]
    assert compute.step_ladder(256, (8, 256)) == [512, 1024]
    assert compute.step_ladder(1024, (8, 256)) == []
    gaps = {64: 0.5, 128: 0.2, 256: 0.05, 512: 0.01}
    tried: list[int] = []
    shares: list[float] = []

    def attribute(steps, progress):
        tried.append(steps)
        progress(1.0)
        return _result(gaps[steps])

    found = compute.closing_steps(attribute, [64, 128, 256, 512], shares.append)
    assert found == (256, pytest.approx(0.05)) and tried == [64, 128, 256]
    assert shares == pytest.approx([64 / 960, 192 / 960, 448 / 960])
    assert compute.closing_steps(lambda s, p: _result(0.3), [64, 128]) is None


def test_hiding_the_first_token_renormalises_the_rest():
    attn = torch.softmax(torch.randn(3, 5, 5), dim=-1)
    hidden = compute.hide_first(attn)
    torch.testing.assert_close(hidden * attn[:, 1:, 1:].sum(-1, keepdim=True), attn[:, 1:, 1:])
    torch.testing.assert_close(hidden.sum(-1), torch.ones(3, 4))
    shown = compute.without_first(_result(0.0))
    assert shown.tokens == ["b"] and shown.rollout is not None and float(shown.rollout[0]) == 1
    assert compute.completeness_gap(_result(0.25)) == pytest.approx(0.25)


def test_a_decoders_path_read_in_batches_equals_a_point_at_a_time(smol):
    reading = smol.encode("I do need sleep", "I am tired")
    x = reading.input_embeddings.float()  # (T, d)
    assert reading.next_token_ids is not None
    forward = compute.next_token_forward(smol, int(reading.next_token_ids[-1, 0]))
    result = compute.next_token_saliency(smol, "I do need sleep", "I am tired", steps=8)
    one_by_one = saliency.integrated_gradients(forward, x, steps=8)
    torch.testing.assert_close(result.integrated, one_by_one, rtol=1e-3, atol=1e-3)
    with torch.no_grad():
        points = torch.stack([x, 0.5 * x])  # (2, T, d)
        torch.testing.assert_close(forward(points), torch.stack([forward(x), forward(0.5 * x)]))
