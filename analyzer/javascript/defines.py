"""A package function's signature under a bundler's build-time define (docs/corpus.md, "Build-time
defines"): webpack's `mode`, rollup's replace plugin, esbuild's `define` and vite write
`process.env.NODE_ENV` as a string, and a minifier then decides the comparisons on it and drops the
dead branch. The bundle cannot say which code a define removed; the package can say what its code
becomes under each value, so the index holds a function again as each define reads (`DEFINES`)."""

from __future__ import annotations

import bisect
from itertools import accumulate

from tree_sitter import Node, Query, QueryCursor, Tree

from analyzer.javascript.chains import string_value
from analyzer.javascript.signatures import FunctionSignature, UnitTokens, mix, token_hash, weight_of
from analyzer.javascript.syntax import LANGUAGE

#: the values a bundle's define gives `process.env.NODE_ENV`
VALUES = ("production", "development")
#: (value, folded): the expression written as the value alone (a build left unminified), or with a
#: minifier's folding after it (comparisons decided, the dead branch dropped)
DEFINES = tuple((value, folded) for value in VALUES for folded in (False, True))
#: a cheap test before any query: a file that never names the variable has no variant
MARK = b"NODE_ENV"

_QUERY = Query(
    LANGUAGE,
    """
    (member_expression
      object: (member_expression object: (identifier) @process (#eq? @process "process")
                                 property: (property_identifier) @env (#eq? @env "env"))
      property: (property_identifier) @name (#eq? @name "NODE_ENV")) @define
    """,
)
_EQUALITY = {"===": False, "==": False, "!==": True, "!=": True}


class Defined:
    """Per define (`DEFINES`), the signed token changes of a unit in source order, summed as
    prefixes, so that a function's signature under a define is its own plus two subtractions."""

    def __init__(self, tree: Tree, source: bytes, tokens: UnitTokens, cache: dict[str, int]) -> None:
        self._tokens = tokens
        found = QueryCursor(_QUERY).captures(tree.root_node).get("define", [])
        #: an occurrence inside a built string: the value's text joins the string there (a minifier
        #: folds it); no variant is certain, so the unit has none
        self.found = bool(found) and not any(_building(n) for n in found)
        self._edits: dict[tuple[str, bool], tuple[list[int], list[int], list[int], list[int]]] = {}
        if not self.found:
            return
        for value, folded in DEFINES:
            changes: list[tuple[int, int, int, int]] = []  # (position, hash delta, count delta, weight delta)
            dropped = _outermost([span for n in found for span in _dead(n, value, source)]) if folded else []
            starts = [a for a, _ in dropped]
            for a, b in dropped:
                total, count, weight = tokens.raw(a, b)
                changes.append((a, -total, -count, -weight))
            for node in found:
                at = bisect.bisect_right(starts, node.start_byte) - 1
                if at >= 0 and node.start_byte < dropped[at][1]:
                    continue  # gone with its branch
                total, count, weight = tokens.raw(node.start_byte, node.end_byte)
                changes.append((node.start_byte, token_hash(value, cache) - total, 1 - count,
                                weight_of(value) - weight))
            changes.sort()
            self._edits[(value, folded)] = (
                [c[0] for c in changes], list(accumulate((c[1] for c in changes), initial=0)),
                list(accumulate((c[2] for c in changes), initial=0)),
                list(accumulate((c[3] for c in changes), initial=0)))

    def signature(self, start: int, end: int, line: int, kind: str, define: tuple[str, bool]) -> FunctionSignature:
        """The signature of [start, end) under `define`: a change counts when it starts inside."""
        positions, sums, counts, weights = self._edits[define]
        low, high = bisect.bisect_left(positions, start), bisect.bisect_left(positions, end)
        total, count, weight = self._tokens.raw(start, end)
        total += sums[high] - sums[low]
        count += counts[high] - counts[low]
        weight += weights[high] - weights[low]
        return FunctionSignature(start, end, mix(total & ((1 << 64) - 1), count), count, weight, line, kind)


def _building(node: Node) -> bool:
    parent = node.parent
    if parent is None:
        return False
    if parent.type == "template_substitution":
        return True
    if parent.type == "arguments":  # a `.concat` argument (docs/corpus.md, "Built strings")
        call = parent.parent
        callee = call.child_by_field_name("function") if call is not None else None
        named = callee.child_by_field_name("property") if callee is not None and callee.type == "member_expression" \
            else None
        return named is not None and named.text == b"concat"
    if parent.type == "binary_expression":
        operator = parent.child_by_field_name("operator")
        return operator is not None and operator.type == "+"
    return False


def _dead(node: Node, value: str, source: bytes) -> list[tuple[int, int]]:
    """The spans a minifier drops once `node` (`process.env.NODE_ENV`) reads `value`: a comparison
    with a string is decided, so its own text goes, and with it the branch it rules out where it is
    the whole test of an `if`, a `?:` or the left side of `&&`/`||`. Elsewhere nothing."""
    comparison = node.parent
    if comparison is None or comparison.type != "binary_expression":
        return []
    operator = comparison.child_by_field_name("operator")
    left, right = comparison.child_by_field_name("left"), comparison.child_by_field_name("right")
    if operator is None or operator.type not in _EQUALITY or left is None or right is None:
        return []
    other = right if left.id == node.id else left
    if other.type != "string":
        return []
    holds = (string_value(other, source) == value) != _EQUALITY[operator.type]
    spans = [(comparison.start_byte, comparison.end_byte)]
    test = comparison
    parent = test.parent
    while parent is not None and parent.type == "parenthesized_expression":
        test, parent = parent, parent.parent
    if parent is None:
        return spans
    if parent.type == "if_statement" and _is(parent, "condition", test):
        branch = parent.child_by_field_name("alternative" if holds else "consequence")
        if branch is not None:
            spans.append((branch.start_byte, branch.end_byte))
    elif parent.type == "ternary_expression" and _is(parent, "condition", test):
        branch = parent.child_by_field_name("alternative" if holds else "consequence")
        if branch is not None:
            spans.append((branch.start_byte, branch.end_byte))
    elif parent.type == "binary_expression" and _is(parent, "left", test):
        logical = parent.child_by_field_name("operator")
        kind = logical.type if logical is not None else ""
        if (kind == "&&" and not holds) or (kind == "||" and holds):
            spans.append((parent.start_byte, parent.end_byte))  # the right side never runs
    return spans


def _is(parent: Node, field: str, node: Node) -> bool:
    child = parent.child_by_field_name(field)
    return child is not None and child.id == node.id


def _outermost(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans not inside another, in order."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans, key=lambda s: (s[0], -s[1])):
        if out and a < out[-1][1]:
            continue
        out.append((a, b))
    return out
