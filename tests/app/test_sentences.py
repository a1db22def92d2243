"""The example picker of the sentence pages says when the boxes no longer hold its pair."""

from __future__ import annotations

import pytest

from attnviz.lessons.across import view as across
from attnviz.lessons.model_controls import view as model_controls
from tests.apptest import open_page

OTHER = "The boxes hold your own sentences, not this example's"


def notes(at) -> list[str]:  # type: ignore[no-untyped-def]
    return [c.value for c in at.caption if c.value.startswith(OTHER)]


@pytest.mark.parametrize(
    ("page", "box", "picker"),
    [
        ("pages/8_Model_attention.py", model_controls.SENTENCE_A.key, model_controls.PRESET.key),
        ("pages/10_Across_layers.py", across.SENTENCE_A.key, across.PRESET.key),
    ],
)
def test_the_picker_says_when_the_boxes_hold_typed_text(
    encoder, page: str, box: str, picker: str
) -> None:
    at = open_page(page)
    assert not at.exception and not notes(at)  # the boxes hold the example's pair
    at.text_area(key=box).input("My own sentence.").run(timeout=120)
    assert not at.exception and len(notes(at)) == 1
    assert at.text_area(key=box).value == "My own sentence."  # nothing lost
    at.button(key=f"{picker}_apply").click().run(timeout=120)
    assert not notes(at) and at.text_area(key=box).value == "I do need sleep"
