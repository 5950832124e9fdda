"""Where nodes are: character spans of every node, and character offsets -> byte offsets, lines,
columns. `walk` computes what libcst's `ByteSpanPositionProvider` computes, in one codegen pass
that also hands every node to a collector; `SourceMap` turns the few offsets we report into byte
offsets, lines and columns (docs/performance.md, "One pass over a module")."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from itertools import accumulate
from typing import Protocol

import libcst as cst
from libcst._nodes.internal import CodegenState

Span = tuple[int, int]


Handlers = dict[type, Callable[[cst.CSTNode], None]]


class Visitor(Protocol):
    """What the pass hands nodes to: its ancestor stack, kept by the pass, and per node type
    what to call when such a node starts and when it ends."""

    stack: list[cst.CSTNode]

    def entering(self) -> Handlers: ...

    def leaving(self) -> Handlers: ...


class _Nobody:
    def __init__(self) -> None:
        self.stack: list[cst.CSTNode] = []

    def entering(self) -> Handlers:
        return {}

    def leaving(self) -> Handlers:
        return {}


def walk(module: cst.Module, visitor: Visitor) -> dict[int, Span]:
    """Character span `(start, end)` of every node of `module`, by `id` of the node (libcst
    nodes hash in Python; ints in C); `visitor` sees every node."""
    state = _SpanState(visitor, default_indent=module.default_indent, default_newline=module.default_newline)
    module._codegen(state)
    return state.spans


def node_spans(module: cst.Module) -> dict[int, Span]:
    return walk(module, _Nobody())


class _SpanState(CodegenState):
    __slots__ = ("entering", "leaving", "position", "spans", "stack", "starts")

    def __init__(self, visitor: Visitor, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.spans: dict[int, Span] = {}
        self.position = 0
        self.starts: list[int] = []
        self.stack = visitor.stack
        self.entering, self.leaving = visitor.entering(), visitor.leaving()

    def add_indent_tokens(self) -> None:
        tokens = self.indent_tokens
        self.tokens.extend(tokens)
        for token in tokens:
            self.position += len(token)

    def add_token(self, value: str) -> None:
        self.tokens.append(value)
        self.position += len(value)

    def pop_trailing_newline(self) -> None:
        if self.tokens:
            self.position -= len(self.tokens.pop())

    def before_codegen(self, node: cst.CSTNode) -> None:
        self.starts.append(self.position)
        self.stack.append(node)
        handler = self.entering.get(type(node))
        if handler is not None:
            handler(node)

    def after_codegen(self, node: cst.CSTNode) -> None:
        self.stack.pop()
        handler = self.leaving.get(type(node))
        if handler is not None:
            handler(node)
        start = self.starts.pop()
        key = id(node)
        if key not in self.spans:
            self.spans[key] = (start, self.position)

    def record_syntactic_position(  # type: ignore[override]
        self, node: cst.CSTNode, *, start_node: cst.CSTNode | None = None, end_node: cst.CSTNode | None = None
    ) -> _Syntactic:
        return _Syntactic(self, node, start_node, end_node)


class _Syntactic:
    __slots__ = ("end_node", "node", "start", "start_node", "state")

    def __init__(self, state: _SpanState, node: cst.CSTNode, start_node: cst.CSTNode | None,
                 end_node: cst.CSTNode | None) -> None:
        self.state, self.node, self.start_node, self.end_node = state, node, start_node, end_node

    def __enter__(self) -> None:
        self.start = self.state.position

    def __exit__(self, kind: object, *exc: object) -> None:
        if kind is not None:  # the walk failed inside (a RecursionError): say nothing over it
            return
        spans = self.state.spans
        start = spans[id(self.start_node)][0] if self.start_node is not None else self.start
        end = spans[id(self.end_node)][1] if self.end_node is not None else self.state.position
        spans[id(self.node)] = (start, end)


_NEWLINE = re.compile("\n")


class SourceMap:
    """Character offsets of one decoded unit -> byte offsets, lines and columns (1-based,
    lines counted by `\\n` only, columns in code points: as the JavaScript frontend does)."""

    def __init__(self, text: str, encoding: str) -> None:
        self.text = text
        self._newlines = [m.start() for m in _NEWLINE.finditer(text)]
        if text.isascii():  # every encoding Python source may declare is ASCII-compatible
            self._wide: list[int] = []
            self._extra: list[int] = []
        else:
            wide = [i for i, ch in enumerate(text) if ord(ch) > 0x7F]
            self._wide = wide
            self._extra = list(accumulate(len(text[i].encode(encoding)) - 1 for i in wide))

    def byte(self, offset: int) -> int:
        if not self._wide:
            return offset
        count = bisect_right(self._wide, offset - 1)
        return offset + (self._extra[count - 1] if count else 0)

    def line_column(self, offset: int) -> tuple[int, int]:
        before = bisect_right(self._newlines, offset - 1)
        line_start = self._newlines[before - 1] + 1 if before else 0
        return before + 1, offset - line_start + 1
