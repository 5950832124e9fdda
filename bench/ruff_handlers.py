"""Compare erratlas's Python handlers with ruff, site by site, on one tree (pip's by default).

usage: python bench/ruff_handlers.py [--target DIR] [--scan DIR] [--ruff PATH] [--erratlas CMD] [--json FILE]

ruff (`--isolated`: no configuration read; `--ignore-noqa`: no suppression comment read; rules
B904, S110, TRY203, TRY301) and `erratlas scan` run on the same tree; each rule is paired with
what erratlas says (docs/reference.md, "Handler records", Python: the comparison with ruff):

- B904 (`raise` without `from` in an `except`), per `except` clause: a `wrap` with cause `lost`
  or `partial` whose cause is not suppressed (`causeSuppressed`: `raise X from None`);
- S110 (`try`-`except`-`pass`; by default only for a bare `except:`, `Exception` or
  `BaseException`), per clause: a clause whose `catches` is null or names `Exception` or
  `BaseException`, whose body is `pass`, and whose dispositions are `swallow` (or `retry`: a
  `pass` in a loop goes on to the next turn);
- TRY203 (useless `try`-`except`), per clause: one branch whose only disposition is `rethrow`,
  in a clause whose body is that `raise` alone (the record's `loneRethrow`);
- TRY301 (`raise` in a `try` its own handler catches), per `raise` statement: a `direct` source
  of a handler (the callsite's `raise`, or the `raise NAME` of a raised local).

Sites are `except` clauses (several B904 findings in one clause are one site) and `raise`
statements. Agreement each way: of ruff's sites, the share erratlas has; of erratlas's, the share
ruff has; then the same with the explained differences set aside. Every difference is listed
with its explanation, read from the source with `ast` (where ruff's definition and erratlas's
differ); a difference with no explanation is `unexplained`.
`--json FILE` writes the whole comparison as data (the test of the harness reads it).
"""

from __future__ import annotations

import argparse
import ast
import builtins
import json
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

RULES = ("B904", "S110", "TRY203", "TRY301")
_UNTYPED = frozenset({"Exception", "BaseException"})
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_TRIES = (ast.Try, *((ast.TryStar,) if hasattr(ast, "TryStar") else ()))
_BUILTIN_ERRORS = frozenset(name for name, value in vars(builtins).items()
                            if isinstance(value, type) and issubclass(value, BaseException))

Key = tuple[str, int, int]  # (unit, line, column): an `except` clause or a `raise` statement


@dataclass
class Comparison:
    rule: str
    ruff: set[Key] = field(default_factory=set)
    erratlas: set[Key] = field(default_factory=set)
    explained: dict[Key, str] = field(default_factory=dict)
    #: ruff findings on no `except` clause or `raise` statement `ast` finds there, or in a unit
    #: this Python does not parse
    unmapped: int = 0

    def row(self) -> dict[str, object]:
        both = self.ruff & self.erratlas
        explained = {k for k, why in self.explained.items() if why != "unexplained"}
        return {
            "rule": self.rule, "ruff": len(self.ruff), "erratlas": len(self.erratlas), "both": len(both),
            "ruffFound": _share(len(both), len(self.ruff)), "erratlasFound": _share(len(both), len(self.erratlas)),
            "ruffFoundOrExplained": _share(len(both | (self.ruff & explained)), len(self.ruff)),
            "erratlasFoundOrExplained": _share(len(both | (self.erratlas & explained)), len(self.erratlas)),
            "unmapped": self.unmapped,
            "onlyRuff": [self._difference(k) for k in sorted(self.ruff - self.erratlas)],
            "onlyErratlas": [self._difference(k) for k in sorted(self.erratlas - self.ruff)],
        }

    def _difference(self, key: Key) -> dict[str, object]:
        return {"unit": key[0], "line": key[1], "column": key[2], "why": self.explained.get(key, "unexplained")}


def _share(part: int, whole: int) -> float:
    return round(100.0 * part / whole, 2) if whole else 100.0


