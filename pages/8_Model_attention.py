"""Model attention: the real heads of all-MiniLM-L6-v2 reading a sentence or a pair."""

import streamlit as st

from attnviz import ui
from attnviz.i18n import t

ui.page_setup("model.title")
st.title(t("model.title"))
st.markdown(t("model.intro"))
ui.restore_link(ui.MODEL_LINK, page="model")

model = ui.encoder()
ui.publish_link(ui.MODEL_LINK)
try:
    text_a, text_b = ui.model_inputs()
    choice = ui.model_controls(model.num_layers, model.num_heads, is_pair=text_b is not None)
    with st.spinner(t("model.computing")):
        encoded = ui.encode_pair(model, text_a, text_b)
except ValueError as err:
    ui.show_error(err)
    st.stop()

ui.show_model(encoded, choice, key="view")
ui.share_panel(ui.MODEL_LINK, key="model")
