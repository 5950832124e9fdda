"""Inputs: a bundle path -> its units (SPEC 1)."""
