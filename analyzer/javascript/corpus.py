"""The JavaScript side of the corpus: the distinctive signature of every function of a
package's files (`index_sources`, for `corpus add`) and of a bundle's units (`render_signatures`,
for `scan --signatures`; `signatures_of_bundle` for `suggest --corpus --bundle`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import orjson
from tree_sitter import Node, Tree

from analyzer.errors import InputError
from analyzer.javascript.modules import find_modules
from analyzer.javascript.signatures import UnitTokens
from analyzer.javascript.syntax import parse
from analyzer.model import Unit
from analyzer.signatures import BundleFunction, IndexedFunction, PackageIndex


def index_sources(sources: Iterable[tuple[str, bytes]]) -> PackageIndex:
    files: list[str] = []
    functions: list[IndexedFunction] = []
    bundles: set[int] = set()
    cache: dict[str, int] = {}
    for path, data in sources:
        if b"\x00" in data:
            continue
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        number = len(files)
        files.append(path)
        tree = parse(data)
        if len(find_modules(tree, data).modules) >= 2:
            bundles.add(number)
        functions.extend(_file_functions(number, tree, data, cache))
    return PackageIndex(files, functions, frozenset(bundles))


def _file_functions(number: int, tree: Tree, data: bytes, cache: dict[str, int]) -> Iterator[IndexedFunction]:
    tokens = UnitTokens(tree, data, cache)
    whole = tokens.whole()
    if whole.distinctive:
        yield IndexedFunction(number, "<module>", 1, whole.key, whole.tokens, whole.weight)
    for node, signature in zip(tokens.functions, tokens.function_signatures()):
        if signature.distinctive:
            yield IndexedFunction(number, function_name(node), signature.line, signature.key, signature.tokens,
                                  signature.weight)


def function_name(node: Node) -> str:
    """The name a reader would look for: declared, method, or what the function is assigned to."""
    named = node.child_by_field_name("name")
    if named is not None and node.type == "method_definition":
        body = node.parent
        owner = body.parent.child_by_field_name("name") if body is not None and body.parent is not None else None
        return _short(named) if owner is None else f"{_short(owner)}.{_short(named)}"
    if named is not None:
        return _short(named)
    parent = node.parent
    if parent is None:
        return "<anonymous>"
    if parent.type == "variable_declarator":
        target = parent.child_by_field_name("name")
    elif parent.type in ("pair", "field_definition", "public_field_definition"):
        target = parent.child_by_field_name("key") or parent.child_by_field_name("property")
    elif parent.type == "assignment_expression":
        target = parent.child_by_field_name("left")
    else:
        target = None
    return _short(target) if target is not None else "<anonymous>"


def _short(node: Node) -> str:
    text = (node.text or b"").decode("utf-8", "replace")
    return text if len(text) <= 80 else text[:77] + "..."


def unit_functions(unit: Unit, tree: Tree, cache: dict[str, int]) -> list[BundleFunction]:
    tokens = UnitTokens(tree, unit.source, cache)
    return [
        BundleFunction(unit.name, s.start, s.end, f"{s.key:016x}", s.tokens, s.weight)
        for s in tokens.function_signatures()
        if s.distinctive
    ]


def render_signatures(units: list[Unit], trees: list[Tree]) -> bytes:
    cache: dict[str, int] = {}
    rows = sorted((f for unit, tree in zip(units, trees) for f in unit_functions(unit, tree, cache)),
                  key=lambda f: (f.unit, f.start, -f.end))
    return b"".join(orjson.dumps([f.unit, f.start, f.end, f.key, f.tokens, f.weight]) + b"\n" for f in rows)


def signatures_of_bundle(bundle: Path, sha256: str) -> bytes:
    """The signature rows of `bundle`, parsed again; it must be the file the scan read."""
    import hashlib

    from analyzer.bundle.load import load_units
    from analyzer.javascript.syntax import parse

    digest = hashlib.sha256()
    with open(bundle, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest() != sha256:
        raise InputError(bundle, f"not the scanned bundle (sha256 {digest.hexdigest()}, the scan read {sha256})")
    units = load_units(bundle)
    return render_signatures(units, [parse(unit.source) for unit in units])
