"""Per-page string catalogues, merged by attnviz.i18n; GLOSSARY, the Korean word of each term
that two senses could share (tests/test_korean.py holds every KO string to it)."""

from __future__ import annotations

from typing import NamedTuple


class Term(NamedTuple):
    """A term's Korean word, and why that word."""

    ko: str
    reason: str


GLOSSARY: dict[str, Term] = {
    "attend step": Term(
        "주목",
        "the first step of decomposable attention is named by its verb, as 비교 (compare) and "
        "집계 (aggregate) name the other two; 어텐션 is attention itself and 정렬 what the step "
        "produces",
    ),
    "alignment": Term(
        "정렬",
        "the soft alignment of tokens across the two sentences (the weights), as in machine "
        "translation's 단어 정렬; never the step that computes it",
    ),
}
