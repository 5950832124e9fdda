"""The cut scanner (`scanner.statement_ends`: a pass that blanks strings, comments, regexes and
templates' text, then one over the brackets that skips groups below L's depth) against the
one-token-at-a-time scanner of 97924f4 (`tests/support/slices_97924f4.py`): the same ends, closers
and trouble, in the same order, on every fixture (of the toolchain's node_modules, a tenth in CI,
all with `-m long`), the hostile mutants, made-up token soups and the two real bundles."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FIXTURES
from hypothesis import given, settings
from hypothesis import strategies as st
from support import npm_cache
from support import slices_97924f4 as recorded

from analyzer.bundle.load import load_bundle
from analyzer.javascript import slice_scanner as scanner
from analyzer.javascript.syntax import new_parser

SOURCES = sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".js", ".mjs", ".cjs") and p.is_file())
#: the fixtures' own sources, then the toolchain's real-world JavaScript under fixtures/node_modules
#: (5,566 files when it is a directory: 46 s, 28 of them three copies of source-map.debug.js): CI
#: reads every 10th (557 files of 126 packages), the rest is `long`
CASES = [*(p for p in SOURCES if "node_modules" not in p.parts),
         *(p if number % 10 == 0 else pytest.param(p, marks=pytest.mark.long)
           for number, p in enumerate(p for p in SOURCES if "node_modules" in p.parts))]


def assert_as_recorded(source: bytes) -> None:
    mine, theirs = scanner.statement_ends(source), recorded.statement_ends(source)
    assert mine.trouble == theirs.trouble
    assert list(mine.ends.items()) == list(theirs.ends.items())
    assert list(mine.closers.items()) == list(theirs.closers.items())
    # the blanked bytes it hands the byte supersets: its first pass's, when its second read them
    hidden = scanner._hide(source)
    kept = hidden is not None and not scanner._unmatched_brackets(hidden[0])
    assert mine.masked == (hidden[0] if kept else None)  # type: ignore[index]


@pytest.mark.parametrize("path", CASES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_every_fixture_scans_as_recorded(path: Path) -> None:
    source = path.read_bytes()
    assert_as_recorded(source)
    for cut in (len(source) // 3, len(source) // 2):  # a unit cut anywhere: mostly trouble
        assert_as_recorded(source[:cut])
        assert_as_recorded(source[cut:])


@pytest.mark.parametrize("source", [
    b"a=`x${b}y${`z${c({d:1})}`}w`;e();", b"f(`${g;h}`);i();", b"j(`${k)}`);", b"l(`${m]`);", b"`${", b"`${}",
    b"n('(');o(\"[\");p(`{`);q(/\\(/);r(/[)]/g);", b"s=t/u/v;w=(x)/y/z;A=[1]/2/3;", b"B=C++/D/g;E=F--/G;",
    b"return/x/.test(a);typeof/y/;H=in/z/;", b"I=a /* ( */ /re/;J=b // )\n/re2/;", b"K=`a`/2;L='b'/3;",
    b"M=/a/g/2;N=/b/in/3/;", b"#!/usr/bin/env node\nO();", b"(function(){P();Q(function(){R();S();});})();",
    b"if(T)U();else V();do W();while(X);", b"Y=\"a\\\nb\";Z='c\\'d';", b"a=\xc3\xa9/b/;", b"a=.5/b/c;",
    b"{;{;{;{;(;[;]);};};};}", b"a(b(c(d(e(f(g(h(i(j(k(l(m(n(o(p(q(r(s(t(u(v(w(x(y(z(A(B(C(D(E(F(G(H(I(J))))))"
    b"))))))))))))))))))))))))))))));",
    b"x=`${`${`${(a)}`}`}`;y=`$`;z=`$${1}`;w=`\\${a`;",
    b"x='a'/2;y=1/3;z();w=\"b\"/2;v=1/3;u=`c`/2;t=1/3;s=(q)/2;r=1/3;", b"x=[a]/*c*/\n/2;y=1/3;",
])
def test_tricky_tokens_scan_as_recorded(source: bytes) -> None:
    assert_as_recorded(source)
    assert_as_recorded(b"(function(exports, require, module, __filename, __dirname) {" + source + b"})")
    assert_as_recorded(b"var q=a(()=>{" + source + b"});")


def test_groups_nested_deeper_than_the_skipped_depth_scan_as_recorded() -> None:
    for depth in (scanner._SKIPPED_DEPTH - 1, scanner._SKIPPED_DEPTH + 3, 200):
        body = b"f(" * depth + b"a;b/c/d;`${e}`" + b")" * depth
        assert_as_recorded(b"x(function(){" + body + b";g();});h();")
        assert_as_recorded(b"x(function(){" + body + b";g();}];h();")


#: a regex or a division after a comment, in the layouts unminified bundles have (esbuild keeps
#: comments: `[\n  // a note\n  /(?!\\)\?/g, ...]` in @google/gemini-cli 0.61.0's bundle)
AFTER_COMMENTS = [
    b"var a = [\n  // a note (?) here\n  /(?!\\\\)\\?/g,\n  () => 1\n];\nb();",
    b"var a = [ /* a note */ /(?!x)\\?/g ];\nb();",
    b"f(a, // a note\n  /x(/g);\ng();",
    b"x = a // a note\n  / b / c;\ny();",
    b"x = a /* a note */ / b / c;\ny();",
    b"x = a\n// one /* two\n/* three // */ / b / c;\ny();",
    b"if (a) {\n}\n// a note\n/(?:)/.test(b);\nc();",
    b"x = typeof /* a */ /(y)/;\nz();",
    b"return_ = b // a\n/2/3;\nc();",
]


@pytest.mark.parametrize("source", AFTER_COMMENTS)
def test_a_comment_before_a_slash_tells_nothing(source: bytes) -> None:
    """The comments between the token before a `/` and the `/` tell no regex from a division:
    the statement ends are tree-sitter's, as a whole unit and inside a wrapper's body."""
    for opening, closing in ((b"", b""), (b"(function(exports, require, module, __filename, __dirname) {", b"})")):
        unit = opening + source + closing
        root = new_parser().parse(unit).root_node
        assert not root.has_error
        if opening:
            body = root.named_children[0].named_children[0].named_children[0].child_by_field_name("body")
            statements, key = body.named_children, len(opening) - 1
        else:
            statements, key = root.named_children, scanner.PROGRAM
        scanned = scanner.statement_ends(unit)
        assert scanned.trouble is None
        assert scanned.ends.get(key, []) == [s.end_byte for s in statements if unit[s.end_byte - 1:s.end_byte] == b";"]
        assert_as_recorded(unit)


#: tokens that move the scanner between code, strings, comments, regexes, templates and brackets
TOKENS = [b"a", b"b1", b" ", b"\n", b"(", b")", b"[", b"]", b"{", b"}", b";", b"/", b"//", b"/*", b"*/", b"*",
          b"\"", b"'", b"`", b"${", b"$", b"\\", b"=", b",", b".", b"++", b"--", b"+", b"!", b"?", b":",
          b"return", b"in", b"typeof", b"else", b"while", b"do", b"of", b"\xc3\xa9", b"x/2", b"/re/g",
          b"'s;)'", b"\"d(]\"", b"`t`", b"'h'", b"\"i\"", b"1/3;", b"`u${v}w`", b"(a)", b"{b:1}", b"[c]", b"f(){g();}"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=60), st.sampled_from([b"", b"x(()=>{", b"y(function(){z(()=>{"]))
def test_token_soups_scan_as_recorded(tokens: list[bytes], opening: bytes) -> None:
    body = b"".join(tokens)
    assert_as_recorded(body)
    assert_as_recorded(opening + body + b"})" * opening.count(b"{"))


SNIPPETS = [b"a();", b"b=c/d/e;", b"f(/;}/g);", b"g('};');", b'h("\\";}");', b"i(`;}${j({k:1})};`);", b"l=m\n",
            b"if(n)o();else p();", b"do q();while(r);", b"/*;}*/s();", b"// ;}\nt();", b"function u(){return/;/}",
            b"class V{w=1;x(){}}", b"for(;;)break;", b"y++/2;", b"z=[1,2];", b"({a:1});", b"let A=`x`;", b";",
            b"B(function(){C();D(()=>{E;F})});", b"G=`${H(`${I;J}`)}`;", b"K=(L)/M/N;", b"O=[P]/2;"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(SNIPPETS), min_size=1, max_size=40), st.integers(0, 3))
def test_programs_nested_at_any_depth_scan_as_recorded(parts: list[bytes], depth: int) -> None:
    body = b"".join(parts)
    assert_as_recorded(b"a(function(){" * depth + body + b"})" * depth)


@pytest.mark.network
@pytest.mark.slow
@pytest.mark.parametrize(("package", "version"), [("@anthropic-ai/claude-code", "2.1.100"),
                                                  ("@anthropic-ai/claude-code-linux-x64", "2.1.235")])
def test_the_real_bundles_scan_as_recorded(package: str, version: str) -> None:
    units, _ = load_bundle(npm_cache.main_file(package, version))
    source = max(units, key=lambda unit: len(unit.source)).source
    scanned = scanner.statement_ends(source)
    assert scanned.trouble is None and sum(map(len, scanned.ends.values())) > 14_000
    assert_as_recorded(source)
