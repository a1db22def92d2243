"""Additive attention (Bahdanau et al. 2015): a learned score for queries and keys of any sizes."""

from attnviz.app import loading, page

page.setup("additive")
with loading.lock():
    from attnviz.lessons.additive import view
view.show()
