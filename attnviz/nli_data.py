"""The old path of `attnviz.nli.data` (kept so code that imports it keeps working)."""

import sys

from attnviz.nli import data

sys.modules[__name__] = data
