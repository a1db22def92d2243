"""Every catalogue key the code names exists, and no key is built at run time."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from attnviz import i18n
from attnviz.parsing import InputError

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [
    *(
        p
        for p in ROOT.glob("attnviz/**/*.py")
        if p.name != "i18n.py" and p.parent.name != "strings"
    ),
    ROOT / "dashboard.py",
    *ROOT.glob("pages/*.py"),
]
# A key is a dotted lower-case literal: t("x.y"), label keys in dicts, InputError("x").
KEY = re.compile(r"""["']((?:[a-z_0-9]+\.)+[A-Za-z_0-9]+)["']""")


def keys_named_in(path: Path) -> set[str]:
    text = path.read_text()
    found = {k for k in KEY.findall(text) if k.split(".")[0] in _prefixes()}
    found |= {f"parse.{k}" for k in re.findall(r"""InputError\(\s*["']([a-z_]+)["']""", text)}
    return found


def _prefixes() -> set[str]:
    return {key.split(".")[0] for key in i18n.EN}


def test_every_key_in_the_code_exists():
    missing = {
        (path.name, key)
        for path in SOURCES
        for key in keys_named_in(path)
        if key not in i18n.EN and not key.endswith((".py", ".csv", ".npy", ".safetensors"))
    }
    assert not missing


def test_no_key_is_an_f_string():
    for path in SOURCES:
        assert not re.search(r"""\bt\(\s*f["']""", path.read_text()), path.name


def test_every_catalogue_entry_is_used():
    used = set().union(*(keys_named_in(path) for path in SOURCES))
    assert set(i18n.EN) - used == set()


def test_t_formats_and_falls_back():
    assert i18n.t("parse.too_many_rows", found=300, limit=256) == (
        "300 rows: at most 256 rows are allowed."
    )
    with pytest.raises(KeyError):
        i18n.t("no.such.key")
    assert i18n.set_language("xx") == "en" and i18n.get_language() == "en"


def test_input_error_renders_through_the_catalogue():
    err = InputError("ragged_rows", row=3, found=2, expected=4)
    assert isinstance(err, ValueError)
    assert (
        str(err) == "Row 3 has 2 values but row 1 has 4: every row needs the same number of values."
    )
