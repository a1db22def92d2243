"""The old path of `attnviz.nli.checkpoint` (kept so code that imports it keeps working)."""

import sys

from attnviz.nli import checkpoint

sys.modules[__name__] = checkpoint
