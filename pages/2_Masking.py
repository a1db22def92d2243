"""Masking: a padded batch with valid lengths, causal and hand-picked masks, the fill value."""

import streamlit as st

from attnviz import ui
from attnviz.i18n import t
from attnviz.ui import base

base.page_setup("nav.masking")
st.title(t("masking.title"))
st.markdown(t("masking.intro"))
view = ui.masking  # imports torch and plotly: only once the title is drawn
ui.restore_link(ui.MASKING_LINK, page="masking")

choice = view.controls()
ui.publish_link(ui.MASKING_LINK)
try:
    lens, result = view.compute_choice(choice)
except ValueError as err:
    base.show_error(err)
    st.stop()

with st.expander(t("masking.formula_heading"), expanded=True):
    view.show_formula(choice, lens)

st.subheader(t("masking.batch_heading"))
view.show_batch(choice, lens, result)

st.subheader(t("masking.steps_heading", seq=choice.seq))
view.show_row_check(choice, result)
view.show_steps(result, choice.seq, int(lens[choice.seq]))
