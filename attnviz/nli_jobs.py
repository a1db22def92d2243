"""The old path of `attnviz.nli.jobs` (kept so code that imports it keeps working)."""

import sys

from attnviz.nli import jobs

sys.modules[__name__] = jobs
