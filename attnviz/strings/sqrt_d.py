"""English strings of the sqrt d page (merged into attnviz.i18n's catalogue)."""

EN: dict[str, str] = {}
