"""Across layers: rollout and flow, head statistics and saliency beside attention."""

from attnviz.app import loading, page

page.setup("across")
with loading.lock():
    from attnviz.lessons.across import view
view.show()
