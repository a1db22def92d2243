"""Playground: queries, keys and values in; raw scores, masks, weights and outputs out."""

from attnviz.app import loading, page

page.setup("playground")
with loading.lock():
    from attnviz.lessons.playground import view
view.show()
