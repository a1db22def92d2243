"""The across-layers page through AppTest, with the real model: every view's charts hold the
backend's numbers for the typed pair."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from attnviz import i18n, nli
from attnviz.lessons.across import view as across
from attnviz.lessons.across.compute import STATISTICS, head_statistics, spearman
from attnviz.lessons.across_heads import view as view_heads
from attnviz.lessons.across_rollout import view as view_rollout
from attnviz.lessons.across_saliency import view as view_saliency
from attnviz.rollout import attention_flow, attention_rollout
from tests.apptest import chart, open_page, texts_of, z_of
from tests.plotly_data import decode
from tests.test_korean import open_in

PAGE = "pages/10_Across_layers.py"
A, B = "I do need sleep", "I am tired"


def bars(at, key: str) -> dict[str, np.ndarray]:
    return {trace["name"]: decode(trace["y"]) for trace in chart(at, key)["data"]}


def show(at, view: str):
    return at.segmented_control(key=across.VIEW.key).set_value(view).run()


def test_rollout_view_is_the_rollout_of_the_pair(encoder):
    at = open_page(PAGE)
    rollout = attention_rollout(encoder.encode(A, B).attentions)  # (6, 10, 10)
    np.testing.assert_allclose(z_of(at, "across_rollout"), rollout[5], atol=1e-5)
    np.testing.assert_allclose(z_of(at, "across_by_layer"), rollout[:, 0], atol=1e-5)
    shown = bars(at, "across_row_bars")
    np.testing.assert_allclose(shown["rollout"], rollout[5, 0], atol=1e-5)
    raw = encoder.encode(A, B).attentions[5].mean(dim=0)[0]
    np.testing.assert_allclose(shown["raw attention (heads' mean)"], raw, atol=1e-5)
    assert at.selectbox(key=view_rollout.LAYER.key).value == view_rollout.ALL_LAYERS
    # Max over heads, through layer 2, the row of "sleep": the link carries all three.
    at.selectbox(key=view_rollout.FUSION.key).set_value("max").run()
    at.selectbox(key=view_rollout.LAYER.key).set_value(2).run()
    at.selectbox(key=view_rollout.ROW.key).set_value(4).run()
    rollout = attention_rollout(encoder.encode(A, B).attentions, "max")
    np.testing.assert_allclose(z_of(at, "across_rollout"), rollout[2], atol=1e-5)
    np.testing.assert_allclose(bars(at, "across_row_bars")["rollout"], rollout[2, 4], atol=1e-5)
    np.testing.assert_allclose(z_of(at, "across_by_layer"), rollout[:, 4], atol=1e-5)
    assert chart(at, "across_rollout")["layout"]["title"]["text"] == "Rollout through layers 0–2"
    assert {k: at.query_params[k] for k in ("fusion", "layer", "row")} == {
        "fusion": "max", "layer": "2", "row": "4"
    }  # fmt: skip


def test_flow_view_is_the_flow_of_the_pair_and_long_inputs_get_a_message(encoder):
    at = show(open_page(PAGE), "flow")
    assert not at.exception
    attn = encoder.encode(A, B).attentions
    flow = attention_flow(attn)
    np.testing.assert_allclose(z_of(at, "across_flow"), flow, atol=1e-6)
    shown = bars(at, "across_flow_row")
    np.testing.assert_allclose(shown["flow"], flow[0], atol=1e-6)
    np.testing.assert_allclose(shown["rollout"], attention_rollout(attn)[5, 0], atol=1e-5)
    rho = spearman(flow[0], attention_rollout(attn)[5, 0])
    assert f"flow and rollout: {rho:+.2f}" in " ".join(c.value for c in at.caption)
    at.text_area(key=across.SENTENCE_A.key).input(" ".join(["word"] * 30)).run()
    assert not at.exception
    assert "takes at most 24" in texts_of(at) and "has 36 tokens" in texts_of(at)
    assert not [c for c in at.get("plotly_chart") if c.proto.id.endswith("-across_flow")]


def test_head_statistics_grids_and_the_enlarged_head(encoder):
    at = show(open_page(PAGE), "heads")
    encoded = encoder.encode(A, B)
    stats = head_statistics(encoded)
    for name in STATISTICS:
        grid = chart(at, f"across_stat_{name}")
        np.testing.assert_allclose(decode(grid["data"][0]["z"]), stats[name], atol=1e-5)
        assert grid["data"][-1]["name"] == "cells"  # a click reports its (layer, head)
    np.testing.assert_allclose(z_of(at, "across_head_view"), encoded.attentions[0, 0], atol=1e-5)
    # What a click on the [SEP] grid's cell (3, 5) stores (attnviz.app.selection.store_click).
    at.session_state[view_heads.HEAD_LAYER.key] = 3
    at.session_state[view_heads.HEAD.key] = 5
    at.run()
    np.testing.assert_allclose(z_of(at, "across_head_view"), encoded.attentions[3, 5], atol=1e-5)
    assert chart(at, "across_head_view")["layout"]["title"]["text"] == "Layer 3, head 5"
    frame = at.dataframe[0].value
    assert list(frame["value"]) == pytest.approx([float(stats[n][3, 5]) for n in STATISTICS])
    sep_rank = int((stats["sep"].flatten() > stats["sep"][3, 5]).sum()) + 1
    assert frame["rank (largest first)"][4] == f"{sep_rank} / 72"
    assert at.query_params["hlayer"] == "3" and at.query_params["head"] == "5"


def test_saliency_of_the_similarity_beside_rollout(encoder):
    at = show(open_page(PAGE), "saliency")
    assert not at.exception
    alone = [encoder.encode(A), encoder.encode(B)]
    pooled = [e.hidden_states[-1].mean(dim=0) for e in alone]
    cosine = float(torch.nn.functional.cosine_similarity(*pooled, dim=0))
    assert f"each mean-pooled: **{cosine:.4f}**" in " ".join(m.value for m in at.markdown)
    shown = bars(at, "across_saliency")
    rollout = torch.cat([attention_rollout(e.attentions)[-1, 0] for e in alone])
    np.testing.assert_allclose(shown["rollout from its [CLS]"], rollout, atol=1e-5)
    ig = shown["integrated gradients"]
    note = next(c.value for c in at.caption if c.value.startswith("Completeness"))
    assert f"sum to {ig.sum():.4f}" in note
    rho = at.dataframe[0].value
    expected = spearman(torch.as_tensor(rollout), torch.as_tensor(ig).abs())
    assert rho["ρ"][2] == f"{expected:+.2f}"
    tokens = at.dataframe[1].value
    assert list(tokens["token"]) == alone[0].tokens + alone[1].tokens
    # 8 steps and the [PAD] baseline: new numbers, still complete to a few percent.
    at.select_slider(key=view_saliency.STEPS.key).set_value(8).run()
    at.selectbox(key=view_saliency.BASELINE.key).set_value("pad").run()
    assert not at.exception
    assert not np.allclose(bars(at, "across_saliency")["integrated gradients"], ig)
    assert at.query_params["steps"] == "8" and at.query_params["baseline"] == "pad"


def test_saliency_of_the_verdict_names_the_classifiers_label(encoder):
    at = show(open_page(PAGE), "saliency")
    at.selectbox(key=view_saliency.TARGET.key).set_value("verdict").run()
    assert not at.exception
    trained = nli.load_classifier(encoder=encoder)
    label = nli.LABELS[int(trained.predict([(A, B)])[0].argmax())]
    assert f"predicts **{label}**" in " ".join(m.value for m in at.markdown)
    shown = bars(at, "across_saliency")
    assert set(shown) == {"gradient × input", "integrated gradients"}  # saliency only


def test_saliency_needs_sentence_b_and_bad_input_is_a_message():
    at = show(open_page(PAGE), "saliency")
    at.text_area(key=across.SENTENCE_B.key).input("").run()
    assert not at.exception and "type a sentence B" in texts_of(at)
    at.text_area(key=across.SENTENCE_A.key).input("   ").run()
    assert not at.exception and "is empty" in at.error[0].value
    assert at.text_area(key=across.SENTENCE_A.key).value == "   "  # what was typed is kept


def test_the_page_in_korean():
    try:
        at = open_in(PAGE, "ko")
        assert at.title[0].value == "층과 헤드를 가로질러"
        title = chart(at, "across_rollout")["layout"]["title"]["text"]
        assert title == "층 0–5을 거친 롤아웃"
        at = show(at, "heads")
        assert chart(at, "across_stat_sep")["layout"]["title"]["text"] == "[SEP]이 받는 몫"
    finally:
        i18n.set_language("en")
