"""bench/growth.py's inputs: a release split into its imports and body stays valid JavaScript
when wrapped (the growth curve must not time the parser's error recovery)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def growth():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location("growth_bench", ROOT / "bench" / "growth.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


RELEASE = (b'#!/usr/bin/env node\n// a banner\n// https://example.com/jobs/1\n'
           b'import{a as b}from"x";var c=b();\nimport{d}from"y";\nfunction e(){return d(c)}\n')


def test_an_import_after_a_line_comment_keeps_the_comments_newline(growth) -> None:  # type: ignore[no-untyped-def]
    imports, body, cuts = growth.split_release(RELEASE, "r.js")
    assert imports == (b'import{a as b}from"x";', b'import{d}from"y";')
    assert b"// https://example.com/jobs/1\n" in body and b"var c=b();" in body
    assert not body.startswith(b"#!")
    wrapped = b"\n".join(imports) + b"\n" + growth.WRAP_OPEN + body + growth.WRAP_CLOSE
    assert not growth._parser().parse(wrapped).root_node.has_error
    assert [body[:cut].rstrip()[-1:] for cut in cuts] == [b"r", b"1", b";", b"}"]  # comments are children too


def test_every_cut_ends_a_statement_and_wraps_cleanly(growth) -> None:  # type: ignore[no-untyped-def]
    imports, body, cuts = growth.split_release(RELEASE, "r.js")
    for cut in cuts[1:]:
        wrapped = b"\n".join(imports) + b"\n" + growth.WRAP_OPEN + body[:cut] + growth.WRAP_CLOSE
        assert not growth._parser().parse(wrapped).root_node.has_error, body[:cut]


def test_a_release_with_a_syntax_error_is_refused(growth) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit, match=r"r\.js: tree-sitter finds a syntax error"):
        growth.split_release(b"var a = ;", "r.js")
