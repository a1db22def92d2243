"""Multi-head self-attention over the tokens of a sentence, with sinusoidal positions."""

from attnviz.app import loading, page

page.setup("multihead")
with loading.lock():
    from attnviz.lessons.multihead import view
view.show()
