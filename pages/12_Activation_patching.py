"""Activation patching: which heads and positions carry a causal language model's answer."""

from attnviz.app import loading, page

page.setup("patching")
with loading.lock():
    from attnviz.lessons.patching import view
view.show()
