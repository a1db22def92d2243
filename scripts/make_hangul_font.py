"""Make the app's Hangul web fonts: two subsets of Noto Sans CJK KR Regular, as WOFF2.

    python -m scripts.make_hangul_font [--source FILE]

The source is Debian's fonts-noto-cjk (SIL Open Font License 1.1). It writes, under
static/fonts/:
- attnviz-hangul-switch.woff2: the Hangul that English pages show too (the language switch's
  "언어" and "한국어"), a few kilobytes;
- attnviz-hangul.woff2: the rest of Hangul (every syllable and jamo the face has) and any other
  character that only the Korean strings use.
Both are named FAMILY inside, and their unicode-ranges do not overlap, so an English page loads
only the small file. It prints the two [[theme.fontFaces]] tables of .streamlit/config.toml
(tests/test_hangul_font.py checks that they match the files). The same source gives the same
bytes. Needs fontTools and brotli (requirements-dev.txt).
"""

from __future__ import annotations

import argparse
import io
from collections.abc import Iterable
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

from attnviz.app.page import LANGUAGE_NAMES
from attnviz.i18n import EN, HANGUL, HANGUL_BLOCKS, KO

ROOT = Path(__file__).resolve().parent.parent
SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
SOURCE_FACE = "Noto Sans CJK KR"  # the collection's Korean face (its glyph forms are Korean)
FAMILY = "attnviz-hangul"  # the CSS family and the name inside both files
FONTS = ROOT / "static" / "fonts"
URL = "app/static/fonts"  # where Streamlit serves static/ (server.enableStaticServing)
LATIN_END = 0x024F  # Basic Latin to Latin Extended-B: Streamlit's Source Sans draws these
# Name records kept: copyright, family, style, unique id, full name, version, PostScript name,
# licence, licence URL (the subsetter's default keeps only 0-6).
NAME_IDS = [0, 1, 2, 3, 4, 5, 6, 13, 14]
RENAMED = (1, 4, 6)  # family, full name, PostScript name: FAMILY, not the source's names


def switch_characters() -> set[int]:
    """The Hangul an English page shows: the English strings' and the language names'."""
    text = "".join(EN.values()) + "".join(LANGUAGE_NAMES.values())
    return {ord(c) for c in HANGUL.findall(text)}


def korean_characters() -> set[int]:
    """Every Hangul code point, and the characters beyond Latin only the Korean strings use."""
    hangul = {c for first, last in HANGUL_BLOCKS for c in range(first, last + 1)}
    english = {ord(c) for c in "".join(EN.values())}
    korean = {ord(c) for c in "".join(KO.values()) if ord(c) > LATIN_END}
    return hangul | (korean - english)


def source_font(path: Path) -> TTFont:
    """The collection's SOURCE_FACE, its head timestamp kept as it is (same bytes every run)."""
    for number, face in enumerate(TTCollection(path, lazy=True).fonts):
        if face["name"].getDebugName(1) == SOURCE_FACE:
            return TTFont(path, fontNumber=number, recalcTimestamp=False)
    raise SystemExit(f"{path} has no face named {SOURCE_FACE!r}")


def make_subset(path: Path, wanted: set[int]) -> tuple[bytes, set[int]]:
    """A WOFF2 of SOURCE_FACE cut to `wanted` and renamed FAMILY, and the code points it maps."""
    font = source_font(path)
    options = subset.Options()
    options.name_IDs = NAME_IDS
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(wanted))
    subsetter.subset(font)
    names = font["name"]
    source_id = names.getDebugName(3)
    for name_id in (*RENAMED, 3):
        names.removeNames(nameID=name_id)
    for name_id in RENAMED:
        names.setName(FAMILY, name_id, 3, 1, 0x409)
    names.setName(f"{FAMILY} (a subset of {source_id})", 3, 3, 1, 0x409)
    cff = font["CFF "].cff  # a collection's faces share one CFF, named after the first face
    cff.fontNames = [FAMILY]
    cff.topDictIndex[0].FullName = cff.topDictIndex[0].FamilyName = FAMILY
    font.flavor = "woff2"
    out = io.BytesIO()
    font.save(out)
    return out.getvalue(), set(font.getBestCmap())


def unicode_range(points: Iterable[int]) -> str:
    """Code points as a CSS unicode-range: runs of consecutive points as U+XXXX-YYYY."""
    runs: list[list[int]] = []
    for point in sorted(points):
        if runs and point == runs[-1][1] + 1:
            runs[-1][1] = point
        else:
            runs.append([point, point])
    return ", ".join(f"U+{a:X}" if a == b else f"U+{a:X}-{b:X}" for a, b in runs)


def font_face(name: str, points: set[int]) -> str:
    """The [[theme.fontFaces]] table of the file `name` covering `points`."""
    return (
        f'[[theme.fontFaces]]\nfamily = "{FAMILY}"\nurl = "{URL}/{name}"\n'
        f'unicodeRange = "{unicode_range(points)}"\n'
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=SOURCE, help=f"default {SOURCE}")
    args = parser.parse_args()
    switch = switch_characters()
    FONTS.mkdir(parents=True, exist_ok=True)
    tables = []
    for name, wanted in (
        (f"{FAMILY}-switch.woff2", switch),
        (f"{FAMILY}.woff2", korean_characters() - switch),
    ):
        data, mapped = make_subset(args.source, wanted)
        (FONTS / name).write_bytes(data)
        print(f"{name}: {len(data):,} bytes, {len(mapped):,} characters")
        tables.append(font_face(name, mapped))
    print("\n" + "\n".join(tables), end="")


if __name__ == "__main__":
    main()
