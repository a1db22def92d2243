"""English strings of shareable links and state files (merged into attnviz.i18n's catalogue)."""

EN: dict[str, str] = {
    "links.bad_values": (
        "The link had values this page cannot use, so their defaults are shown instead: {names}."
    ),
    "links.unknown": "The link had {count} setting(s) this page does not know; they were ignored.",
    "links.too_long": (
        "Some typed text is too long for a link ({chars} characters, at most {limit}): a copied "
        "link keeps the other settings. Save the state as a file (Share, below) to pass it on."
    ),
    "links.heading": "Share",
    "links.help": (
        "The address in the browser's address bar opens this view: copy it to share what you "
        "see (seed, sizes, scoring function, masks and the selected query). Typed matrices too "
        "long for a link travel as a state file instead."
    ),
    "links.save": "Save state (JSON)",
    "links.load": "Load a state file",
    "links.loaded": "Loaded the state from {name}.",
    "links.load_error": "{name} is not an attnviz state file: {detail}",
    "links.load_not_json": "it is not JSON text ({detail})",
    "links.load_not_object": "it must hold one JSON object of settings",
    "links.load_bad": "these settings have values this page cannot use: {names}",
    "links.load_too_big": "it has {size} bytes, at most {limit} are allowed",
    # Click to inspect (Playground)
    "playground.click_tip": (
        "Click a cell of the scores or weights to inspect that query and key below."
    ),
    "playground.pick_tip": (
        "The matrices are too large for click targets: choose the query below (type to search); "
        "hover a heatmap to read a cell's row and column."
    ),
    "playground.selected_cell": (
        "Selected cell {query} → {key_label}: score {score}, weight {weight}{masked}"
    ),
    "playground.selected_masked": " (masked)",
    # Large matrices drawn as images
    "fig.pooled": "each pixel: mean of {rows} × {cols} cells",
    # Model page
    "model.grid_click": "Click a thumbnail to enlarge that layer's head above.",
    # Per-query breakdown of large matrices
    "fig.breakdown.others": "other {count} keys",
    "fig.breakdown.top": (
        "The {shown} keys with the largest weights of {total}; the others are summed in one row."
    ),
}