class Source:
    """One unit's `ast`: its `except` clauses and `raise` statements, and their parents."""

    def __init__(self, path: Path) -> None:
        self.tree = ast.parse(path.read_bytes())
        self.parents: dict[ast.AST, ast.AST] = {}
        self.handlers: dict[tuple[int, int], ast.ExceptHandler] = {}
        self.raises: dict[tuple[int, int], ast.Raise] = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
            if isinstance(node, ast.ExceptHandler):
                self.handlers[(node.lineno, node.col_offset + 1)] = node
            elif isinstance(node, ast.Raise):
                self.raises[(node.lineno, node.col_offset + 1)] = node

    def up(self, node: ast.AST) -> list[ast.AST]:
        out = []
        while node in self.parents:
            node = self.parents[node]
            out.append(node)
        return out

    def handler_of(self, node: ast.AST) -> ast.ExceptHandler | None:
        """The `except` clause whose body holds `node` (no function or class between)."""
        child = node
        for parent in self.up(node):
            if isinstance(parent, _SCOPES):
                return None
            if isinstance(parent, ast.ExceptHandler) and child in parent.body:
                return parent
            child = parent
        return None

    def raise_of(self, line: int, column: int) -> ast.Raise | None:
        """The `raise` of the error made at (line, column): the statement around it, or the
        `raise NAME` after `NAME = ...` in the same block."""
        holders = [r for r in self.raises.values() if _holds(r, line, column)]
        if holders:
            return max(holders, key=lambda r: (r.lineno, r.col_offset))
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Assign) and _holds(node, line, column) and len(node.targets) == 1 \
                    and isinstance(node.targets[0], ast.Name):
                block = self.block_of(node)
                name = node.targets[0].id
                for later in block[block.index(node) + 1:]:
                    if isinstance(later, ast.Raise) and isinstance(later.exc, ast.Name) and later.exc.id == name:
                        return later
        return None

    def block_of(self, node: ast.stmt) -> list[ast.stmt]:
        parent = self.parents[node]
        for name in ("body", "orelse", "finalbody", "handlers"):
            block = getattr(parent, name, None)
            if isinstance(block, list) and node in block:
                return block
        return [node]


def _holds(node: ast.AST, line: int, column: int) -> bool:
    start = (node.lineno, node.col_offset + 1)  # type: ignore[attr-defined]
    end = (node.end_lineno, node.end_col_offset + 1)  # type: ignore[attr-defined]
    return start <= (line, column) < end


def _key(unit: str, node: ast.AST) -> Key:
    return unit, node.lineno, node.col_offset + 1  # type: ignore[attr-defined]


