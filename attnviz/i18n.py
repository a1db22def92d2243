"""String catalogues, `t(key, **values)` and `Catalogue`: every string a person reads.

Each module of `attnviz.strings` holds one lesson's (or the shell's, the figures kit's, the
parsers') English `EN` and Korean `KO`, key for key; they are merged here, and a key defined
twice is an error. Keys are literal strings in the code, so `tests/test_i18n.py` can check that
each one exists. The current language lives in a ContextVar: Streamlit runs each script run in
its own thread, and `attnviz.app.page.setup` sets it at the top of every run. Figure builders
never read it: they take a `Catalogue`, the strings of one language, as an argument.

Korean is written for Korean students and teachers of machine learning, in the style of a
Korean ML textbook: 합니다/입니다 sentences for explanations, short noun phrases for labels,
buttons and axis titles; technical terms keep their English in parentheses where they first
appear. Placeholders, markdown, LaTeX and symbols are as in the English.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from contextvars import ContextVar
from dataclasses import dataclass

from attnviz import strings

DEFAULT_LANGUAGE = "en"
# Hangul's Unicode blocks (first, last code point): Jamo, Compatibility Jamo, Jamo Extended-A,
# the 11,172 syllables, Jamo Extended-B. The app's web font covers them (static/fonts/), so
# typed Hangul shows too; a PNG with any of them needs a Korean font on the server.
HANGUL_BLOCKS: tuple[tuple[int, int], ...] = (
    (0x1100, 0x11FF),
    (0x3130, 0x318F),
    (0xA960, 0xA97F),
    (0xAC00, 0xD7A3),
    (0xD7B0, 0xD7FF),
)
HANGUL = re.compile("[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in HANGUL_BLOCKS) + "]")


def _merged(name: str) -> dict[str, str]:
    """The `name` dicts (EN or KO) of every module of attnviz.strings, as one catalogue."""
    merged: dict[str, str] = {}
    for module in sorted(info.name for info in pkgutil.iter_modules(strings.__path__)):
        part: dict[str, str] = getattr(
            importlib.import_module(f"{strings.__name__}.{module}"), name
        )
        clash = merged.keys() & part.keys()
        if clash:
            raise KeyError(f"catalogue keys defined twice: {sorted(clash)}")
        merged.update(part)
    return merged


EN: dict[str, str] = _merged("EN")
KO: dict[str, str] = _merged("KO")
CATALOGUES: dict[str, dict[str, str]] = {"en": EN, "ko": KO}
LANGUAGES: tuple[str, ...] = tuple(CATALOGUES)

_language: ContextVar[str] = ContextVar("attnviz_language", default=DEFAULT_LANGUAGE)


def set_language(lang: str) -> str:
    """Make `lang` the language of `t` in this context; unknown languages fall back to English."""
    chosen = lang if lang in CATALOGUES else DEFAULT_LANGUAGE
    _language.set(chosen)
    return chosen


def get_language() -> str:
    """The language `t` uses in this context."""
    return _language.get()


@dataclass(frozen=True)
class Catalogue:
    """The strings of one language: `text(key, **values)` as `t` gives them.

    Figure builders take one, so they never depend on the current language, and a cached
    figure is cached per language (a Catalogue is hashable and equal by its language).
    """

    lang: str = DEFAULT_LANGUAGE

    def __call__(self, key: str, **values: object) -> str:
        """The string for `key`, formatted with `values`; English if this language lacks it."""
        template = CATALOGUES.get(self.lang, EN).get(key, EN.get(key))
        if template is None:
            raise KeyError(f"no string for key {key!r}")
        return template.format(**values) if values else template


def catalogue() -> Catalogue:
    """The strings of the current language."""
    return Catalogue(_language.get())


def t(key: str, **values: object) -> str:
    """The string for `key` in the current language, formatted with `values`; English if missing."""
    return Catalogue(_language.get())(key, **values)


@dataclass(frozen=True)
class Term:
    """A name inside a message (which prompt was empty), as a value of `t` or an InputError:
    formatted, it reads `key` in the language of the message, when the message is rendered."""

    key: str

    def __str__(self) -> str:
        return t(self.key)
