"""The scan directory: one home for its files (`files`: names, schemas, formats, stages), the
atomic write (`write`), the verified read (`read`) and the typed loaders (`load`). Every verb
reads and writes a scan directory through it; `reports` and `owners` meet only here and in
`model`."""
