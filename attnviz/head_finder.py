"""The public path of `attnviz.transformer.head_finder`: the same module."""

import sys

from attnviz.transformer import head_finder

sys.modules[__name__] = head_finder
