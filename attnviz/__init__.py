"""attnviz: an interactive attention explorer (see ARCHITECTURE.md for the map)."""
