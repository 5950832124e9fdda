"""The located TOML reading (analyzer/tomlfile.py), property-tested: whatever form and quoting
an allowlist uses, every entry and key is located where it is written; and whatever the text,
the one-pass reader locates and refuses exactly as the two-pass reader of 73a828f
(`tests/support/tomlfile_73a828f.py`) did."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any
from unittest.mock import patch

import pytest
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st
from support import tomlfile_73a828f as recorded

from analyzer import tomlfile
from analyzer.errors import InputError
from analyzer.owners.allowlist import parse_allowlist
from analyzer.tomlfile import MAX_DEPTH, MAX_TOKENS, parse_toml

_FINGERPRINT = re.compile(r"fp1f?:[0-9a-f]{32}")
HEADERS = ["[[entry]]", "[[ entry ]]", '[["entry"]]', "[[ 'entry' ]]", "  [[entry]]  # a comment"]
STRINGS = ['"{}"', "'{}'", '"""{}"""', "'''{}'''", '"""\n{}"""']
GAPS = ["", "\n", "# between\n", "\n\n  # indented comment\n"]


@st.composite
def entries(draw: st.DrawFn) -> list[dict[str, str]]:
    count = draw(st.integers(1, 6))
    out = []
    for _ in range(count):
        level = draw(st.sampled_from(["callsite", "function"]))
        digest = draw(st.text("0123456789abcdef", min_size=32, max_size=32))
        owner = draw(st.sampled_from(["Product", "Dependency"]))
        entry = {"level": level, "fingerprint": ("fp1:" if level == "callsite" else "fp1f:") + digest, "owner": owner}
        if owner == "Dependency":
            entry["package"] = draw(st.sampled_from(["zod", "@scope/pkg", "ms"]))
        out.append(entry)
    return out


def quoted(draw: st.DrawFn, value: str, multiline: bool = True) -> str:
    shapes = STRINGS if multiline else STRINGS[:2]
    return draw(st.sampled_from(shapes)).format(value)


def header_form(draw: st.DrawFn, entry: dict[str, str]) -> str:
    match_form = draw(st.sampled_from(["inline", "dotted", "subtable"]))
    fingerprint = quoted(draw, entry["fingerprint"], multiline=False)
    keys = [f"owner = {quoted(draw, entry['owner'])}"]
    if "package" in entry:
        keys.append(f"package = {quoted(draw, entry['package'])}")
    keys += [f"reason = {quoted(draw, 'r')}", 'reviewedBy = "t"', "reviewedOn = 2026-01-01"]
    if match_form == "inline":
        keys.insert(draw(st.integers(0, len(keys))), f"match = {{ {entry['level']} = {fingerprint} }}")
    elif match_form == "dotted":
        keys.insert(draw(st.integers(0, len(keys))), f"match.{entry['level']} = {fingerprint}")
    body = "\n".join(draw(st.sampled_from(GAPS)) + key for key in keys)
    if match_form == "subtable":
        body += f"\n[entry.match]\n{entry['level']} = {fingerprint}"
    return f"{draw(st.sampled_from(HEADERS))}\n{body}\n"


def inline_form(draw: st.DrawFn, entry: dict[str, str]) -> str:
    fingerprint = quoted(draw, entry["fingerprint"], multiline=False)
    match = draw(st.sampled_from([f"match = {{ {entry['level']} = {fingerprint} }}",
                                  f"match.{entry['level']} = {fingerprint}"]))
    keys = [match, f"owner = {quoted(draw, entry['owner'], False)}"]
    if "package" in entry:
        keys.append(f"package = {quoted(draw, entry['package'], False)}")
    keys += ['reason = "r"', "reviewedBy = 't'", "reviewedOn = 2026-01-01"]
    return "{ " + ", ".join(keys) + " }"


@st.composite
def documents(draw: st.DrawFn) -> tuple[str, list[dict[str, str]]]:
    chosen = draw(entries())
    head = draw(st.sampled_from(["", 'schema = "erratlas.allowlist/1"\n', "# top\n"]))
    if draw(st.booleans()):
        return head + "\n".join(header_form(draw, e) for e in chosen), chosen
    separator = draw(st.sampled_from([", ", ",\n  ", ",\n  # c\n  "]))
    return head + "entry = [\n  " + separator.join(inline_form(draw, e) for e in chosen) + "\n]\n", chosen


@settings(max_examples=300, deadline=None)
@given(documents())
def test_every_entry_and_key_is_located_where_it_is_written(document: tuple[str, list[dict[str, str]]]) -> None:
    text, chosen = document
    parsed = parse_toml(text.encode(), "a.toml", "allowlist")
    assert parsed.data == tomllib.loads(text)
    lines = text.split("\n")
    for index, body in enumerate(parsed.data["entry"]):
        line, column = parsed.positions[("entry", index)]
        rest = "\n".join([lines[line - 1][column - 1:], *lines[line:]])
        assert _FINGERPRINT.search(rest).group() == chosen[index]["fingerprint"]  # type: ignore[union-attr]
        for key in body:
            line, column = parsed.positions[("entry", index, key)]
            assert lines[line - 1][column - 1:].lstrip("\"'").startswith(key), (key, lines[line - 1])
    allowlist = parse_allowlist(parsed, "a.toml")
    assert [e.fingerprint for e in allowlist.entries] == [e["fingerprint"] for e in chosen]
    assert len({e.origin for e in allowlist.entries}) == len(chosen)


@pytest.mark.parametrize("opening", ["[", "{ a = ", "[{ a = "])
def test_nesting_past_the_bound_is_refused_before_parsing(opening: str) -> None:
    closing = {"[": "]", "{ a = ": "}", "[{ a = ": "}]"}[opening]
    deep = ("x = " + opening * 20_000 + "1" + closing * 20_000 + "\n").encode()
    with pytest.raises(InputError, match=f"nests brackets more than {MAX_DEPTH} deep"):
        parse_toml(deep, "deep.toml", "allowlist")
    shallow = ("x = " + "[" * 10 + "1" + "]" * 10 + "\n").encode()
    assert parse_toml(shallow, "ok.toml", "allowlist").data["x"]


def test_brackets_inside_strings_and_comments_do_not_count() -> None:
    text = 'a = "' + "[" * 100 + '"\nb = \'\'\'' + "{" * 100 + "'''\n# " + "[" * 100 + "\n"
    assert parse_toml(text.encode(), "ok.toml", "allowlist").data["a"] == "[" * 100


@pytest.mark.parametrize("text", ["a" + ".b" * 20_000 + " = 1\n", "[" + "a." * 20_000 + "b]\n"])
def test_keys_dotted_past_the_bound_are_refused(text: str) -> None:
    with pytest.raises(InputError, match=f"a key of more than {MAX_DEPTH} dotted parts"):
        parse_toml(text.encode(), "dotted.toml", "allowlist")
    assert parse_toml(b"a.b.c = 1.5\nd = 1979-05-27T07:32:00.25Z\n", "ok.toml", "allowlist").data["a"]["b"]["c"] == 1.5


def test_more_tokens_than_the_bound_are_refused() -> None:
    dense = ("a = [" + "1," * MAX_TOKENS + "1]\n").encode()
    with pytest.raises(InputError, match=f"more than {MAX_TOKENS} keys, values and brackets"):
        parse_toml(dense, "dense.toml", "allowlist")


# ---- the same positions and errors as the two-pass reader ------------------------------------

NAMES = ["a", "entry", "match", "owner", "x-y", "_k", "1", "true", "inf", "a b", "a.b", "", "é", 'q"', "t'",
         "#h", "[x]", "{y}", "k=v", ",", "tab\there"]
SCALARS = [
    "1", "-5", "+7", "1_000", "0x1F", "0b1", "3.14", "1e5", "-2.5E-3", "inf", "nan", "true", "false",
    "1979-05-27", "07:32:00.999", "1979-05-27T07:32:00Z", "1979-05-27 07:32:00.25+01:00",
    '""', '"x"', '"fp1:0123456789abcdef0123456789abcdef"', '"a # b [ { = , ."', '"q\\"uote \\\\ \\u00e9"',
    "''", "'x'", "'C:\\path # [x]'", '"""x"""', '"""\nfirst line skipped"""', '"""one " two "" three"""',
    '"""line \\\n  continued"""', '"""# no comment\n[no] = header"""', "'''x'''", "'''a\n[x]\n'''",
    "'''one ' two '' three'''",
]
SPACES = ["", " ", "  ", "\t"]
COMMENTS = ["", "", " # c", "# [x] {y} = \"q\"", " #"]
INSERTED = ["[", "]", "[[", "{", "}", ".", "=", ",", '"', "'", '"""', "#", "\n", "\r", " "]


