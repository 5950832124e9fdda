"""A corpus of real package sources that identifies bundled dependency code (docs/corpus.md)."""
