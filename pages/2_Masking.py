"""Masking: a padded batch with valid lengths, causal and hand-picked masks, the fill value."""

from attnviz.app import loading, page

page.setup("masking")
with loading.lock():
    from attnviz.lessons.masking import view
view.show()
