"""Kernel regression: Nadaraya-Watson as attention whose only parameter is a bandwidth."""

import streamlit as st

from attnviz import ui
from attnviz.i18n import t
from attnviz.ui import base

base.page_setup("nav.kernels")
st.title(t("kernels.title"))
st.markdown(t("kernels.intro"))
view = ui.kernels  # imports torch and plotly: only once the title is drawn
ui.restore_link(ui.KERNELS_LINK, page="kernels")

choice = view.controls()
ui.publish_link(ui.KERNELS_LINK)
try:
    data = view.data(choice.n_train, choice.seed, choice.noise)
    result = view.regression(choice)
except ValueError as err:
    base.show_error(err)
    st.stop()
st.caption(view.data_note(choice))

with st.expander(t("kernels.formula_heading"), expanded=True):
    probe = view.show_formula(choice, data)

left, right = st.columns(2)
with left:
    base.plot(view.fit_figure(choice, data, result, probe), view.FIG_FIT)
with right:
    base.plot(view.weights_figure(choice, data, result), view.FIG_WEIGHTS)
view.show_checks(choice, result)

st.subheader(t("kernels.learned_heading"))
view.show_learned(choice, data)
