"""NLI alignment: decomposable attention (attend, compare, aggregate) over MiniLM embeddings."""

import streamlit as st

from attnviz import ui
from attnviz.i18n import t

ui.page_setup("nli.title")
st.title(t("nli.title"))
st.markdown(t("nli.intro"))
ui.restore_link(ui.NLI_LINK, page="nli")

model = ui.encoder()
choice = ui.nli_controls(model.num_layers)
ui.publish_link(ui.NLI_LINK)
try:
    pairs, index = ui.nli_inputs()
    with st.spinner(t("model.computing")):
        result = ui.nli_result(model, tuple(pairs), choice)
except ValueError as err:
    ui.show_error(err)
    st.stop()

ui.show_nli_notes(result, index, pairs)
ui.show_nli_pair(result, index, choice, key="nli")

st.subheader(t("nli.compare_heading"))
ui.show_nli_compare(result, index, key="nli")

if len(pairs) > 1:
    ui.show_nli_batch(result, pairs, key="nli")
ui.share_panel(ui.NLI_LINK, key="nli")
