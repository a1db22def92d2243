"""Where the app's files are: beside the package in a checkout, inside it once installed.

A checkout keeps `dashboard.py`, `pages/`, `.streamlit/` and `data/` at its top level, beside
`attnviz/` (ARCHITECTURE.md's layout). The wheel carries the same files as
`attnviz/_shipped/...`, mapped there at build time (pyproject.toml's `force-include`), so there
is one copy of each in the repository and one name for it here.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
SHIPPED = PACKAGE / "_shipped"  # only in an installed wheel
APP_ROOT = SHIPPED if (SHIPPED / "dashboard.py").is_file() else PACKAGE.parent
DASHBOARD = APP_ROOT / "dashboard.py"
STREAMLIT_CONFIG = APP_ROOT / ".streamlit" / "config.toml"
DATA = APP_ROOT / "data"
