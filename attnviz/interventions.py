"""The public path of `attnviz.transformer.interventions`: the same module."""

import sys

from attnviz.transformer import interventions

sys.modules[__name__] = interventions
