"""The owners stage: allowlists, projection, review, suggestions, the gate. Depends on the
records of a scan directory, never on a frontend."""
