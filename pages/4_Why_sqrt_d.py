"""Why scale by sqrt(d): the variance of q·k, softmax saturation and vanishing gradients."""

from attnviz.app import loading, page

page.setup("sqrt_d")
with loading.lock():
    from attnviz.lessons.sqrt_d import view
view.show()
