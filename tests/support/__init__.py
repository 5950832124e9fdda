"""Helpers shared by tests and benchmarks (not part of the erratlas package)."""
