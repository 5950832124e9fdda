"""Exit codes and the errors that travel from any stage to the CLI."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Exit statuses shared by every verb (docs/reference.md, "Exit statuses")."""

    OK = 0
    #: a threshold failed (gate)
    FINDINGS = 1
    #: the input is unusable: bad bundle, bad rules, bad allowlist, tampered outputs
    BAD_INPUT = 2
    #: erratlas broke one of its own invariants; a bug, never the user's input
    INTERNAL = 3
    #: Ctrl-C (SIGINT): 128 + its number, as a shell reports it
    INTERRUPTED = 130


class InputError(Exception):
    """Bad input: reported as one line `PATH: problem`, exit status 2."""

    def __init__(self, path: object, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = str(path)
        self.problem = problem


class InvariantError(Exception):
    """A count that must equal the sum of its parts did not."""


class ChildFailure(Exception):
    """An internal error inside the isolated child (exit status 3), with its traceback."""

    def __init__(self, message: str, trace: str) -> None:
        super().__init__(message)
        self.trace = trace


#: what a terminal acts on rather than shows: the C0 and C1 controls but the tab, DEL, the line
#: separators and the marks that reorder a line's text (bidirectional embeddings, overrides, isolates)
_ACTED_ON = (*range(0x09), *range(0x0A, 0x20), 0x7F, *range(0x80, 0xA0), 0x61C, 0x200E, 0x200F, 0x2028, 0x2029,
             *range(0x202A, 0x202F), *range(0x2066, 0x206A))
_ESCAPED = {c: chr(c).encode("unicode_escape").decode() for c in _ACTED_ON}


def visible(text: str) -> str:
    """`text` as one line a terminal shows as written: a bundle's message, name or code may hold an
    escape sequence (a title, a cleared screen), a carriage return or a bidirectional override that
    would hide or reorder what is shown; each such character is written escaped (`\\x1b`)."""
    return text.translate(_ESCAPED)
