"""What a heatmap sends to the browser in each encoding of `heatmap`, and its build time.

For n x n attention weights under a causal mask with hover {score, weight} (the Playground's
weights figure), and for N(0, 1) scores (noise: the worst case for the image's PNG), prints per
encoding the bytes of `fig.to_json()` (what Streamlit sends) per cell and in total, and the
median times to build the figure and to write its JSON; `*` marks the encoding that
`encoding_for` picks. Then what the click overlay (`marks.select_cells`) adds. Every figure that
is picked must stay under MAX_FIGURE_BYTES (2 MB). Measured on this 2-core machine:

    full     ~125 B/cell: 96 x 96 sends 1.15 MB (build 40 ms, JSON 10 ms); 128 x 128: 2.06 MB
    compact  ~6.5 B/cell: 256 x 256 sends 0.42 MB (35 ms, 8 ms); 512 x 512 1.7 MB, 2048 x 2048 26 MB
    image    N(0, 1) scores 0.34 MB at 512 x 512, 0.25 MB at 2048 x 2048 (pooled 4 x 4; build
             0.15-0.19 s); attention weights 0.02-0.07 MB
    overlay  +0.47 MB at 64 x 64 (it repeats the hover text); its build time is within noise

In Chromium (Plotly.react on the parsed JSON, not run here): a numeric heatmap draws in ~50 ms
at 256 x 256, ~80 ms at 512 x 512, ~0.8 s at 2048 x 2048; an image in ~35 ms at any size;
the overlay adds ~40 us a cell. Run with `python -m benchmarks.bench_payload`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from unittest import mock

import plotly.graph_objects as go
import torch

from attnviz.attention import attend, causal_mask
from attnviz.figures import budget, marks
from attnviz.figures import heatmap as heatmaps
from attnviz.i18n import Catalogue
from benchmarks.timing import median_seconds

EN = Catalogue("en")
SIZES = (12, 96, 128, 256, 512, 1024, 2048)  # 96 and 256: the largest full and compact
FULL_SIDE_LIMIT = 512  # beyond it per-cell hover text runs to hundreds of MB: not measured
OVERLAY_SIDES = (16, 32, 64)
UNLIMITED = 1 << 62
# Module constants that make `encoding_for` pick one encoding whatever the size.
FORCED: dict[str, dict[str, int]] = {
    "full": {"FULL_CELL_LIMIT": UNLIMITED, "HOVER_BYTES_LIMIT": UNLIMITED},
    "compact": {"FULL_CELL_LIMIT": 0, "IMAGE_CELL_LIMIT": UNLIMITED},
    "image": {"FULL_CELL_LIMIT": 0, "IMAGE_CELL_LIMIT": 0},
}


@contextmanager
def forced(encoding: str) -> Iterator[None]:
    with ExitStack() as stack:
        for name, value in FORCED[encoding].items():
            # The cell limits are read in budget.encoding_for; the hover budget is the heatmap's.
            module = heatmaps if name == "HOVER_BYTES_LIMIT" else budget
            stack.enter_context(mock.patch.object(module, name, value))
        yield


def weights_figure(n: int, selectable: bool = False) -> Callable[[], go.Figure]:
    gen = torch.Generator().manual_seed(0)
    q, k = torch.randn(n, 16, generator=gen), torch.randn(n, 16, generator=gen)
    result = attend(q, k, k, mask=causal_mask(n))
    hover = {"score": result.scores, "weight": result.weights}

    def build() -> go.Figure:
        fig = heatmaps.heatmap(
            result.weights, text=EN, title="weights", kind="weights", mask=result.mask, hover=hover
        )
        return marks.select_cells(fig) if selectable else fig

    return build


def scores_figure(n: int) -> Callable[[], go.Figure]:
    scores = torch.randn(n, n, generator=torch.Generator().manual_seed(0))
    return lambda: heatmaps.heatmap(scores, title="scores", kind="scores", text=EN)


def row(name: str, n: int, encoding: str, build: Callable[[], go.Figure]) -> str:
    picked = "*" if budget.encoding_for(n, n) == encoding else " "
    repeats = 5 if n <= 512 else 3
    with forced(encoding):
        fig = build()
        size = len(fig.to_json())
        seconds = median_seconds(build, repeats, warm_up=False)
    to_json = median_seconds(fig.to_json, repeats, warm_up=False)
    return (
        f"{name:>8} {n:>5} {encoding + picked:>9} {size / n**2:>8.2f} "
        f"{size / 1e6:>9.3f} {seconds * 1e3:>9.1f} {to_json * 1e3:>8.1f}"
    )


def main() -> None:
    print(f"limits: full <= {budget.FULL_CELL_LIMIT} cells, compact <= {budget.IMAGE_CELL_LIMIT}")
    print(f"image <= {budget.IMAGE_MAX_SIDE} px a side, cap {budget.MAX_FIGURE_BYTES} bytes")
    print(
        f"{'data':>8} {'n':>5} {'encoding':>9} {'B/cell':>8} {'MB':>9} {'build ms':>9} "
        f"{'json ms':>8}"
    )
    for n in SIZES:
        for encoding in ("full", "compact", "image"):
            if encoding == "full" and n > FULL_SIDE_LIMIT:
                continue
            print(row("weights", n, encoding, weights_figure(n)))
        print(row("N(0,1)", n, "image", scores_figure(n)))
    print(f"\n{'overlay':>8} {'n':>5} {'+ bytes':>10} {'+ build ms':>11}")
    for n in OVERLAY_SIDES:
        plain, clickable = weights_figure(n), weights_figure(n, selectable=True)
        extra = len(clickable().to_json()) - len(plain().to_json())
        seconds = median_seconds(clickable, 5, warm_up=False) - median_seconds(
            plain, 5, warm_up=False
        )
        print(f"{'cells':>8} {n:>5} {extra:>10} {seconds * 1e3:>11.1f}")


if __name__ == "__main__":
    main()
