"""attnviz landing page: the idea of attention, one picture, a tiny live example, the tour."""

from attnviz.app import loading, page

page.setup("home")
with loading.lock():
    from attnviz.lessons.home import view
view.show()