@st.composite
def toml_texts(draw: st.DrawFn) -> str:
    """A document in any of the forms people write: pairs, dotted keys, inline tables and arrays
    (across lines, with comments), [tables], [[arrays of tables]] with sub-tables, any quoting
    and spacing, LF or CRLF; names are made unique, so that nearly every document is valid."""
    names = iter(range(1_000_000))
    newline = draw(st.sampled_from(["\n", "\n", "\r\n"]))

    def space() -> str:
        return draw(st.sampled_from(SPACES))

    def key() -> str:
        name = draw(st.sampled_from(NAMES)) + str(next(names))
        if re.fullmatch(r"[A-Za-z0-9_-]+", name) and draw(st.booleans()):
            return name
        if "'" not in name and draw(st.booleans()):
            return f"'{name}'"
        return '"' + name.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t") + '"'

    def dotted(most: int) -> str:
        return (space() + "." + space()).join(key() for _ in range(draw(st.integers(1, most))))

    def value(depth: int = 0) -> str:
        form = draw(st.integers(0, 5 if depth < 3 else 3))
        if form == 4:
            items = [value(depth + 1) for _ in range(draw(st.integers(0, 3)))]
            if draw(st.booleans()):
                return "[" + space() + ("," + space()).join(items) + space() + "]"
            lines = "".join(newline + "  " + item + "," + draw(st.sampled_from(COMMENTS)) for item in items)
            return "[" + lines + newline + "]"
        if form == 5:
            pairs = [dotted(2) + space() + "=" + space() + value(depth + 1) for _ in range(draw(st.integers(0, 3)))]
            return "{" + space() + ("," + space()).join(pairs) + space() + "}"
        return draw(st.sampled_from(SCALARS))

    def pairs() -> str:
        return "".join(
            draw(st.sampled_from(["", "", newline, "# a comment" + newline])) + draw(st.sampled_from(["", "  "]))
            + dotted(3) + space() + "=" + space() + value() + space() + draw(st.sampled_from(COMMENTS)) + newline
            for _ in range(draw(st.integers(0, 3)))
        )

    def header(path: list[str], array: bool) -> str:
        inside = space() + (space() + "." + space()).join(path) + space()
        return ("[[" + inside + "]]" if array else "[" + inside + "]") + draw(st.sampled_from(COMMENTS)) + newline

    text = pairs()
    for _ in range(draw(st.integers(0, 4))):
        form = draw(st.integers(0, 2))
        if form == 0:  # a table and maybe a sub-table
            table = [key() for _ in range(draw(st.integers(1, 2)))]
            text += header(table, False) + pairs()
            if draw(st.booleans()):
                text += header([*table, key()], False) + pairs()
        elif form == 1:  # an array of tables, its elements with sub-tables and arrays of their own
            name = key()
            for _ in range(draw(st.integers(1, 3))):
                text += header([name], True) + pairs()
                if draw(st.booleans()):
                    text += header([name, key()], draw(st.booleans())) + pairs()
        else:  # an inline array of tables
            separator = draw(st.sampled_from([", ", "," + newline + "  ", "," + newline + "  # c" + newline + "  "]))
            tables = [value(2) if draw(st.booleans()) else "{ " + dotted(2) + " = 1 }"
                      for _ in range(draw(st.integers(0, 3)))]
            text += key() + " = [" + newline + "  " + separator.join(tables) + newline + "]" + newline
    return text if draw(st.booleans()) else text.rstrip("\r\n")


