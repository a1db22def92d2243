"""The trained decomposable attention model: against a hand-written computation, against d2l's own
classes, padding, probabilities, scale, and the classifier over the real MiniLM."""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from attnviz import nli
from attnviz.nli.card import Card
from attnviz.nli.classifier import Classifier
from attnviz.nli.model import DecomposableAttentionModel, divisor
from attnviz.nli.vectors import static_embeddings

D, H = 5, 4


def small_model(scale="none", seed=0, dropout=0.0) -> DecomposableAttentionModel:
    torch.manual_seed(seed)
    return DecomposableAttentionModel(D, hidden=H, dropout=dropout, scale=scale).train(False)


def pair(la: int, lb: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    gen = torch.Generator().manual_seed(seed)
    return torch.randn(la, D, generator=gen), torch.randn(lb, D, generator=gen)


def by_hand(model: DecomposableAttentionModel, a: torch.Tensor, b: torch.Tensor, s: float):
    """Parikh et al.'s equations for one unpadded pair, token by token (no batching, no masks)."""

    def two_layers(net: nn.Sequential, x: list[float]) -> list[float]:
        for linear in (net[1], net[4]):
            w, bias = linear.weight.tolist(), linear.bias.tolist()
            x = [
                max(0.0, sum(wk * xk for wk, xk in zip(row, x, strict=True)) + bk)
                for row, bk in zip(w, bias, strict=True)
            ]
        return x

    A, B = a.tolist(), b.tolist()
    fa, fb = [two_layers(model.f, x) for x in A], [two_layers(model.f, x) for x in B]
    e = [[sum(p * q for p, q in zip(fi, fj, strict=True)) / s for fj in fb] for fi in fa]

    def soft(row: list[float]) -> list[float]:
        top = max(row)
        ex = [math.exp(v - top) for v in row]
        return [v / sum(ex) for v in ex]

    beta = []
    for i in range(len(A)):
        w = soft(e[i])
        beta.append([sum(w[j] * B[j][k] for j in range(len(B))) for k in range(D)])
    alpha = []
    for j in range(len(B)):
        w = soft([e[i][j] for i in range(len(A))])
        alpha.append([sum(w[i] * A[i][k] for i in range(len(A))) for k in range(D)])
    v1 = [two_layers(model.g, A[i] + beta[i]) for i in range(len(A))]
    v2 = [two_layers(model.g, B[j] + alpha[j]) for j in range(len(B))]
    va = [sum(v[k] for v in v1) for k in range(H)]
    vb = [sum(v[k] for v in v2) for k in range(H)]
    hidden = two_layers(model.h, va + vb)
    w, bias = model.out.weight.tolist(), model.out.bias.tolist()
    logits = [
        sum(wk * xk for wk, xk in zip(row, hidden, strict=True)) + bk
        for row, bk in zip(w, bias, strict=True)
    ]
    return torch.tensor(e), torch.tensor(logits)


@pytest.mark.parametrize("scale", ["none", "sqrt_d", 2.5])
def test_forward_matches_the_equations_by_hand(scale):
    model = small_model(scale)
    a, b = pair(3, 4, seed=1)
    e, logits = by_hand(model, a, b, divisor(scale, H))
    lens = torch.tensor([3]), torch.tensor([4])
    alignment, got = model.steps(a[None], b[None], *lens)
    torch.testing.assert_close(alignment.e[0], e, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(got[0], logits, rtol=1e-5, atol=1e-6)


def test_scale_divides_e_before_the_softmax():
    a, b = pair(3, 4, seed=2)
    lens = torch.tensor([3]), torch.tensor([4])
    plain = small_model("none").steps(a[None], b[None], *lens)[0]
    scaled = small_model("sqrt_d").steps(a[None], b[None], *lens)[0]
    torch.testing.assert_close(scaled.e, plain.e / math.sqrt(H))
    torch.testing.assert_close(scaled.weights_beta, torch.softmax(plain.e / 2.0, dim=-1))
    with pytest.raises(ValueError, match="temperature"):
        DecomposableAttentionModel(D, hidden=H, scale=0.0)
    with pytest.raises(ValueError, match="temperature"):
        DecomposableAttentionModel(D, hidden=H, scale="cube_root")


def test_padding_in_a_batch_equals_each_pair_alone():
    model = small_model("sqrt_d")
    sizes = [(2, 5), (4, 1), (3, 3)]
    pairs = [pair(la, lb, seed=10 + n) for n, (la, lb) in enumerate(sizes)]
    a = torch.nn.utils.rnn.pad_sequence([p[0] for p in pairs], batch_first=True)
    b = torch.nn.utils.rnn.pad_sequence([p[1] for p in pairs], batch_first=True)
    a[0, 2:] = 7.0  # padding holds anything: it must not count
    b[1, 1:] = -3.0
    lens_a = torch.tensor([la for la, _ in sizes])
    lens_b = torch.tensor([lb for _, lb in sizes])
    batched, logits = model.steps(a, b, lens_a, lens_b)
    for n, (la, lb) in enumerate(sizes):
        alone, one = model.steps(
            pairs[n][0][None], pairs[n][1][None], lens_a[n : n + 1], lens_b[n : n + 1]
        )
        torch.testing.assert_close(logits[n], one[0], rtol=1e-5, atol=1e-6)
        torch.testing.assert_close(batched.weights_beta[n, :la, :lb], alone.weights_beta[0])
        torch.testing.assert_close(batched.v_a[n], alone.v_a[0], rtol=1e-5, atol=1e-6)
        assert (batched.weights_beta[n, :la, lb:] == 0).all()  # no weight on padding


def test_forward_is_differentiable_in_the_embeddings():
    torch.manual_seed(0)
    model = DecomposableAttentionModel(D, hidden=32, dropout=0.0).train(False)  # no dead ReLUs
    a, b = pair(3, 2, seed=3)
    a.requires_grad_(True)
    logits = model(a[None], b[None], torch.tensor([3]), torch.tensor([2]))
    logits[0, 1].backward()
    assert a.grad is not None and a.grad.abs().sum() > 0


# d2l's classes, copied from d2l-en (chapter_natural-language-processing-applications/
# natural-language-inference-attention.md, the PyTorch tab; its sample-code licence), unchanged
# but for comments and super() without arguments. The d2l package cannot be installed here.
def mlp(num_inputs, num_hiddens, flatten):
    net = []
    net.append(nn.Dropout(0.2))
    net.append(nn.Linear(num_inputs, num_hiddens))
    net.append(nn.ReLU())
    if flatten:
        net.append(nn.Flatten(start_dim=1))
    net.append(nn.Dropout(0.2))
    net.append(nn.Linear(num_hiddens, num_hiddens))
    net.append(nn.ReLU())
    if flatten:
        net.append(nn.Flatten(start_dim=1))
    return nn.Sequential(*net)


class Attend(nn.Module):
    def __init__(self, num_inputs, num_hiddens, **kwargs):
        super().__init__(**kwargs)
        self.f = mlp(num_inputs, num_hiddens, flatten=False)

    def forward(self, A, B):
        f_A = self.f(A)
        f_B = self.f(B)
        e = torch.bmm(f_A, f_B.permute(0, 2, 1))
        beta = torch.bmm(F.softmax(e, dim=-1), B)
        alpha = torch.bmm(F.softmax(e.permute(0, 2, 1), dim=-1), A)
        return beta, alpha


class Compare(nn.Module):
    def __init__(self, num_inputs, num_hiddens, **kwargs):
        super().__init__(**kwargs)
        self.g = mlp(num_inputs, num_hiddens, flatten=False)

    def forward(self, A, B, beta, alpha):
        V_A = self.g(torch.cat([A, beta], dim=2))
        V_B = self.g(torch.cat([B, alpha], dim=2))
        return V_A, V_B


class Aggregate(nn.Module):
    def __init__(self, num_inputs, num_hiddens, num_outputs, **kwargs):
        super().__init__(**kwargs)
        self.h = mlp(num_inputs, num_hiddens, flatten=True)
        self.linear = nn.Linear(num_hiddens, num_outputs)

    def forward(self, V_A, V_B):
        V_A = V_A.sum(dim=1)
        V_B = V_B.sum(dim=1)
        Y_hat = self.linear(self.h(torch.cat([V_A, V_B], dim=1)))
        return Y_hat


D2L_ORDER = ("entailment", "contradiction", "neutral")  # d2l's read_snli label_set


def test_forward_matches_d2l_attend_compare_aggregate():
    model = small_model("none", seed=4)
    attend, compare, aggregate = Attend(D, H), Compare(2 * D, H), Aggregate(2 * H, H, 3)
    attend.f.load_state_dict(model.f.state_dict())
    compare.g.load_state_dict(model.g.state_dict())
    linears = {"1": "1", "4": "5"}  # d2l's h has a Flatten after each ReLU
    aggregate.h.load_state_dict(
        {
            f"{linears[k.split('.')[0]]}.{k.split('.')[1]}": v
            for k, v in model.h.state_dict().items()
        }
    )
    order = [nli.LABELS.index(label) for label in D2L_ORDER]  # d2l's row k is our row order[k]
    aggregate.linear.weight.data.copy_(model.out.weight[order])
    aggregate.linear.bias.data.copy_(model.out.bias[order])
    for module in (attend, compare, aggregate):
        module.train(False)
    gen = torch.Generator().manual_seed(5)
    a, b = torch.randn(6, 7, D, generator=gen), torch.randn(6, 3, D, generator=gen)  # unpadded
    beta, alpha = attend(a, b)
    ours, logits = model.steps(a, b, torch.full((6,), 7), torch.full((6,), 3))
    torch.testing.assert_close(ours.beta, beta)
    torch.testing.assert_close(ours.alpha, alpha)
    v_a, v_b = compare(a, b, beta, alpha)
    torch.testing.assert_close(ours.compare_a, v_a)
    torch.testing.assert_close(ours.compare_b, v_b)
    torch.testing.assert_close(logits[:, order], aggregate(v_a, v_b))


def test_train_mode_applies_dropout_and_eval_does_not():
    model = small_model(dropout=0.5)
    a, b = pair(3, 3, seed=6)
    lens = torch.tensor([3]), torch.tensor([3])
    first, second = model(a[None], b[None], *lens), model(a[None], b[None], *lens)
    torch.testing.assert_close(first, second)
    model.train(True)
    runs = [model(a[None], b[None], *lens) for _ in range(5)]
    assert any(not torch.equal(runs[0], r) for r in runs[1:])


def card(source="static", layer=None, **extra) -> Card:
    """A card with what a classifier reads of it: its token vectors (and `extra` fields)."""
    return Card.from_json({
        "format": "attnviz-nli/2", "labels": list(nli.LABELS), "scale": "none", "dropout": 0.0,
        "sizes": {"d": 384, "hidden": 8}, "embedding": {"source": source, "layer": layer},
        **extra,
    })  # fmt: skip


def test_classifier_probabilities_sum_to_one_in_label_order(encoder):
    torch.manual_seed(0)
    model = DecomposableAttentionModel(encoder.hidden_size, hidden=16, dropout=0.0, scale="sqrt_d")
    classifier = Classifier(model, card(), encoder)
    pairs = [("A man sleeps on a bench.", "A man is awake."), ("Dogs run.", "Animals move fast")]
    probabilities = classifier.predict(pairs)
    assert probabilities.shape == (2, len(nli.LABELS)) and probabilities.dtype == torch.float32
    torch.testing.assert_close(probabilities.sum(-1), torch.ones(2))
    _, a, lens_a = classifier.embed([p for p, _ in pairs])
    _, b, lens_b = classifier.embed([h for _, h in pairs])
    expected = torch.softmax(model(a, b, lens_a, lens_b), dim=-1)
    torch.testing.assert_close(probabilities, expected)
    one = classifier.predict(pairs[1:])  # alone, the second pair reads the same
    torch.testing.assert_close(one[0], probabilities[1], rtol=1e-5, atol=1e-6)
    assert nli.LABELS == ("entailment", "neutral", "contradiction")


def test_static_embeddings_are_the_word_rows_and_need_no_forward(encoder):
    tokens, rows, lens = static_embeddings(encoder, ["The cat sat", "a dog"])
    ids = encoder.tokenizer(["The cat sat", "a dog"], add_special_tokens=False)["input_ids"]
    table = encoder.model.get_input_embeddings().weight
    assert tokens == [["the", "cat", "sat"], ["a", "dog"]] and lens.tolist() == [3, 2]
    torch.testing.assert_close(rows[0], table[ids[0]].detach())
    torch.testing.assert_close(rows[1, :2], table[ids[1]].detach())
    assert (rows[1, 2:] == 0).all() and not rows.requires_grad


def test_contextual_classifier_reads_its_layer(encoder):
    torch.manual_seed(1)
    model = DecomposableAttentionModel(encoder.hidden_size, hidden=8, dropout=0.0)
    classifier = Classifier(model, card("contextual", 3), encoder)
    _, a, _ = classifier.embed(["I do need sleep"])
    enc = encoder.encode_batch(["I do need sleep"])[0]
    torch.testing.assert_close(a[0], enc.hidden_states[3][1:-1])


def test_the_cosine_attend_step_is_a_sharpened_cosine_without_F():
    torch.manual_seed(0)
    model = DecomposableAttentionModel(D, hidden=H, dropout=0.0, align="cosine").train(False)
    assert not hasattr(model, "f") and float(model.log_sharpness.exp()) == pytest.approx(20.0)
    a, b = pair(3, 4, seed=1)
    lens = torch.tensor([3]), torch.tensor([4])
    alignment, _ = model.steps(a[None], b[None], *lens)
    cosines = F.cosine_similarity(a[:, None, :], b[None, :, :], dim=-1)  # (3, 4)
    torch.testing.assert_close(alignment.e[0], 20.0 * cosines, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(alignment.weights_alpha[0], torch.softmax(20.0 * cosines.T, -1))
    # The same vector in both sentences aligns to itself, whatever its length.
    twice, _ = model.steps(a[None], (3 * a)[None], torch.tensor([3]), torch.tensor([3]))
    assert twice.weights_alpha[0].argmax(-1).tolist() == [0, 1, 2]


def test_pooled_features_reach_H_and_the_forward_stays_differentiable():
    torch.manual_seed(0)
    model = DecomposableAttentionModel(D, hidden=H, dropout=0.0, align="cosine", pooled=True)
    assert model.h[1].in_features == 2 * H + 2 * D  # [v_A; v_B; |u - v|; u * v]
    a, b = (x[None].requires_grad_(True) for x in pair(3, 2, seed=2))
    logits = model(a, b, torch.tensor([3]), torch.tensor([2]))
    logits[0, 0].backward()
    assert a.grad is not None and b.grad is not None and float(b.grad.abs().sum()) > 0
    with pytest.raises(ValueError, match="align must be one of mlp, cosine, residual"):
        DecomposableAttentionModel(D, align="dot")


def test_a_card_with_a_temperature_calibrates_predict_but_not_the_model(encoder):
    model = DecomposableAttentionModel(encoder.hidden_size, hidden=8, dropout=0.0)
    plain = Classifier(model, card(), encoder)
    calibrated = Classifier(model, card(calibration={"temperature": 2.5}), encoder)
    assert plain.temperature is None and calibrated.temperature == 2.5
    pairs = [("A man is sleeping.", "A man is asleep."), ("Two dogs run.", "A cat sits.")]
    _, a, lens_a = plain.embed([p for p, _ in pairs])
    _, b, lens_b = plain.embed([h for _, h in pairs])
    with torch.inference_mode():
        logits = model(a, b, lens_a, lens_b)
    torch.testing.assert_close(plain.predict(pairs), torch.softmax(logits, -1))
    torch.testing.assert_close(calibrated.predict(pairs), torch.softmax(logits / 2.5, -1))
