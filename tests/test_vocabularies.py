"""The vocabularies are one `Literal` each in `analyzer/model.py`: both frontends write them, the
JSON Schemas spell them out, and every bundler finder of the one table makes modules of the
kinds `ModuleKind` names (docs/modules.md, "A new bundler format")."""

from __future__ import annotations

import json
import re
from typing import Any, get_args

import pytest
from conftest import FIXTURES, ROOT

from analyzer import model
from analyzer.javascript.modules import FINDERS, find_modules, found_by
from analyzer.javascript.syntax import parse

SCHEMAS = ROOT / "analyzer" / "schemas"
#: (schema file, path to an enumeration in it, the vocabulary it spells out)
ENUMERATIONS = [
    ("callsite-1.json", ("properties", "message", "properties", "shape", "enum"), model.MessageShape),
    ("callsite-1.json", ("properties", "consumer", "properties", "role", "enum"), model.ConsumerRole),
    ("callsite-1.json", ("properties", "calleeRole", "enum"), model.CalleeRole),
    ("callsite-1.json", ("properties", "flow", "properties", "fate", "anyOf", 0, "enum"), model.Fate),
    ("callsite-1.json", ("properties", "module", "anyOf", 0, "properties", "kind", "enum"), model.ModuleKind),
    ("template-1.json", ("properties", "shape", "enum"), model.MessageShape),
    ("module-1.json", ("properties", "kind", "enum"), model.ModuleKind),
    ("handler-1.json", ("properties", "form", "enum"), model.HandlerForm),
    ("handler-1.json", ("properties", "sources", "items", "properties", "via", "enum"), model.SourceVia),
    ("handler-1.json", ("properties", "branches", "items", "properties", "test", "anyOf", 0, "properties", "op",
                        "enum"), model.TestOp),
    ("handler-1.json", ("properties", "branches", "items", "properties", "test", "anyOf", 0, "properties", "reads",
                        "anyOf", 0, "properties", "op", "enum"), model.TestOp),
    ("handler-1.json", ("properties", "branches", "items", "properties", "dispositions", "items", "properties",
                        "kind", "enum"), model.Disposition),
    ("handler-1.json", ("properties", "branches", "items", "properties", "dispositions", "items", "properties",
                        "cause", "anyOf", 0, "enum"), model.CauseKept),
    ("handler-1.json", ("properties", "sourceBody", "anyOf", 0, "enum"), model.SourceBody),
]
#: bundles of every format the finders know: the demo's builds, and an `__esm` module (the
#: demo's ESM is scope-hoisted; real bundles wrap theirs)
BUNDLES = [(FIXTURES / "demo" / name).read_bytes() for name in (
    "demo.min.js", "demo.cjs.min.js", "demo.bun.min.js", "demo.webpack.min.js", "demo.browserify.min.js")] + [
    b'var __esm = (fn, res) => () => (fn && (res = fn(fn = 0)), res);\n'
    b'var x, init_a = __esm(() => { x = new Error("a"); });\ninit_a();\n']


def _at(document: Any, path: tuple[str | int, ...]) -> Any:
    for step in path:
        document = document[step]
    return document


@pytest.mark.parametrize(("schema", "path", "vocabulary"), ENUMERATIONS, ids=lambda v: getattr(v, "__name__", None))
def test_a_schema_enumeration_is_the_model_vocabulary_in_its_order(schema: str, path: tuple[str | int, ...],
                                                                   vocabulary: Any) -> None:
    document = json.loads((SCHEMAS / schema).read_text(encoding="utf-8"))
    assert _at(document, path) == list(get_args(vocabulary)), f"{schema}: spell out model.{vocabulary}"


def test_the_summary_counts_handlers_by_the_vocabularies() -> None:
    handlers = json.loads((SCHEMAS / "summary-1.json").read_text(encoding="utf-8"))["properties"]["handlers"]
    forms = [form for option in handlers["properties"]["byForm"]["oneOf"] for form in option["required"]]
    assert forms == list(get_args(model.HandlerForm))  # JavaScript's forms, then Python's
    assert handlers["properties"]["byDisposition"]["required"] == list(get_args(model.Disposition))


def test_the_summary_counts_by_shape_and_role_name_only_the_vocabulary() -> None:
    document = json.loads((SCHEMAS / "summary-1.json").read_text(encoding="utf-8"))
    counts = document["properties"]["counts"]["properties"]
    for kind in ("error", "diagnostic"):
        tables = counts[kind]["properties"]
        assert tables["byShape"]["propertyNames"]["enum"] == list(get_args(model.MessageShape))
        assert tables["byConsumerRole"]["propertyNames"]["enum"] == list(get_args(model.ConsumerRole))


def test_the_missing_message_is_defined_once() -> None:
    definitions = [path for path in (ROOT / "analyzer").rglob("*.py")
                   if re.search(r"^MISSING\s*[:=]", path.read_text(encoding="utf-8"), re.MULTILINE)]
    assert definitions == [ROOT / "analyzer" / "model.py"]


def test_every_finder_of_the_table_finds_modules_in_a_fixture_and_they_make_every_bundler_kind() -> None:
    trees = [(parse(source), source) for source in BUNDLES]
    kinds: set[str] = set()
    for finder in FINDERS:
        found = []
        for tree, source in trees:
            found.extend(found_by(finder, tree, source).modules)
        assert found, f"{finder.name}: no fixture holds a module it finds (add one to fixtures/)"
        kinds.update(span.kind for span in found)
    assert kinds | {"python-package"} == set(get_args(model.ModuleKind))
    for tree, source in trees:  # the table is what find_modules runs
        assert find_modules(tree, source).modules


def test_the_model_vocabularies_are_documented() -> None:
    reference = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    for vocabulary in (model.MessageShape, model.CalleeRole, model.ConsumerRole, model.Fate):
        for word in get_args(vocabulary):
            assert f"`{word}`" in reference, word
