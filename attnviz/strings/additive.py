"""English strings of the additive page (merged into attnviz.i18n's catalogue)."""

EN: dict[str, str] = {}
