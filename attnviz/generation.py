"""The public path of `attnviz.transformer.generation`: the same module."""

import sys

from attnviz.transformer import generation

sys.modules[__name__] = generation
