"""Generation: a causal language model writing text, step by step."""

from attnviz.app import loading, page

page.setup("generation")
with loading.lock():
    from attnviz.lessons.generation import view
view.show()
