"""The papers' claims, checked (placeholder; filled below)."""
