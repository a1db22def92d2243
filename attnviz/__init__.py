"""attnviz: an interactive attention explorer (backend package; see DESIGN.md)."""