def run_ruff(ruff: str, target: Path) -> list[dict[str, object]]:
    # `--ignore-noqa`: definitions are compared, not a file's suppressions (a file-wide noqa
    # comment atop generated code)
    command = [ruff, "check", "--isolated", "--ignore-noqa", "--select", ",".join(RULES), "--output-format", "json",
               "--exit-zero", "--no-cache", str(target)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def run_erratlas(erratlas: list[str], target: Path, out: Path) -> None:
    subprocess.run([*erratlas, "scan", str(target), "--out", str(out)], check=True, capture_output=True)


def compare(target: Path, scan: Path, ruff_findings: list[dict[str, object]]) -> list[Comparison]:
    handlers = [json.loads(line) for line in (scan / "handlers.jsonl").read_text().splitlines()]
    summary = json.loads((scan / "error-diagnostic-owner-summary.json").read_text())
    names = [unit["name"] for unit in summary["inputs"]["units"]]
    # a scan of the target's parent names its units from there: only the target's are compared
    inside = [n for n in names if n.startswith(f"{target.name}/") and (target.parent / n).is_file()]
    root = target.parent if inside else target
    prefix = f"{target.name}/" if inside else ""
    callsites = {}
    for line in (scan / "error-message-callsites.jsonl").read_text().splitlines():
        record = json.loads(line)
        callsites[record["id"]] = record
    sources: dict[str, Source | None] = {}

    def source(unit: str) -> Source | None:
        """The unit's `ast`; None when this Python does not parse it (ruff may: another grammar)."""
        if unit not in sources:
            try:
                sources[unit] = Source(root / unit)
            except (SyntaxError, ValueError):
                sources[unit] = None
        return sources[unit]

    classes = ErrorClasses([json.loads(line) for line in (scan / "error-classes.jsonl").read_text().splitlines()],
                           lambda unit: source(unit) if unit.startswith(prefix) else None)

    comparisons = {rule: Comparison(rule) for rule in RULES}
    by_key = {}
    for record in handlers:
        unit = record["unit"]
        if not unit.startswith(prefix):
            continue
        tree = source(unit)
        node = _handler_at(tree, record["line"], record["column"]) if tree is not None else None
        if tree is None or node is None:
            continue
        key = _key(unit, node)
        by_key[key] = record
        _erratlas_findings(comparisons, key, record, node, tree, callsites)
    for finding in ruff_findings:
        unit = Path(str(finding["filename"])).resolve().relative_to(root).as_posix()
        location = finding["location"]
        line, column = location["row"], location["column"]  # type: ignore[index]
        tree = source(unit)
        rule = str(finding["code"])
        if rule not in comparisons:
            continue  # ruff's own syntax errors (`invalid-syntax`)
        if tree is None:
            comparisons[rule].unmapped += 1
            continue
        if rule == "TRY301":
            node: ast.AST | None = tree.raises.get((line, column))
        elif rule == "B904":
            flagged = tree.raises.get((line, column))
            node = tree.handler_of(flagged) if flagged is not None else None
        else:
            node = _handler_at(tree, line, column)
        if node is not None:
            comparisons[rule].ruff.add(_key(unit, node))
        else:
            comparisons[rule].unmapped += 1
    for comparison in comparisons.values():
        for key in comparison.ruff ^ comparison.erratlas:
            tree = source(key[0])
            assert tree is not None  # every key was read from a parsed unit
            comparison.explained[key] = _explain(comparison.rule, key, key in comparison.ruff, tree, by_key,
                                                   callsites, classes)
    return list(comparisons.values())


def _handler_at(tree: Source, line: int, column: int) -> ast.ExceptHandler | None:
    found = tree.handlers.get((line, column))
    if found is not None:
        return found
    on_line = [h for (row, _), h in tree.handlers.items() if row == line]
    return on_line[0] if len(on_line) == 1 else None  # a column in code points against one in bytes


def _erratlas_findings(comparisons: dict[str, Comparison], key: Key, record: dict, node: ast.ExceptHandler,
                       tree: Source, callsites: dict[str, dict]) -> None:
    branches = record["branches"]
    kinds = [[d["kind"] for d in b["dispositions"]] for b in branches]
    # `raise X from None` drops the cause on purpose: B904 accepts it
    causes = {d["cause"] for b in branches for d in b["dispositions"]
              if d["kind"] == "wrap" and not d["causeSuppressed"]}
    if causes & {"lost", "partial"}:
        comparisons["B904"].erratlas.add(key)
    catches = record["catches"]
    untyped = catches is None or any(c["resolved"] in _UNTYPED for c in catches)
    body_is_pass = len(node.body) == 1 and isinstance(node.body[0], ast.Pass)
    if untyped and body_is_pass and all(set(k) <= {"swallow", "retry"} for k in kinds):
        comparisons["S110"].erratlas.add(key)
    if kinds == [["rethrow"]] and record["loneRethrow"]:
        comparisons["TRY203"].erratlas.add(key)
    for item in record["sources"]:
        if item["via"] != "direct":
            continue  # TRY301 is about a `raise` in the `try` block itself
        site = callsites.get(item["id"])
        raised = tree.raise_of(site["line"], site["column"]) if site is not None else None
        if raised is not None:
            comparisons["TRY301"].erratlas.add(_key(key[0], raised))


def _explain(rule: str, key: Key, ruff_only: bool, tree: Source, by_key: dict[Key, dict],
             callsites: dict[str, dict], classes: ErrorClasses) -> str:
    if rule == "TRY301":
        raised = tree.raises.get((key[1], key[2]))
        if raised is None:
            return "unexplained"
        decidable = _decidable(key[0], raised, tree, by_key, callsites, classes) if ruff_only else "no"
        if decidable == "yes":
            return "unexplained"  # erratlas had all it needs: a miss, not a definition
        if decidable == "bases":
            return "the class raised has a base erratlas does not read (a class of the input that is no " \
                   "exception, a mixin, or one outside it), so an earlier clause is not ruled out: erratlas " \
                   "does not guess"
        return _explain_raise(raised, tree, ruff_only)
    handler = _handler_at(tree, key[1], key[2])
    if handler is None:
        return "unexplained"
    if key not in by_key:
        return "the clause is in a unit erratlas did not parse" if ruff_only else "unexplained"
    if rule == "B904":
        return _explain_b904(handler, ruff_only)
    if rule == "TRY203":
        return _explain_try203(handler, tree, ruff_only)
    # S110 reads the body and the classes as the comparison does: a `pass` body that is not a
    # swallow, or `Exception` not resolved, is erratlas's defect
    return "unexplained"


def _decidable(unit: str, raised: ast.Raise, tree: Source, by_key: dict[Key, dict],
               callsites: dict[str, dict], classes: ErrorClasses) -> str:
    """`yes` when erratlas has what it needs to catch this raise in its `try`: the error raised is
    a callsite of the inventory (`raise X(...)`) whose class a clause of the innermost `try` around
    it names exactly, the classes of every clause of that `try` resolve, and, when a clause comes
    before the one naming it, every base of the class is read (else `bases`); `no` otherwise."""
    child: ast.AST = raised
    for parent in tree.up(raised):
        if isinstance(parent, _SCOPES):
            return "no"
        if isinstance(parent, _TRIES) and child in parent.body:
            break
        child = parent
    else:
        return "no"
    if hasattr(ast, "TryStar") and isinstance(parent, ast.TryStar):
        return "no"
    records = [by_key[_key(unit, h)] for h in parent.handlers if _key(unit, h) in by_key]
    if len(records) != len(parent.handlers):
        return "no"
    named = [[c["resolved"] for c in (r["catches"] or [])] for r in records]
    if any(None in clause for clause in named) or raised.exc is None:
        return "no"
    made = [s["constructor"] for s in callsites.values()
            if s["unit"] == unit and _holds(raised.exc, s["line"], s["column"])]
    if len(made) != 1 or not any(made[0] in clause for clause in named):
        return "no"
    first = next(at for at, clause in enumerate(named) if made[0] in clause)
    return "yes" if first == 0 or classes.bases_read(made[0]) else "bases"


class ErrorClasses:
    """The scan's error classes (error-classes.jsonl), read against their `class` statements."""

    def __init__(self, records: list[dict], source: Callable[[str], Source | None]) -> None:
        self.by_name = {r["name"]: r for r in records}
        self.by_last: dict[str, list[str]] = {}
        for name in sorted(self.by_name):
            self.by_last.setdefault(name.rsplit(".", 1)[-1], []).append(name)
        self.source = source

    def bases_read(self, name: str) -> bool:
        """Every base of the class, up to the builtins, is a builtin exception or an error class
        of the scan (by its last name, one such class): a mixin, or a class outside the input,
        leaves erratlas's reading of its ancestry open, so it decides no clause naming another."""
        pending, seen = [name], set()
        while pending:
            current = pending.pop()
            if current in seen or current in _BUILTIN_ERRORS:
                continue
            seen.add(current)
            record = self.by_name.get(current)
            tree = self.source(record["unit"]) if record is not None else None
            node = next((n for n in ast.walk(tree.tree) if isinstance(n, ast.ClassDef) and n.lineno == record["line"]),
                        None) if tree is not None and record is not None else None
            if node is None:
                return False
            for base in node.bases:
                last = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", None)
                if last in _BUILTIN_ERRORS:
                    continue
                found = self.by_last.get(str(last), [])
                if len(found) != 1:
                    return False
                pending.append(found[0])
        return True


def _raises_in(handler: ast.ExceptHandler) -> list[tuple[ast.Raise, str | None]]:
    """The `raise` statements of a clause's body as erratlas reads it (nested `try` blocks
    entered, nested `except` bodies, functions and classes not), each with where ruff's B904
    does not look (`try`: in a nested `try` statement; `loop-else`: in the `else` of a `for` or
    `while`), else None."""
    out = []
    stack: list[tuple[ast.AST, str | None]] = [(s, None) for s in reversed(handler.body)]
    while stack:
        node, hidden = stack.pop()
        if isinstance(node, ast.Raise):
            out.append((node, hidden))
        if isinstance(node, (*_SCOPES, ast.ExceptHandler)):
            continue
        for child in reversed(list(ast.iter_child_nodes(node))):
            where = hidden or ("try" if isinstance(node, _TRIES) else None)
            if where is None and isinstance(node, (ast.For, ast.AsyncFor, ast.While)) and child in node.orelse:
                where = "loop-else"
            stack.append((child, where))
    return out


def _explain_b904(handler: ast.ExceptHandler, ruff_only: bool) -> str:
    name = handler.name
    # the raises without `from` of anything but the caught value: B904's, and erratlas's lost or partial
    wraps = [(r, hidden) for r, hidden in _raises_in(handler) if r.cause is None
             and r.exc is not None and not (isinstance(r.exc, ast.Name) and r.exc.id == name)]
    flagged = [r for r, hidden in wraps if hidden is None]
    if ruff_only:
        if flagged and all(_is_with_traceback(r.exc, name) for r in flagged):
            return "`raise e.with_traceback(tb)`: the caught error itself, a rethrow for erratlas"
        if flagged and all(_is_with_traceback(_bound_in(handler, r.exc), name) for r in flagged):
            return "`x = e.with_traceback(tb); raise x`: the caught error itself through a local, a rethrow " \
                   "for erratlas"
        return "unexplained"
    if flagged:
        return "unexplained"
    if any(hidden == "try" for _, hidden in wraps):
        return "raised in a `try` nested in the clause: ruff's B904 does not look inside nested `try` statements"
    if any(hidden == "loop-else" for _, hidden in wraps):
        return "raised in the `else` of a loop in the clause: ruff's B904 does not look there"
    if _returns_a_call(handler):
        return "a new error returned, not raised: erratlas's wrap, not a `raise` for B904"
    return "unexplained"  # every raise names its cause (`from e`): erratlas's verdict is wrong


def _returns_a_call(handler: ast.ExceptHandler) -> bool:
    """A `return X(...)` in the clause's own code (nested functions and `except` bodies aside)."""
    stack: list[ast.AST] = list(handler.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Call):
            return True
        if not isinstance(node, (*_SCOPES, ast.ExceptHandler)):
            stack.extend(ast.iter_child_nodes(node))
    return False


def _bound_in(handler: ast.ExceptHandler, exc: ast.expr | None) -> ast.expr | None:
    """What the name raised is bound to in the clause's own code, when it is bound there once (by
    `x = ...`, nested functions and `except` bodies aside); else None."""
    if not isinstance(exc, ast.Name):
        return None
    values = []
    stack: list[ast.AST] = list(handler.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name) and node.id == exc.id and isinstance(node.ctx, ast.Store):
            values.append(None)  # any binding; an `x = value` replaces its None below
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id == exc.id:
            values.append(node.value)
            stack.append(node.value)
            continue
        if not isinstance(node, (*_SCOPES, ast.ExceptHandler)):
            stack.extend(ast.iter_child_nodes(node))
    return values[0] if len(values) == 1 else None


def _is_with_traceback(exc: ast.expr | None, name: str | None) -> bool:
    return isinstance(exc, ast.Call) and isinstance(exc.func, ast.Attribute) and \
        exc.func.attr == "with_traceback" and isinstance(exc.func.value, ast.Name) and exc.func.value.id == name


def _explain_try203(handler: ast.ExceptHandler, tree: Source, ruff_only: bool) -> str:
    if ruff_only:
        if _immediate_reraise(handler) and len(handler.body) > 1:
            return "statements after the `raise` (unreachable): ruff's TRY203 reads the first statement only"
        return "unexplained"
    parent = tree.parents.get(handler)
    if hasattr(ast, "TryStar") and isinstance(parent, ast.TryStar):
        return "an `except*` clause: ruff's TRY203 does not report them"
    if not isinstance(handler.body[0], ast.Raise):
        return "a `pass` or a string before the `raise`: ruff's TRY203 reads the first statement only"
    if not all(_immediate_reraise(clause) for clause in getattr(parent, "handlers", [handler])):
        return "another clause of the same `try` does more than re-raise (an earlier one) or is not a bare " \
               "re-raise: ruff's TRY203 reports a `try` only when all its clauses are"
    return "unexplained"


def _immediate_reraise(handler: ast.ExceptHandler) -> bool:
    first = handler.body[0]
    if not isinstance(first, ast.Raise) or first.cause is not None:
        return False
    return first.exc is None or (isinstance(first.exc, ast.Name) and first.exc.id == handler.name)


def _explain_raise(raised: ast.Raise, tree: Source, ruff_only: bool) -> str:
    path = tree.up(raised)
    try_node = None
    child: ast.AST = raised
    nested_try = nested_scope = False
    for parent in path:
        if isinstance(parent, _TRIES) and child in parent.body:
            if try_node is None:
                try_node = parent
            else:
                nested_try = True
                try_node = parent
        elif isinstance(parent, _TRIES) and try_node is None:
            nested_try = True
        if isinstance(parent, _SCOPES) and try_node is None:
            nested_scope = True
        child = parent
    if ruff_only:
        if nested_scope:
            return "raised in a function nested in the `try` block: ruff's TRY301 looks inside it, erratlas " \
                   "keeps to the same function"
        called = raised.exc.func if isinstance(raised.exc, ast.Call) else raised.exc
        if hasattr(ast, "TryStar") and isinstance(try_node, ast.TryStar):
            return "raised to `except*` clauses: a group's members decide which catch it (erratlas does not " \
                   "guess), and a name raised is not resolved"
        if not isinstance(called, (ast.Name, ast.Attribute)):
            return "what is raised is not a class as written: not an error callsite of the inventory"
        return "what is raised does not resolve to an exception class of the inventory (a local, an attribute, " \
               "an unresolved name), or the handler's classes do not resolve: erratlas does not guess"
    if nested_try:
        return "raised in a nested `try` (in its block, its clauses not catching it, or in one of its clauses): " \
               "ruff's TRY301 does not look inside nested `try` statements"
    handlers = getattr(try_node, "handlers", []) if try_node is not None else []
    if any(h.type is None for h in handlers):
        return "a bare `except:` catches it: ruff's TRY301 needs a named class"
    if isinstance(raised.exc, ast.Name) and any(
            isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == raised.exc.id for t in s.targets)
            for s in tree.block_of(raised)):
        return "a raised local (`e = X(...); raise e`): ruff's TRY301 compares the name raised with the classes"
    raised_name = raised.exc.func if isinstance(raised.exc, ast.Call) else raised.exc
    named = {ast.unparse(t) for h in handlers if h.type is not None
             for t in (h.type.elts if isinstance(h.type, ast.Tuple) else [h.type])}
    if raised_name is not None and ast.unparse(raised_name) in named:
        return "unexplained"  # the very class a clause names: ruff's TRY301 should have it
    return "caught through the class hierarchy (a base class named): ruff's TRY301 compares names only"


