"""The old path of the NLI trainer: `attnviz.nli.store`, `attnviz.nli.training` and
`attnviz.nli.cli` in one namespace (kept so code that imports it keeps working)."""

import sys

from attnviz.nli.cli import main, run
from attnviz.nli.store import *  # noqa: F403
from attnviz.nli.training import *  # noqa: F403

__all__ = ["main", "run"]

if __name__ == "__main__":
    sys.exit(main())
