"""NLI alignment: decomposable attention (attend, compare, aggregate) over MiniLM embeddings."""

from attnviz.app import loading, page

page.setup("nli")
with loading.lock():
    from attnviz.lessons.nli import view
view.show()
