"""English strings of the kernels page (merged into attnviz.i18n's catalogue)."""

EN: dict[str, str] = {}
