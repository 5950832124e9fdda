"""Handler records: a line of `handlers.jsonl` (docs/reference.md, "Handler records") and of
`handler-owner-projection.jsonl` (docs/owners.md, "Handlers"), with the parts they share with
callsite records from `model`."""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.model import (
    CauseKept,
    Copies,
    Disposition,
    HandlerFinding,
    HandlerForm,
    Module,
    Origin,
    OwnerClass,
    OwnerEvidence,
    Readable,
    Scope,
    SourceBody,
    SourceVia,
    TestOp,
)


@dataclass(frozen=True, slots=True)
class HandlerSource:
    """An error callsite a handler catches."""

    #: the callsite's id (`e:unit@offset`)
    id: str
    via: SourceVia
    #: calls between the protected block and the throw: 0 direct, 1 a function called there throws
    #: it, 2 a function that function calls (0 in a scan directory written before hops)
    hops: int = 0


#: what a test compares with: a literal, a class as written, or for `in` the literals in order
TestValue = str | int | float | bool | tuple[str | int | float | bool | None, ...] | None


@dataclass(frozen=True, slots=True)
class ReadTest:
    """The test a helper makes of the value it is given, read from its body, stated on the caught
    value itself (`e.code === "ENOENT"` for `isNotFound(e)`)."""

    field: str | None
    op: TestOp
    value: TestValue


@dataclass(frozen=True, slots=True)
class BranchTest:
    """What a branch of a handler tests of the caught value."""

    #: the property path tested (`code`, `response.status`), None for the value itself
    field: str | None
    op: TestOp
    #: the literal compared with (a string, number, boolean or null), the class for `instanceof`,
    #: the literals for `in` (`["ENOENT", "EACCES"].includes(e.code)`)
    value: TestValue
    #: the helper whose result is compared, as written (`vt(e) === "EISDIR"`: `vt`, given `field`)
    through: str | None = None
    #: what the helper called (`through`, or a predicate's callee) tests, read from the body of the
    #: function it resolves to by scope (docs/reference.md, "What a helper tests"); None unread
    reads: ReadTest | None = None
    #: the further tests that hold too on the branch, in source order (`e instanceof X && e.code ===
    #: "E"`: this test is `instanceof`, `also` holds the `===`); each with no `also` of its own
    also: tuple[BranchTest, ...] = ()
    #: what the field is compared with when it is a name's member, not a literal, as written
    #: (`e.code === yc.MethodNotFound`: `yc.MethodNotFound`); `value` is then the literal it resolves
    #: to exactly (docs/reference.md, "A named constant"), else None
    compared: str | None = None


@dataclass(frozen=True, slots=True)
class CaughtClass:
    """One class an `except` clause names."""

    #: as written (`OSError`, `exceptions.InstallationError`)
    written: str
    #: the exception class it resolves to, named as a callsite's `constructor` is; None when it
    #: does not resolve to one
    resolved: str | None


@dataclass(frozen=True, slots=True)
class HandlerDisposition:
    kind: Disposition
    #: `wrap` only: what the new error carries of the caught one, else None
    cause: CauseKept | None
    #: `wrap`: the new error's callsite ids; `log`: the diagnostic callsite ids (inventory ids only)
    callsites: tuple[str, ...]
    #: `log`: the levels of those diagnostic callsites, in their order
    levels: tuple[str, ...]
    #: the function called or constructor used as written (`callback`, `reject`, `wrap`, a
    #: `console` log, `.catch(ident)`), else None
    callee: str | None

    def loses_cause(self) -> bool:
        """A `wrap` whose new error carries nothing of the caught one (the `wrap-loses-cause` finding)."""
        return self.kind == "wrap" and self.cause == "lost"


@dataclass(frozen=True, slots=True)
class PythonDisposition(HandlerDisposition):
    """A disposition of a Python `except` clause."""

    #: `wrap` only, else None: the `raise` names a cause other than the caught value (`raise X from
    #: None`), so Python hides the caught error on purpose and the lost cause is no finding; None
    #: when a scan directory written before it lacks it
    causeSuppressed: bool | None = None

    def loses_cause(self) -> bool:
        return self.kind == "wrap" and self.cause == "lost" and not self.causeSuppressed


