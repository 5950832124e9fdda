"""The fuzzing harness of issue 13 (README in this directory's `__main__.py` docstring)."""
