"""Train NLI: the decomposable attention model trained in the browser, in a worker process."""

from attnviz.app import loading, page

page.setup("train_nli")
with loading.lock():
    from attnviz.lessons.train_nli import view
view.show()
