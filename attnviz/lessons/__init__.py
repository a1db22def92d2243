"""The lessons: one folder a page, each in the same shape.

`<name>/__init__.py` declares the lesson (`LESSON`: its page script, sidebar icon and the
catalogue keys of its title, intro and tour line) and imports nothing else, so the sidebar can
list every lesson before any of them is loaded. `<name>/view.py` is the lesson's only
Streamlit module: `show()` draws the page below its title. `compute.py` (pure: tensors and
data, no Streamlit, no Plotly) and `figures.py` (Plotly builders, no Streamlit) are there where
the lesson needs its own. Its strings are `attnviz/strings/<name>.py`.

A page whose view outgrows one module has a folder for each part beside its own,
`<name>_<part>/` (`model_heads`, `across_finder`): its `__init__.py` declares no LESSON and its
only module is `view.py`, which the page's `view.py` composes. So a lesson's Streamlit code is
always in a `view.py`.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from dataclasses import dataclass

HOME_SCRIPT = "dashboard.py"
_NUMBER = re.compile(r"pages/(\d+)_")


@dataclass(frozen=True)
class Lesson:
    """A page of the app: its script (relative to the app's root) and the keys of its words."""

    name: str  # its folder under attnviz/lessons
    script: str
    icon: str
    nav: str  # catalogue keys: the sidebar's and the browser tab's title,
    title: str  # the page's title,
    intro: str  # the paragraph under it,
    tour: str = ""  # and its line on the landing page ("" for the landing page itself)

    @property
    def order(self) -> int:
        """0 for the landing page, else the number its script name starts with."""
        if self.script == HOME_SCRIPT:
            return 0
        found = _NUMBER.match(self.script)
        if found is None:
            raise ValueError(f"{self.script}: a page's script is pages/<number>_<Name>.py")
        return int(found.group(1))


def lessons() -> tuple[Lesson, ...]:
    """Every lesson of this package, the landing page first, then by page number."""
    packages = [
        importlib.import_module(f"{__name__}.{info.name}")
        for info in pkgutil.iter_modules(__path__)
        if info.ispkg
    ]
    found = [package.LESSON for package in packages if hasattr(package, "LESSON")]
    return tuple(sorted(found, key=lambda lesson: lesson.order))
