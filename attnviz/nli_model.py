"""The old path of `attnviz.nli.model` (kept so code that imports it keeps working)."""

import sys

from attnviz.nli import model

sys.modules[__name__] = model
