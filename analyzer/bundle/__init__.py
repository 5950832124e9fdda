"""Inputs: a bundle path -> its units (docs/reference.md, "Inputs")."""
