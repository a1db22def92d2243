"""Additive attention (Bahdanau et al. 2015): a learned score for queries and keys of any sizes."""

import streamlit as st

from attnviz import ui
from attnviz.i18n import t
from attnviz.ui import base

base.page_setup("nav.additive")
st.title(t("additive.title"))
st.markdown(t("additive.intro"))
view = ui.additive  # imports torch and plotly: only once the title is drawn
ui.restore_link(ui.ADDITIVE_LINK, page="additive")

sizes = view.size_controls()
with st.expander(t("additive.formula_heading"), expanded=True):
    for line in view.formula_lines(sizes):
        st.latex(line)

params = view.param_editors(sizes)
ui.publish_link(ui.ADDITIVE_LINK)
if params is None:
    st.stop()
try:
    results = view.compute(sizes, params)
except ValueError as err:
    base.show_error(err)
    st.stop()

st.subheader(t("additive.inputs_heading"))
view.show_inputs(results)

st.subheader(t("additive.projection_heading"))
st.markdown(t("additive.projection_text", d_q=sizes.d_q, d_k=sizes.d_k, h=sizes.h))
view.show_projections(results)

st.subheader(t("additive.features_heading"))
st.markdown(t("additive.features_text"))
query = view.query_selector(sizes.n)
view.show_features(results, query)

st.subheader(t("additive.compare_heading"))
st.markdown(t("additive.compare_text"))
view.show_comparison(results)
ui.share_panel(ui.ADDITIVE_LINK, key="ad")