def report(comparisons: list[Comparison]) -> str:
    lines = ["| rule | ruff | erratlas | both | ruff's found by erratlas | erratlas's found by ruff "
             "| the same, explained differences set aside | ruff findings not mapped |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    rows = [c.row() for c in comparisons]
    for row in rows:
        lines.append(f"| {row['rule']} | {row['ruff']} | {row['erratlas']} | {row['both']} | {row['ruffFound']}% "
                     f"| {row['erratlasFound']}% | {row['ruffFoundOrExplained']}% / "
                     f"{row['erratlasFoundOrExplained']}% | {row['unmapped']} |")
    for row in rows:
        for side, name in (("onlyRuff", "ruff only"), ("onlyErratlas", "erratlas only")):
            for item in row[side]:  # type: ignore[attr-defined]
                lines.append(f"- {row['rule']}, {name}: {item['unit']}:{item['line']}:{item['column']}: {item['why']}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target", type=Path, help="a Python tree (default: the installed pip package)")
    parser.add_argument("--scan", type=Path, help="an erratlas scan directory of the target (default: scan it now)")
    parser.add_argument("--ruff", default=str(Path(sys.executable).parent / "ruff"))
    parser.add_argument("--erratlas", default=str(Path(sys.executable).parent / "erratlas"))
    parser.add_argument("--json", type=Path, help="write the comparison as JSON to this file")
    args = parser.parse_args()
    if args.target is None:
        import pip

        args.target = Path(pip.__file__).parent
    target = args.target.resolve()
    findings = run_ruff(args.ruff, target)
    with tempfile.TemporaryDirectory() as temporary:
        scan = args.scan
        if scan is None:
            scan = Path(temporary) / "scan"
            run_erratlas([args.erratlas], target, scan)
        comparisons = compare(target, scan, findings)
    print(report(comparisons))
    if args.json is not None:
        args.json.write_text(json.dumps([c.row() for c in comparisons], indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
