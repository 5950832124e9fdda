"""An allowlist in the canonical form `erratlas allow` writes is read line by line and proved
canonical by rendering it back (docs/performance.md, "The gate"): the same entries, origins and
refusals as the TOML reader, whatever the bytes."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT, SUMMARY, run

from analyzer.errors import InputError
from analyzer.owners.allowlist import Allowlist, _canonical, parse_allowlist, read_allowlist
from analyzer.tomlfile import parse_toml

DEMO = ROOT / "allowlists" / "demo.toml"
PROJECTION = "error-diagnostic-owner-projection.jsonl"


def through_toml(raw: bytes) -> Allowlist | str:
    """What the TOML reader makes of `raw`: the allowlist, or its refusal's text."""
    try:
        return parse_allowlist(parse_toml(raw, "a.toml", "allowlist"), "a.toml")
    except InputError as exc:
        return str(exc)


@pytest.mark.parametrize("name", ["demo.toml", "claude-code.toml"])
def test_a_shipped_allowlist_is_read_canonically_as_the_toml_reader_reads_it(name: str) -> None:
    raw = (ROOT / "allowlists" / name).read_bytes()
    fast = _canonical(raw, "a.toml")
    assert fast is not None
    assert fast == through_toml(raw)


def test_edited_bytes_read_canonically_only_when_the_toml_reader_agrees() -> None:
    """Edits of a canonical file: each either falls back to the TOML reader or reads exactly as it
    does; none that the TOML reader refuses is read."""
    base = DEMO.read_bytes()
    alphabet = b' ="\\\n[]{}0123456789-abfpux,.#\t\x01\xc3\xa9'
    chance = random.Random(23)
    read = 0
    for _ in range(600):
        edited = bytearray(base)
        for _ in range(chance.randint(1, 3)):
            at, roll = chance.randrange(len(edited)), chance.random()
            if roll < 0.4:
                edited[at] = chance.choice(alphabet)
            elif roll < 0.7:
                edited.insert(at, chance.choice(alphabet))
            else:
                del edited[at]
        fast = _canonical(bytes(edited), "a.toml")
        if fast is not None:
            read += 1
            assert fast == through_toml(bytes(edited)), bytes(edited)
    assert read > 40  # edits inside a reason or a function name stay canonical


@pytest.mark.parametrize("edit", [
    ("reviewedOn = 2026-12-02", "reviewedOn = 2026-13-02"),  # no such date
    ('owner = "Product"', 'owner = "Prod\\uD800uct"'),  # an escaped lone surrogate
    ('owner = "Product"', 'owner = "Product"\nowner = "Product"'),  # a key twice
    ('owner = "Product"', 'ownr = "Product"'),  # an unknown key
])
def test_a_canonical_file_the_toml_reader_refuses_is_refused_in_its_words(edit: tuple[str, str]) -> None:
    text = DEMO.read_text()
    assert edit[0] in text
    raw = text.replace(edit[0], edit[1], 1).encode()
    assert _canonical(raw, "a.toml") is None
    with pytest.raises(InputError) as refused:
        read_allowlist(raw, "a.toml", "a.toml")
    assert str(refused.value) == through_toml(raw)


def test_project_and_gate_own_alike_from_the_canonical_file_and_another_form(demo_scan_copy: Path,
                                                                             tmp_path: Path) -> None:
    """The same entries written canonically and with a comment after them (the TOML reader's
    path): the same owners, origins and verdict."""
    other = tmp_path / "other-scan"
    shutil.copytree(demo_scan_copy, other)
    canonical, commented = tmp_path / "canonical.toml", tmp_path / "commented.toml"
    canonical.write_bytes(DEMO.read_bytes())
    commented.write_bytes(DEMO.read_bytes() + b"# reviewed again on Friday\n")
    for out, allowlist in ((demo_scan_copy, canonical), (other, commented)):
        result = run("project", out, "-a", allowlist)
        assert result.returncode == 0, result.stderr
        gated = run("gate", out, "-a", allowlist, "--allow-stale")
        assert gated.returncode == 0, gated.stderr
    projected = (demo_scan_copy / PROJECTION).read_text().replace("canonical.toml", "commented.toml")
    assert projected == (other / PROJECTION).read_text()
    assert '"owner":"Product"' in projected and '"owner":"Dependency"' in projected
    assert (demo_scan_copy / SUMMARY).exists() and FIXTURES.exists()
