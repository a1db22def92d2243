"""English strings of the masking page (merged into attnviz.i18n's catalogue)."""

EN: dict[str, str] = {}
