"""Kernel regression: Nadaraya-Watson as attention whose only parameter is a bandwidth."""

from attnviz.app import loading, page

page.setup("kernels")
with loading.lock():
    from attnviz.lessons.kernels import view
view.show()
