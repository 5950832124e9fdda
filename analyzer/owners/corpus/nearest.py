"""`explain ID --corpus CORPUS`: what the corpus says about one callsite (docs/corpus.md, "Why a
callsite is Unresolved"). Its enclosing distinctive functions and the corpus functions they equal;
when none equals any, the corpus versions whose files hold its message text, the distinctive
function nearest above the message there, and how that function differs from the bundle's."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from analyzer.errors import InputError
from analyzer.model import Callsite
from analyzer.owners.corpus.index import tarball_sources
from analyzer.owners.corpus.layout import FunctionTree
from analyzer.owners.corpus.match import CorpusIndex
from analyzer.owners.corpus.signature_file import SIGNATURES_FILE, read_signatures
from analyzer.owners.corpus.store import Corpus
from analyzer.signatures import BundleFunction
from analyzer.summary_model import Summary

#: enclosing functions told, innermost first
MAX_ENCLOSING = 3
#: corpus functions told per enclosing function, and message holders told
MAX_SHOWN = 3
#: a message fragment shorter than this is too common to look for
MIN_FRAGMENT = 8
_PLACEHOLDER = re.compile(r"\$\{\}|<[a-z]+(?::[^>]*)?>|<missing>|↵")


@dataclass(slots=True)
class CorpusStory:
    facts: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def corpus_story(record: Callsite, files: dict[str, bytes], summary: Summary,
                 corpus: Corpus) -> CorpusStory:
    story = CorpusStory()
    if SIGNATURES_FILE not in files:
        raise InputError(SIGNATURES_FILE, "not in the scan directory: scan with --signatures to explain by the corpus")
    functions = [f for f in read_signatures(files[SIGNATURES_FILE], SIGNATURES_FILE) if f.unit == record.unit]
    window = corpus.windows.get(summary.bundle.sha256)
    index = CorpusIndex(corpus, window["before"] if window else None)
    story.facts.append(("corpus", f"{corpus.root}: {len(index.entries)} package versions"))
    story.facts.append(("window", f"before {window['before']}: {window['how']}" if window
                        else "none recorded (corpus add --for BUNDLE finds one)"))
    enclosing = FunctionTree(functions).enclosing(record.offset)
    if not enclosing:
        story.notes.append("no distinctive function holds this callsite: the corpus cannot place it")
    matched = False
    for depth, function in enumerate(enclosing[:MAX_ENCLOSING]):
        hits = index.hits(function.key)
        where = "innermost distinctive function" if depth == 0 else f"distinctive function {depth} levels out"
        head = f"its {where} (offsets {function.start}-{function.end}, {function.tokens} tokens, weight " \
               f"{function.weight}, key {function.key})"
        if not hits:
            story.notes.append(f"{head} equals no corpus function")
            continue
        matched = True
        shown = "; ".join(h.describe() for h in hits[:MAX_SHOWN]) + (f"; {len(hits) - MAX_SHOWN} more"
                                                                      if len(hits) > MAX_SHOWN else "")
        story.notes.append(f"{head} equals {shown}")
    if not matched:
        story.notes.extend(_message_holders(record, enclosing[0] if enclosing else None, corpus, index))
    return story


def _fragment(record: Callsite) -> str | None:
    text = record.message.comparisonKey or record.message.text or ""
    parts = sorted(_PLACEHOLDER.split(text), key=lambda p: (-len(p), p))
    return parts[0] if parts and len(parts[0]) >= MIN_FRAGMENT else None


def _message_holders(record: Callsite, innermost: BundleFunction | None, corpus: Corpus,
                     index: CorpusIndex) -> list[str]:
    """The corpus files holding the message's longest literal part, each with the distinctive
    function nearest above it and how it differs from the bundle's innermost one."""
    fragment = _fragment(record)
    if fragment is None:
        return ["the message has no literal part long enough to look for in the corpus"]
    needle = fragment.encode()
    found = []
    for number, (name, version) in enumerate(index.entries):
        try:
            data = corpus.tarball(name, version).read_bytes()
        except OSError:
            continue
        document = corpus.load_index_document(name, version)
        paths = {path: i for i, path in enumerate(document["files"])}
        for path, source in tarball_sources(data):
            at = source.find(needle)
            if at < 0 or path.endswith(".map"):
                continue
            line = source.count(b"\n", 0, at) + 1
            file = paths.get(path)
            rows = [r for r in document["functions"] if file is not None and r[0] == file and r[2] <= line]
            late = " (published after the bundle's window)" if number in index.late else ""
            place = f"{name}@{version}{late} {path}:{line}"
            if not rows:
                found.append(f"the message is in {place}, outside every distinctive function there")
            elif innermost is None:
                best = max(rows, key=lambda r: (r[2], -r[4]))
                found.append(f"the message is in {place}; the nearest distinctive function above it is {best[1]} "
                             f"(line {best[2]}, {best[4]} tokens), and the bundle's code around the callsite has no "
                             "distinctive function to compare")
            else:
                best = max(rows, key=lambda r: (r[2], -r[4]))
                found.append(f"the message is in {place}; the nearest distinctive function above it, {best[1]} "
                             f"(line {best[2]}, {best[4]} tokens, weight {best[5]}, key {best[3]}), differs from the "
                             f"bundle's ({innermost.tokens} tokens, weight {innermost.weight}, key {innermost.key}): "
                             + ("the same size, other tokens" if best[4] == innermost.tokens
                                else f"{abs(best[4] - innermost.tokens)} tokens "
                                     f"{'more' if best[4] > innermost.tokens else 'fewer'}"))
            break
    if not found:
        return [f"no corpus version holds its message text \"{fragment}\": the package it is from is not in the "
                "corpus (erratlas corpus names DIR proposes names)"]
    more = len(found) - MAX_SHOWN
    return found[:MAX_SHOWN] + ([f"{more} more versions hold it"] if more > 0 else [])

