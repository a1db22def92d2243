"""The old path of `attnviz.transformer.models` (kept so code that imports it keeps working)."""

import sys

from attnviz.transformer import models

sys.modules[__name__] = models
