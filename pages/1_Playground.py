"""Playground: queries, keys and values in; raw scores, masks, weights and outputs out."""

import streamlit as st

from attnviz import ui
from attnviz.i18n import t

ui.page_setup("playground.title")
st.title(t("playground.title"))
st.markdown(t("playground.intro"))
ui.restore_link(ui.PLAYGROUND_LINK, page="playground")

qkv = ui.qkv_input()
# The sidebar stays while an input is being fixed.
choice = ui.attention_controls(*ui.sizes(qkv))
ui.publish_link(ui.PLAYGROUND_LINK)
if qkv is None:
    st.stop()
try:
    result = ui.compute(qkv, choice)
except ValueError as err:
    ui.show_error(err)
    st.stop()

ui.show_row_check(result, choice.fill_value)

st.subheader(t("playground.steps_heading"))
ui.show_steps(result, qkv, key="pg", query_key=ui.QUERY, key_key=ui.KEY)

st.subheader(t("playground.breakdown_heading"))
query = ui.query_selector(qkv.query_labels, key=ui.QUERY, key_key=ui.KEY, m=len(qkv.key_labels))
ui.show_selected_cell(result, qkv, query, key_key=ui.KEY)
ui.show_breakdown(result, qkv, query, key="pg")

with st.expander(t("playground.formula_heading"), expanded=True):
    ui.show_formulas(result, qkv, choice)

st.subheader(t("playground.downloads_heading"))
ui.show_downloads(result, qkv, key="pg")
ui.share_panel(ui.PLAYGROUND_LINK, key="pg")
