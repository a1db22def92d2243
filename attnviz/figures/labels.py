"""Labels for figures: escaped for Plotly, unique when tokens repeat, numbered when there are
none. No Plotly here: pages use these for captions too."""

from __future__ import annotations

import html
from collections.abc import Sequence


def escape_label(text: object) -> str:
    """`text` safe for Plotly labels and hover: HTML escaped, and no `%{...}` template syntax."""
    # Quotes stay as they are: with `<` escaped no tag (so no attribute) can start, and Plotly
    # decodes only a few named entities, so "&quot;" would be shown as typed.
    escaped = html.escape(str(text), quote=False)
    return escaped.replace("%{", "%&#123;").replace("}", "&#125;")


def unique_labels(labels: Sequence[object]) -> list[str]:
    """Labels with repeats numbered ("the", "the (2)"), so hover text tells them apart."""
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        text = str(label)
        seen[text] = seen.get(text, 0) + 1
        out.append(text if seen[text] == 1 else f"{text} ({seen[text]})")
    return out


def default_labels(prefix: str, count: int) -> list[str]:
    """q0, q1, ... for a matrix without token labels."""
    return [f"{prefix}{i}" for i in range(count)]
