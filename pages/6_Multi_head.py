"""Multi-head self-attention over the tokens of a sentence, with sinusoidal positions."""

import streamlit as st

from attnviz import ui
from attnviz.i18n import t
from attnviz.ui import base

base.page_setup("nav.multihead")
st.title(t("multihead.title"))
st.markdown(t("multihead.intro"))
view = ui.multihead  # imports torch and plotly: only once the title is drawn
ui.restore_link(ui.MULTIHEAD_LINK, page="multihead")

choice = view.controls()
ui.publish_link(ui.MULTIHEAD_LINK)
try:
    computed = view.compute(choice)
except ValueError as err:
    base.show_error(err)
    st.stop()
figs = view.figures_for(choice)

view.show_truncation(computed)

st.subheader(t("multihead.inputs_heading"))
view.show_inputs(figs, choice.positional)

st.subheader(t("multihead.heads_heading"))
view.show_symmetry(computed, choice)
view.show_heads(figs, choice.heads)

st.subheader(t("multihead.output_heading"))
view.show_output(figs)

with st.expander(t("multihead.formula_heading"), expanded=True):
    view.show_formulas(computed)

st.subheader(t("multihead.downloads_heading"))
view.show_downloads(computed)
ui.share_panel(ui.MULTIHEAD_LINK, key="mh")
