"""The located TOML reading (analyzer/tomlfile.py), property-tested: whatever form and quoting
an allowlist uses, every entry and key is located where it is written."""

from __future__ import annotations

import re
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
