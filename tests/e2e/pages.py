"""The pages the browser sweeps visit, from `attnviz.lessons.lessons()`: every lesson's page at
its defaults, so a new page is swept without being added to each sweep by hand. Its one entry
here is the number of charts it draws at its defaults (the sweeps wait for them);
tests/app/test_page.py fails for a lesson without one.
"""

from __future__ import annotations

from attnviz.lessons import HOME_SCRIPT, Lesson, lessons

CHARTS = {  # lesson -> charts its page draws at its defaults
    "home": 2,
    "playground": 2,
    "masking": 5,
    "additive": 4,
    "sqrt_d": 4,
    "kernels": 4,
    "multihead": 3,
    "nli": 3,
    "model": 3,
    "train_nli": 0,
    "across": 3,
    "generation": 0,
    "patching": 0,
}


def url_path(lesson: Lesson) -> str:
    """The page's path in the app: "" for the landing page, else the script's name after its
    number ("pages/7_NLI_alignment.py" -> "NLI_alignment")."""
    if lesson.script == HOME_SCRIPT:
        return ""
    return lesson.script.removeprefix("pages/").removesuffix(".py").split("_", 1)[1]


def default_pages() -> list[tuple[str, int]]:
    """(path, charts) of every lesson's page at its defaults, in the sidebar's order."""
    return [(url_path(lesson), CHARTS[lesson.name]) for lesson in lessons()]
