"""The shared Streamlit shell: every page's setup, the widgets and views lessons share.

Only this package, the lessons' `view.py` modules and the page scripts import Streamlit.
Modules here import nothing heavy at their top unless a page needs it after its title:
`page` and `loading` are light (a page draws its title through them before torch, pandas or
plotly load); the others are imported with a lesson's view, under `loading.lock()`.
"""
