"""The landing page below its title: the idea in a picture, a tiny live example, the tour."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from attnviz.app import cache, controls, links, page
from attnviz.app.plot import plot
from attnviz.attention import AttentionResult, attend
from attnviz.figures.steps import step_figure
from attnviz.i18n import Catalogue, catalogue, t
from attnviz.inputs import PRESETS, QKV
from attnviz.lessons.home.figures import pipeline_figure

TEMPERATURE = controls.temperature_control("T", "home_temperature")
LINK: tuple[controls.Control, ...] = (TEMPERATURE,)


@cache.figures
def pipeline(text: Catalogue) -> go.Figure:
    """The picture, built once per language: it never changes."""
    return pipeline_figure(text)


def tiny_example() -> tuple[AttentionResult, QKV]:
    """The small preset, scaled dot-product, with a temperature slider."""
    qkv = PRESETS["small"].qkv()
    temperature = controls.slider(
        TEMPERATURE, t("controls.temperature"), help=t("controls.temperature.help")
    )
    return attend(qkv.queries, qkv.keys, qkv.values, temperature=temperature), qkv


def show() -> None:
    text = catalogue()
    plot(pipeline(text), key="home_pipeline")
    st.subheader(t("home.example_heading"))
    st.markdown(t("home.example_text"))
    links.restore_link(LINK, page="home")
    result, qkv = tiny_example()
    links.publish_link(LINK)
    weights = step_figure(
        result,
        qkv.values,
        "weights",
        query_labels=qkv.query_labels,
        key_labels=qkv.key_labels,
        text=text,
    )
    plot(weights, key="home_weights")
    st.subheader(t("home.tour_heading"))
    page.show_tour()
