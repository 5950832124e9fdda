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