@st.composite
def damaged(draw: st.DrawFn) -> str:
    """A document with lines deleted or duplicated, or with brackets, quotes, line ends or other
    punctuation inserted anywhere."""
    lines = draw(toml_texts()).splitlines(keepends=True) or [""]
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(lines) - 1))
        change = draw(st.integers(0, 3))
        if change == 0 and len(lines) > 1:
            del lines[at]
        elif change == 1:
            lines.insert(at, lines[draw(st.integers(0, len(lines) - 1))])
        else:
            cut = draw(st.integers(0, len(lines[at])))
            inserted = draw(st.sampled_from(INSERTED))
            lines[at] = lines[at][:cut] + inserted + lines[at][cut:]
    return "".join(lines)


def outcome(reader: Callable[[bytes, object, str], Any], text: str | bytes) -> object:
    """What a reader makes of `text`: the positions it located, or its one error line."""
    raw = text.encode() if isinstance(text, str) else text
    try:
        return reader(raw, "a.toml", "allowlist").positions
    except InputError as exc:
        return str(exc)


@settings(max_examples=300, deadline=None)
@given(toml_texts())
def test_every_form_is_located_as_the_two_pass_reader_located_it(text: str) -> None:
    assert outcome(parse_toml, text) == outcome(recorded.parse_toml, text)


