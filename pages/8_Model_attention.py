"""Model attention: the real heads of all-MiniLM-L6-v2 reading a sentence or a pair."""

from attnviz.app import loading, page

page.setup("model")
with loading.lock():
    from attnviz.lessons.model import view
view.show()
