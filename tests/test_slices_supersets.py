"""The byte supersets a sliced extraction checks its slices against (`slice_supersets.supersets`,
docs/slices.md, "The byte supersets"): L's declared names hold `references.listing`'s names, the
level-option calls per callee are at least `logger.level_options`', and the throwers hold every
top-level function `handlers.sources._Graph` may call a thrower (one declared once, with a `throw`
statement whose innermost function it is: `_Graph.throwing` is a subset of those); on every
fixture whose top-level list is the plan's L, on made-up units, and on the two real bundles. And
the driver's one pass (`slice_supersets.scanned_supersets`) against the scanner's pass and the
supersets of a26b21f (`tests/support/supersets_a26b21f.py`): the same plan and the same supersets,
on every fixture, cut anywhere, made-up units and token soups, and the two real bundles."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from conftest import FIXTURES
from hypothesis import given, settings
from hypothesis import strategies as st
from support import npm_cache
from support import supersets_a26b21f as recorded
from support.throwers import may_be_hot, may_throw
from tree_sitter import Query, QueryCursor

from analyzer.bundle.load import load_bundle
from analyzer.javascript import logger, slice_supersets, slices
from analyzer.javascript.modules import find_modules
from analyzer.javascript.modules.statements import main_container
from analyzer.javascript.references import _top_list, listing
from analyzer.javascript.rules import compile_rules
from analyzer.javascript.slice_scanner import PROGRAM, statement_ends
from analyzer.javascript.syntax import LANGUAGE, new_parser
from analyzer.rules import load_rules

RULES = compile_rules(load_rules("javascript"))
SOURCES = sorted(p for p in FIXTURES.rglob("*")
                 if p.suffix in (".js", ".mjs", ".cjs") and p.is_file() and "node_modules" not in p.parts)
FIELDS = ("names", "level_option_calls", "throwers", "hot", "cold")


#: the protected blocks of every try statement, with a handler or not
_TRY_BLOCKS = QueryCursor(Query(LANGUAGE, "(try_statement body: (statement_block) @block)"))


def exact_and_bytes(source: bytes) -> tuple[frozenset[bytes], Counter[str], set[bytes], set[bytes], set[bytes],
                                            slice_supersets.Supersets] | None:
    """The whole tree's names, level-option calls, possible throwers, hot functions and words of
    its protected blocks, and the
    byte supersets (from the scanner's blanked bytes, equal to the supersets' own blanking's);
    None when the tree's top-level list is not one a plan slices (an IIFE's body) or the scanner
    is unsure."""
    tree = new_parser().parse(source)
    top = _top_list(tree.root_node)
    if top != main_container(tree.root_node):
        return None
    braces = None if top.type == "program" else (top.start_byte, top.end_byte - 1)
    made = slice_supersets.supersets(source, braces, RULES.level_key, RULES.options_argument)
    if made is None:
        return None
    assert made == slice_supersets.supersets(source, braces, RULES.level_key, RULES.options_argument,
                                             statement_ends(source).masked)
    items = listing(tree, source, find_modules(tree, source))
    calls = Counter(option.callee for option in logger.level_options(tree, source, RULES))
    throwing = may_throw(tree.root_node, items.raw)
    guarded = {word for block in _TRY_BLOCKS.captures(tree.root_node).get("block", ())
               for word in source[block.start_byte:block.end_byte].translate(slice_supersets._SPACES).split()}
    return items.names, calls, throwing, may_be_hot(items.raw, throwing), guarded, made


def assert_supersets(source: bytes) -> slice_supersets.Supersets | None:
    found = exact_and_bytes(source)
    if found is None:
        return None
    names, calls, throwers, hot, guarded, made = found
    assert made.guarded is not None and guarded <= made.guarded, sorted(guarded - (made.guarded or set()))[:10]
    assert names <= made.names, sorted(names - made.names)[:10]
    assert throwers <= made.throwers, sorted(throwers - made.throwers)[:10]
    assert hot <= made.hot, sorted(hot - made.hot)[:10]
    cold = {slice_supersets._NAMES.match(source, at).group() for at in made.cold}  # type: ignore[union-attr]
    assert not hot & cold, sorted(hot & cold)[:10]
    assert all(made.level_option_calls.get(name, 0) >= count for name, count in calls.items()), calls
    return made


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_every_fixture_s_supersets_hold_its_exact_values(path: Path) -> None:
    assert_supersets(path.read_bytes())


BUN = b"// @bun @bytecode @bun-cjs\n(function(exports, require, module, __filename, __dirname) {%s})\n"


@pytest.mark.parametrize("wrapped", [False, True])
def test_declarations_of_every_kind_are_in_the_names(wrapped: bool) -> None:
    body = (b"var a=1,b=f(x,y),c;let{d,e:[g,h=i]}=j,[k,,l]=m;const n=`${o(p)}`,q=/,/g,r=(s,t)=>{var u=1};"
            b"function v(w){var z=2}function*A(){}async function B(){}class C extends D{}export const E=1;"
            b"var F=1\nvar G=2\nvar H=" + b"(" * 40 + b"1" + b")" * 40 + b",I=3;"
            b"x({level:'warn'},1);L(a,{level:'error'});L(b,{level:2,m:1});M(a,{n:{level:1}});N.O(a,{level:1});"
            b"P(a,/*c*/{level:1});Q(a,b,{level:1});R(a,{'level':1});function J(a){if(a)throw a}"
            b"const K=()=>{throw 1},S=function(){g(()=>{throw 2})};function T(){" + b"(" * 40 + b"1" + b")" * 40
            + b";throw 3}function U(){h('throw')}const W=1;function V(){return J(1)}const X=a=>K(a),"
            b"Y=function(){if(a)return T\n}\nfunction Z(){JJ()}")
    source = BUN % body if wrapped else body
    made = assert_supersets(source)
    assert made is not None
    assert {b"a", b"b", b"c", b"d", b"g", b"h", b"k", b"l", b"n", b"q", b"r", b"v", b"A", b"B", b"C", b"E", b"F",
            b"G", b"H", b"I"} <= made.names
    assert not {b"u", b"w", b"z", b"s", b"t", b"x", b"y"} & made.names
    assert made.level_option_calls == {"L": 2, "P": 1, "R": 1}
    assert made.throwers == {b"J", b"K", b"S", b"T", b"U"}  # U: a string's word is taken for the token
    # V and X call throwers; Y names one, which is enough; Z calls none
    assert made.hot == made.throwers | {b"V", b"X", b"Y"}
    # the other functions of one name, from the name to their end
    assert sorted(made.cold.items()) == [(source.index(b"r=("), source.index(b";function v")),
                                         (source.index(b"v(w)"), source.index(b"function*A")),
                                         (source.index(b"A()"), source.index(b"async function B")),
                                         (source.index(b"B()"), source.index(b"class C")),
                                         (source.index(b"Z()"), source.index(b"Z()") + len(b"Z(){JJ()}"))]


@pytest.mark.network
@pytest.mark.slow
@pytest.mark.parametrize(("package", "version"), [("@anthropic-ai/claude-code", "2.1.100"),
                                                  ("@anthropic-ai/claude-code-linux-x64", "2.1.235")])
def test_the_real_bundles_supersets_hold_their_exact_values(package: str, version: str) -> None:
    units, _ = load_bundle(npm_cache.main_file(package, version))
    source = max(units, key=lambda unit: len(unit.source)).source
    assert assert_supersets(source) is not None
    assert assert_as_recorded(source) is not None


def assert_as_recorded(source: bytes) -> slice_supersets.Supersets | None:
    """The driver's pass gives the plans of the scanner's whole pass, the same ends of L and the
    wrapper's closer, and the supersets a26b21f gives for that L."""
    scanned, made = slice_supersets.scanned_supersets(source, RULES.level_key, RULES.options_argument)
    full = statement_ends(source)
    assert scanned.trouble == full.trouble
    for count in (2, 3, 7):
        assert slices.plan_of(source, count, scanned) == slices.plan_of(source, count, full)
    if full.trouble is not None:
        assert made is None
        return None
    head = slices._BUN_CJS_HEAD.match(source)
    opener = PROGRAM if head is None else head.end() - 1
    assert scanned.ends.get(opener) == full.ends.get(opener)
    assert scanned.closers.get(opener) == full.closers.get(opener)
    braces = None if head is None else (opener, full.closers[opener])
    theirs = recorded.supersets(source, braces, RULES.level_key, RULES.options_argument, full.masked)
    assert made is not None and theirs is not None
    assert [getattr(made, name) for name in FIELDS] == [getattr(theirs, name) for name in FIELDS]
    return made


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_every_fixture_s_one_pass_gives_the_recorded_plan_and_supersets(path: Path) -> None:
    source = path.read_bytes()
    assert_as_recorded(source)
    assert_as_recorded(BUN % source)
    for cut in (len(source) // 3, len(source) // 2):  # a unit cut anywhere: mostly trouble
        assert_as_recorded(source[:cut])
        assert_as_recorded(source[cut:])


def test_the_scanner_s_pass_gives_the_ends_where_the_one_pass_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a byte the one pass cannot read (none seen: forced here), the scanner's own pass
    gives the ends, and the supersets stop there as a26b21f's do."""
    declarations = slice_supersets._declarations
    monkeypatch.setattr(slice_supersets, "_declarations", lambda *args: (*declarations(*args)[:4], -1))
    for body in (b"var a=1;function b(){throw 1}c();", b"x(function(){y();});z();"):
        for source in (body, BUN % body):
            assert assert_as_recorded(source) is not None
            assert slice_supersets.scanned_supersets(source, "level", 1)[0] == statement_ends(source)


#: statements and pieces of them: declarations of every kind, literals hiding brackets and `;`,
#: ASI, `else` and `while` after a `;`, groups nested deeper than the pass jumps whole
SNIPPETS = [b"var a=1,b=f(x,y),c;", b"let{d,e:[g,h=i]}=j,[k,,l]=m;", b"const n=`${o(p)}`,q=/,/g,r=(s,t)=>{var u=1};",
            b"function v(w){var z=2}", b"function*A(){}", b"async function B(){}", b"class C extends D{}",
            b"export const E=1;", b"var F=1\nvar G=2\n", b"var H=" + b"(" * 40 + b"1" + b")" * 40 + b",I=3;",
            b"x({level:'warn'},1);", b"L(a,{level:'error'});", b"P(a,/*c*/{level:1});", b"R(a,{'level':1});",
            b"function J(a){if(a)throw a}", b"const K=()=>{throw 1},S=function(){g(()=>{throw 2})};",
            b"function U(){h('throw')}", b"function V(){return J(1)}", b"const X=a=>K(a),", b"Y=1\n",
            b"if(n)o();else p();", b"do q();while(r);", b"/*;}*/s();", b"// ;}\nt();", b"g('};');", b'h("\\";}");',
            b"i(`;}${j({k:1})};`);", b"y++/2;", b"z=[1,2];", b"({a:1});", b"let A2=`x`;", b";", b"a=b/c/d;",
            b"f(/;}/g);", b"G2=`${H(`${I;J}`)}`;", b"K2=(L)/M/N;", b"var\\u0061=1;", b"var $=1,_=2,\xc3\xa9=3;",
            b"function T(){" + b"[" * 40 + b"1" + b"]" * 40 + b";throw 3}", b"class{};", b"var", b"function",
            b"'it\"s';", b"`it's`;", b"#x;", b"a.var=1;", b"let\nb=2;", b"{var c=3}", b"(", b")", b"}", b"'"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(SNIPPETS), max_size=30), st.booleans())
