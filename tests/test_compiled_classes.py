"""Issue 21, point 7: error classes compiled to ES5 are listed in error-classes.jsonl with the same
fields as in class syntax. The inputs are Babel's (preset-env for IE 11, and loose) and
TypeScript's (target ES5) real output of fixtures/es5/src/, also minified by terser
(fixtures/tools/es5-build.mjs), ES5 written by hand, and socket.io-client 4.8.4's bundle."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES, scan

ES5 = FIXTURES / "es5"
BUILT = ["babel.js", "babel-loose.js", "typescript.js", "babel.min.js", "babel-loose.min.js", "typescript.min.js"]


def classes(bundle: Path, out: Path) -> list[dict]:  # type: ignore[type-arg]
    summary = scan(bundle, out)
    rows = [json.loads(line) for line in (out / "error-classes.jsonl").read_text().splitlines()]
    assert summary["errorClasses"] == len(rows)
    return rows


def shape(rows: list[dict]) -> list[tuple]:  # type: ignore[type-arg]
    """Each class's place in the chain (parent given as the class it names), root and fields."""
    names = {row["name"]: index for index, row in enumerate(rows)}
    return [(names.get(row["parent"], row["parent"]), row["rootConstructor"], row["fields"]) for row in rows]


@pytest.fixture(scope="module")
def native(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:  # type: ignore[type-arg]
    return classes(ES5 / "src" / "errors.js", tmp_path_factory.mktemp("native") / "out")


@pytest.mark.parametrize("built", BUILT)
def test_es5_error_classes_have_the_fields_of_their_class_syntax(built: str, native: list[dict],  # type: ignore[type-arg]
                                                                  tmp_path: Path) -> None:
    rows = classes(ES5 / "built" / built, tmp_path / "out")
    assert shape(rows) == shape(native) == [("Error", "Error", ["context", "description", "type"]),
                                            (0, "Error", ["after"])]
    if not built.endswith(".min.js") or built.startswith("babel"):  # terser keeps Babel's exported names
        assert [r["name"] for r in rows] == ["TransportError", "TimeoutError"]
    source = (ES5 / "built" / built).read_bytes()
    for row in rows:  # the class spans its IIFE: the code its name is bound to
        code = source[row["offset"]:row["endOffset"]]
        assert code.startswith(b"function") or code.startswith(b"(function"), code[:40]
        assert code.endswith(b")"), code[-40:]


def test_hand_written_es5_error_classes(tmp_path: Path) -> None:
    rows = classes(ES5 / "src" / "prototype.js", tmp_path / "out")
    assert [(r["name"], r["parent"], r["rootConstructor"], r["fields"]) for r in rows] == [
        ("LegacyError", "Error", "Error", ["code", "message", "name"]),
        ("AbortError", "Error", "Error", ["aborted"]),
    ]


def test_calls_that_only_look_like_inheritance_are_not_classes(tmp_path: Path) -> None:
    bundle = tmp_path / "lookalike.js"
    bundle.write_text(
        'var assert = require("assert");\n'
        "function block() { throw new Error('x'); }\n"
        "assert.throws(block, Error);\n"  # a two-argument call naming a function and Error
        "function register(f, g) { return [f, g]; }\n"
        "register(block, Error);\n"  # a helper that writes no prototype
        "var Plain = function (t) { function n() {} return n; }(Error);\n"  # an IIFE that inherits nothing
        "function Other() {}\n"
        "Other.prototype = Object.create(TypeError);\n"  # not the prototype of an error
    )
    assert classes(bundle, tmp_path / "out") == []


def test_a_class_extending_an_es5_error_class_is_an_error_class(tmp_path: Path) -> None:
    bundle = tmp_path / "mixed.js"
    bundle.write_text(
        "function s(t, e) { t.prototype = Object.create(e.prototype), t.prototype.constructor = t; }\n"
        "var A = function (t) { function n(m) { var e = t.call(this, m) || this; return e.code = 1, e; }"
        " return s(n, t), n; }(Error);\n"
        "class B extends A { constructor() { super('b'); this.extra = 2; } }\n"
        "var C = function (t) { function n() { return t.call(this) || this; } return s(n, t), n; }(B);\n"
    )
    rows = classes(bundle, tmp_path / "out")
    assert [(r["name"], r["parent"], r["rootConstructor"], r["fields"]) for r in rows] == [
        ("A", "Error", "Error", ["code"]), ("B", "A", "Error", ["extra"]), ("C", "B", "Error", []),
    ]


def test_an_es5_subclass_is_found_whichever_class_is_declared_first(tmp_path: Path) -> None:
    """A class no heritage names is searched for ES5 subclasses once the unit has any ES5 class,
    even when it was met before the first one was found (C before A here, and after it)."""
    helper = "function s(t, e) { t.prototype = Object.create(e.prototype), t.prototype.constructor = t; }\n"
    lone = "class C extends Error { constructor() { super('c'); this.c = 1; } }\n"
    named = "class A extends Error { constructor() { super('a'); this.a = 1; } }\nclass B extends A {}\n"
    es5 = ("var Z = function (t) { function n() { return t.call(this) || this; } return s(n, t), n; }(A);\n"
           "var Y = function (t) { function n() { var e = t.call(this) || this; return e.y = 1, e; }"
           " return s(n, t), n; }(C);\n")
    found = []
    for index, classes_first in enumerate([lone + named, named + lone]):
        bundle = tmp_path / f"order{index}.js"
        bundle.write_text(helper + classes_first + es5)
        found.append(sorted((r["name"], r["parent"], r["fields"]) for r in classes(bundle, tmp_path / f"out{index}")))
    assert found[0] == found[1] == [("A", "Error", ["a"]), ("B", "A", []), ("C", "Error", ["c"]),
                                    ("Y", "C", ["y"]), ("Z", "A", [])]


@pytest.mark.network
def test_socket_io_client_lists_its_es5_transport_error(tmp_path: Path) -> None:
    from support import npm_cache

    bundle = npm_cache.main_file("socket.io-client", "4.8.4")
    rows = classes(bundle, tmp_path / "out")
    (transport,) = rows
    assert (transport["parent"], transport["rootConstructor"], transport["fields"]) == (
        "Error", "Error", ["context", "description", "type"])
    code = bundle.read_bytes()[transport["offset"]:transport["endOffset"]]
    assert b'"TransportError"' in code and code.endswith(b"(Error))")
