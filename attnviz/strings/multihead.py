"""English strings of the multihead page (merged into attnviz.i18n's catalogue)."""

EN: dict[str, str] = {}