@dataclass(frozen=True, slots=True)
class HandlerBranch:
    #: None: the else or rest branch, or the whole body when nothing tests the caught value
    test: BranchTest | None
    #: at least one, in the vocabulary's order
    dispositions: tuple[HandlerDisposition, ...]


@dataclass(frozen=True, slots=True)
class PythonBranch(HandlerBranch):
    dispositions: tuple[PythonDisposition, ...]


@dataclass(frozen=True, slots=True)
class Handler:
    """One place that catches errors (`handlers.jsonl`, docs/reference.md "Handler records")."""

    schema: str
    #: `h:<unit>@<offset>`
    id: str
    #: portable identity `fp1h:...` (docs/fingerprints.md)
    fingerprint: str
    copies: Copies
    unit: str
    offset: int
    endOffset: int
    line: int
    column: int
    readableLine: int
    readable: Readable
    form: HandlerForm
    #: the caught value's name, None when destructured or absent
    param: str | None
    scope: Scope
    module: Module | None
    origin: Origin | None
    #: error callsites thrown in the protected block, same function, sorted by id
    sources: tuple[HandlerSource, ...]
    #: at least one
    branches: tuple[HandlerBranch, ...]
    #: the parser recovered from a syntax error around the handler
    inErrorRegion: bool

    def findings(self) -> tuple[HandlerFinding, ...]:
        """What the reports flag in this handler, in the vocabulary's order."""
        swallows = loses = False
        rethrows = True
        for branch in self.branches:  # one pass (the scan asks each of its 8,460 handlers once)
            for disposition in branch.dispositions:
                kind = disposition.kind
                if kind != "rethrow":
                    rethrows = False
                    if kind == "swallow":
                        swallows = True
                    elif kind == "wrap" and not loses:
                        loses = disposition.loses_cause()
        if not (swallows or loses or rethrows):
            return ()
        found: list[HandlerFinding] = []
        if swallows:
            found.append("swallowed-error")
        if loses:
            found.append("wrap-loses-cause")
        if rethrows and self.only_the_rethrow():
            found.append("useless-catch")
        return tuple(found)

    def only_the_rethrow(self) -> bool:
        """Whether a handler whose every disposition is `rethrow` runs nothing else (no statement
        beside the throw): the frontend's record says when it can."""
        return True


@dataclass(frozen=True, slots=True)
class HandlerOwnerRow:
    """One handler's owner: a line of `handler-owner-projection.jsonl` (docs/owners.md,
    "Handlers"), owned like the code it sits in."""

    schema: str
    #: the handler's id (`h:unit@offset`)
    id: str
    fingerprint: str
    owner: OwnerClass
    #: the package of a Dependency, else None
    package: str | None
    #: the reviewed function name the owning entry gives, else None
    function: str | None
    #: the owning entry `{entry, level, fingerprint}` (and a `references` entry's `chain`), else None
    evidence: OwnerEvidence | None


@dataclass(frozen=True, slots=True)
class JavaScriptHandler(Handler):
    """A JavaScript handler: a `catch` clause, `.catch(fn)` or `.then(ok, fn)`."""

    #: the body is one statement, `throw` of the caught value's own name (`catch (e) { throw e }`):
    #: nothing else runs (ESLint's no-useless-catch)
    loneRethrow: bool

    def only_the_rethrow(self) -> bool:
        return self.loneRethrow


@dataclass(frozen=True, slots=True)
class MappedJavaScriptHandler(JavaScriptHandler):
    """A JavaScript handler that a source map places (its `origin` is not None)."""

    #: a catch clause whose body is empty in the bundle: what its original body holds (`empty`,
    #: `comments`, `code`); None when the body is not empty, for another form, or when the map
    #: carries no text of that source or its text at `origin` is not that clause
    sourceBody: SourceBody | None


@dataclass(frozen=True, slots=True)
class PythonHandler(Handler):
    """A Python `except` clause: a handler and the classes it names."""

    branches: tuple[PythonBranch, ...]

    #: the classes named, in order (a tuple names several); None for a bare `except:` (everything)
    catches: tuple[CaughtClass, ...] | None
    #: the body is one `raise` or `raise <param>`, `pass` and strings aside: nothing else runs
    #: (ruff's TRY203); True when a scan directory written before it lacks it
    loneRethrow: bool = True

    def only_the_rethrow(self) -> bool:
        return self.loneRethrow
