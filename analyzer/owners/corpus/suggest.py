"""`suggest --corpus`: the scan's functions matched against the corpus, merged with the other
evidence of `analyzer.owners.suggest`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

import orjson

from analyzer.errors import InputError
from analyzer.facts import BundledModule
from analyzer.model import Callsite, Suggestion
from analyzer.owners.corpus.match import CorpusIndex, corpus_suggestions
from analyzer.owners.corpus.signature_file import SIGNATURES_FILE, read_signatures
from analyzer.owners.corpus.store import MANIFEST, Corpus
from analyzer.owners.corpus.suggestions import merged
from analyzer.owners.suggest import CONFIDENCES
from analyzer.signatures import Indexer
from analyzer.summary_model import Summary


def with_corpus(
    rows: list[Suggestion], records: list[Callsite], modules: dict[str, BundledModule],
    files: dict[str, bytes], summary: Summary, corpus_root: Path, bundle: Path | None, directory: Path,
    indexer: Indexer, signatures_of_bundle: Callable[[Path, str], bytes], warn: Callable[[str], None] = print,
) -> list[Suggestion]:
    """`indexer` and `signatures_of_bundle`: the JavaScript frontend's, which parse package files
    and the bundle."""
    if not (corpus_root / MANIFEST).is_file():
        raise InputError(corpus_root, "not a corpus (no corpus.json; fill it with `erratlas corpus add`)")
    corpus = Corpus(corpus_root, indexer)
    if bundle is not None:
        data = signatures_of_bundle(bundle, summary.bundle.sha256)
    elif SIGNATURES_FILE in files:
        data = files[SIGNATURES_FILE]
    else:
        raise InputError(directory, f"no {SIGNATURES_FILE}: scan with --signatures, or pass --bundle")
    functions = read_signatures(data, str(directory / SIGNATURES_FILE))
    window = corpus.windows.get(summary.bundle.sha256)
    index = CorpusIndex(corpus, window["before"] if window else None)
    if window:
        warn(f"erratlas: the bundle's window (recorded by corpus add --for): before {window['before']}: "
             f"{window['how']}; {len(index.late)} of {len(index.entries)} corpus versions published after it decide "
             "nothing")
    else:
        warn("erratlas: no time window recorded for this bundle (corpus add --for BUNDLE finds one): every corpus "
             "version may decide")
    found = corpus_suggestions(records, modules, functions, index)
    out = merged(rows, found, records)
    out.sort(key=lambda s: (CONFIDENCES.index(s.confidence), s.owner or "", s.package or "", s.id))
    return out


#: a corpus suggestion's line (id `c:`, docs/corpus.md) names its candidates last
_CORPUS_KEYS = (*(f.name for f in fields(Suggestion) if f.name != "candidates"), "candidates")


def render(rows: list[Suggestion]) -> bytes:
    """The lines of `suggest --corpus`: the other evidence's rows as `analyzer.owners.suggest.render`
    writes them, the corpus's with `candidates` last."""
    return b"".join((orjson.dumps({key: getattr(row, key) for key in _CORPUS_KEYS}) if row.id.startswith("c:")
                     else orjson.dumps(row)) + b"\n" for row in rows)