def test_made_up_units_give_the_recorded_plan_and_supersets(parts: list[bytes], wrapped: bool) -> None:
    body = b"".join(parts)
    assert_as_recorded(BUN % body if wrapped else body)


#: try statements: with and without a handler, nested, in a template's substitution, a block
#: nested deeper than the regex jumps, braces in a comment and a string, a word ending in `try`
TRIES = [b"try{a()}catch(e){}", b"try{b(c)}finally{}", b"function W(){try{X2(`${Y2()}`)}catch{}}",
         b"try{" + b"{" * 40 + b"d()" + b"}" * 40 + b"}catch(e){}", b"var retry={};", b"entry:{}",
         b"try {/*}*/e('}')} catch(f){}", b"x=()=>{try{try{g()}catch{}h()}catch{}};",
         b"k=`${(()=>{try{l()}catch{}})()}`;", b"function J(a){if(a)throw a}", b"var F=1\n",
         b"class C{m(){try{n()}catch{}}}"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TRIES), max_size=12), st.booleans())
def test_the_guarded_words_hold_every_protected_block_s_words(parts: list[bytes], wrapped: bool) -> None:
    body = b"".join(parts)
    made = assert_supersets(BUN % body if wrapped else body)
    assert made is None or made.guarded is not None
    if made is not None and b"try{a()}" not in body and b"try{b(c)}" not in body and b"try {" not in body:
        assert b"a" not in made.guarded and b"retry" not in made.guarded
