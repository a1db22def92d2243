"""The Hangul web font: the files static/fonts/ holds, the faces .streamlit/config.toml declares
for them, and the strings they must cover (tests/e2e/test_hangul_font_browser.py draws them)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from attnviz.figures.style import FONT_FAMILY
from attnviz.i18n import EN, KO
from scripts.make_hangul_font import (
    FAMILY,
    FONTS,
    LATIN_END,
    URL,
    switch_characters,
    unicode_range,
)

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
FACES = CONFIG["theme"]["fontFaces"]


def parse_range(text: str) -> set[int]:
    """A CSS unicode-range ("U+AC00-D7A3, U+1100") as its code points."""
    points: set[int] = set()
    for part in text.split(","):
        first, _, last = part.strip().removeprefix("U+").partition("-")
        points |= set(range(int(first, 16), int(last or first, 16) + 1))
    return points


def font_of(face: dict[str, str]) -> TTFont:
    return TTFont(FONTS / face["url"].rpartition("/")[2])


def mapped(face: dict[str, str]) -> set[int]:
    """The code points the face's file maps to a glyph."""
    with font_of(face) as font:
        return set(font.getBestCmap())


@pytest.mark.parametrize("face", FACES, ids=[face["url"] for face in FACES])
def test_each_face_is_a_file_of_the_family_covering_exactly_its_range(face):
    assert face["family"] == FAMILY and face["url"].startswith(f"{URL}/")
    with font_of(face) as font:
        assert font.flavor == "woff2"
        assert font["name"].getDebugName(1) == FAMILY  # the name Chromium reports
        points = set(font.getBestCmap())
    assert face["unicodeRange"] == unicode_range(points)  # as the script prints it
    assert parse_range(face["unicodeRange"]) == points


def test_the_faces_cover_hangul_once_each():
    small, large = (mapped(face) for face in FACES)
    assert not small & large
    hangul = small | large
    assert set(range(0xAC00, 0xD7A4)) <= hangul  # all 11,172 syllables
    assert set(range(0x1100, 0x1200)) | set(range(0x3131, 0x318F)) <= hangul  # the jamo
    assert (FONTS / "OFL.txt").read_text().count("SIL OPEN FONT LICENSE Version 1.1") == 1


def test_english_pages_need_only_the_small_file():
    small = mapped(FACES[0])
    assert switch_characters() == small == {ord(c) for c in "언어한국"}


def test_every_character_only_korean_strings_use_is_in_the_font():
    english = {c for value in EN.values() for c in value}
    korean = {c for value in KO.values() for c in value if ord(c) > LATIN_END}
    hangul = set().union(*(mapped(face) for face in FACES))
    assert {ord(c) for c in korean - english} <= hangul


def test_the_page_and_the_charts_fall_back_to_the_family():
    assert CONFIG["server"]["enableStaticServing"] is True
    for option in ("font", "codeFont"):
        first, fallback = (name.strip() for name in CONFIG["theme"][option].split(","))
        assert first in ('"Source Sans"', '"Source Code Pro"') and fallback == FAMILY
    assert FONT_FAMILY.endswith(f", {FAMILY}")
