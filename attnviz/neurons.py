"""The old path of `attnviz.transformer.neurons` (kept so code that imports it keeps working)."""

import sys

from attnviz.transformer import neurons

sys.modules[__name__] = neurons
