"""`python -m attnviz` is the `attnviz` command (attnviz.cli)."""

import sys

from attnviz.cli import main

sys.exit(main())
