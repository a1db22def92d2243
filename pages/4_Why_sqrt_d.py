"""Why scale by sqrt(d): the variance of q·k, softmax saturation and vanishing gradients."""

import streamlit as st

from attnviz import ui
from attnviz.i18n import t
from attnviz.ui import base

base.page_setup("nav.sqrt_d")
st.title(t("sqrt_d.title"))
st.markdown(t("sqrt_d.intro"))
view = ui.sqrt_d  # imports torch and plotly: only once the title is drawn
ui.restore_link(ui.SQRT_D_LINK, page="sqrt_d")

choice = view.controls()
ui.publish_link(ui.SQRT_D_LINK)
try:
    result = view.compute(choice)
except ValueError as err:
    base.show_error(err)
    st.stop()

st.subheader(t("sqrt_d.variance.heading"))
view.show_variance(result)

st.subheader(t("sqrt_d.saturation.heading"))
view.show_saturation(result)

st.subheader(t("sqrt_d.gradient.heading"))
view.show_gradient(result)
