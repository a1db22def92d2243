"""attnviz landing page: the idea of attention, one picture, a tiny live example, the tour."""

import streamlit as st

from attnviz import ui
from attnviz.i18n import t

ui.page_setup("nav.home")
st.title(t("home.title"))
st.markdown(t("home.intro"))
ui.plot(ui.figures.pipeline_figure(), key="home_pipeline")

st.subheader(t("home.example_heading"))
st.markdown(t("home.example_text"))
ui.restore_link(ui.HOME_LINK, page="home")
result, qkv = ui.tiny_example()
ui.publish_link(ui.HOME_LINK)
ui.plot(ui.result_figures(result, qkv)["weights"], key="home_weights")

st.subheader(t("home.tour_heading"))
ui.show_tour()