@settings(max_examples=300, deadline=None)
@given(damaged())
def test_a_damaged_document_is_refused_with_the_two_pass_readers_error(text: str) -> None:
    assert outcome(parse_toml, text) == outcome(recorded.parse_toml, text)


@settings(max_examples=200, deadline=None)
@given(st.one_of(toml_texts(), damaged()), st.integers(1, 4), st.integers(1, 200))
def test_bounds_are_refused_at_the_two_pass_readers_line(text: str, depth: int, tokens: int) -> None:
    """With bounds small enough that generated documents cross them: nesting, dotted keys and
    token counts (a `key = value` line is one token to the new reader, four to the old)."""
    with ExitStack() as bounds:
        for module in (tomlfile, recorded):
            bounds.enter_context(patch.object(module, "MAX_DEPTH", depth))
            bounds.enter_context(patch.object(module, "MAX_TOKENS", tokens))
        assert outcome(parse_toml, text) == outcome(recorded.parse_toml, text)


@pytest.mark.parametrize("bound", range(3, 18))
def test_a_key_value_line_counts_as_its_four_tokens_against_the_bound(bound: int) -> None:
    """A line that is only `key = value` is read as one token but counted as four (key, `=`,
    value, line end): whichever of them is past the bound, the refusal names its line."""
    text = "[t]\na = 1\nb = 'x'  # c\r\nc = \"y\"\n"
    with patch.object(tomlfile, "MAX_TOKENS", bound), patch.object(recorded, "MAX_TOKENS", bound):
        assert outcome(parse_toml, text) == outcome(recorded.parse_toml, text)
    assert outcome(parse_toml, text) == {("t",): (1, 2), ("t", "a"): (2, 1), ("t", "b"): (3, 1), ("t", "c"): (4, 1)}


@pytest.mark.parametrize("path", sorted(
    p.relative_to(ROOT).as_posix()
    for folder in ("allowlists", "rules", "fixtures", "tests", "analyzer")
    for p in (ROOT / folder).rglob("*.toml")
))
def test_every_toml_file_of_the_repository_is_read_as_before(path: str) -> None:
    raw = (ROOT / path).read_bytes()
    assert outcome(parse_toml, raw) == outcome(recorded.parse_toml, raw)
