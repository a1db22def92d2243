"""Per-page string catalogues, merged by attnviz.i18n."""
