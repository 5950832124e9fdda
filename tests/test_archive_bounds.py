"""Issue 13 (part B): archive limits count every header, not only the members tarfile yields.

The archives are `fixtures/hostile/safety/*.tar.gz`, made by `make.py` beside them.
"""

from __future__ import annotations

import gzip
import importlib.util
import io
import resource
import struct
import tarfile
import zlib
from pathlib import Path

import pytest
from conftest import FIXTURES, run, scan

from analyzer.bundle import python_inputs, trees
from analyzer.errors import InputError

SAFETY = FIXTURES / "hostile" / "safety"
SOURCE = b'import logging\nlogging.warning("x")\n'


def refused(archive: Path, tmp_path: Path, *words: str) -> None:
    result = run("scan", archive, "--out", tmp_path / "out")
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr, result.stderr
    for word in words:
        assert word in result.stderr, result.stderr
    assert not (tmp_path / "out").exists()


def test_a_gnu_long_name_header_past_the_bound_is_refused_before_it_is_read(tmp_path: Path) -> None:
    refused(SAFETY / "long-name-header.tar.gz", tmp_path, "GNU long-name header", str(trees.MAX_HEADER_BYTES))


def test_a_pax_header_past_the_bound_is_refused_before_it_is_read(tmp_path: Path) -> None:
    refused(SAFETY / "pax-header.tar.gz", tmp_path, "pax header", str(trees.MAX_HEADER_BYTES))


def test_chained_extended_headers_are_refused(tmp_path: Path) -> None:
    refused(SAFETY / "chained-headers.tar.gz", tmp_path, "extended headers in a row")


def test_a_member_stored_twice_is_refused(tmp_path: Path) -> None:
    refused(SAFETY / "duplicate-member.tar.gz", tmp_path, "pkg/a.py", "stored twice")


def gzip_of(prefix: bytes, chunk: bytes, repeat: int, suffix: bytes) -> bytes:
    """A real .gz of prefix + chunk * repeat + suffix, made in seconds: each chunk is deflated
    once after a full flush (which resets the compressor), so its bytes repeat as they are."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = compressor.compress(prefix) + compressor.flush(zlib.Z_FULL_FLUSH)
    body = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    assert compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH) == body
    tail = compressor.compress(suffix) + compressor.flush(zlib.Z_FINISH)
    crc = zlib.crc32(prefix)
    for _ in range(repeat):
        crc = zlib.crc32(chunk, crc)
    crc = zlib.crc32(suffix, crc)
    size = len(prefix) + len(chunk) * repeat + len(suffix)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
    return header + head + body * repeat + tail + struct.pack("<II", crc, size % 2**32)


def _half_gib_bytes(tmp_path: Path, kind: bytes) -> Path:
    """The issue's case: a 2.6 MB .tar.gz whose first header (GNU long-name or pax) declares,
    and holds, 2.5 GiB."""
    size, chunk = 5 * 2**29, b"a" * 2**24
    header = tarfile.TarInfo("././@LongLink")
    header.type, header.size = kind, size
    member = tarfile.TarInfo("pkg/a.py")
    member.size = len(SOURCE)
    suffix = member.tobuf(tarfile.GNU_FORMAT) + SOURCE + b"\0" * (-len(SOURCE) % 512 + 1024)
    archive = tmp_path / "bomb-1.0.tar.gz"
    archive.write_bytes(gzip_of(header.tobuf(tarfile.GNU_FORMAT), chunk, size // len(chunk), suffix))
    return archive


def _address_space(limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


@pytest.mark.parametrize(("kind", "name"), [(tarfile.GNUTYPE_LONGNAME, "GNU long-name"), (tarfile.XHDTYPE, "pax")])
def test_a_header_of_2_5_gib_in_2_6_mb_is_refused_in_bounded_memory(tmp_path: Path, kind: bytes, name: str) -> None:
    archive = _half_gib_bytes(tmp_path, kind)
    assert archive.stat().st_size < 3 * 2**20
    result = run("scan", archive, "--out", tmp_path / "out", preexec_fn=lambda: _address_space(2 * 2**30))
    assert result.returncode == 2, result.stderr
    assert f"header 1: a {name} header of {5 * 2**29} bytes" in result.stderr


def sdist(members: list[tuple[str, bytes]], fmt: int = tarfile.PAX_FORMAT, pax: dict[str, str] | None = None) -> bytes:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=fmt) as archive:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            if pax:
                info.pax_headers = dict(pax)
            archive.addfile(info, io.BytesIO(data))
    return gzip.compress(raw.getvalue(), mtime=0)


def test_every_header_counts_against_the_member_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Six members, each with a pax header: twelve headers against a limit of ten."""
    archive = tmp_path / "pkg-1.0.tar.gz"
    archive.write_bytes(sdist([(f"pkg-1.0/pkg/m{i}.py", SOURCE) for i in range(6)], pax={"comment": "x"}))
    assert len(python_inputs.load_python_input(archive).units) == 6
    monkeypatch.setattr(trees, "MAX_MEMBERS", 10)
    with pytest.raises(InputError, match="more than 10 members and headers"):
        python_inputs.load_python_input(archive)


def test_a_pax_size_is_the_size_the_bounds_see(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The member's own header says 38 bytes, its pax header 5000: tarfile reads 5000."""
    archive = tmp_path / "pkg-1.0.tar.gz"
    archive.write_bytes(sdist([("pkg-1.0/pkg/big.py", SOURCE)], pax={"size": "5000"}))
    monkeypatch.setattr(trees, "MAX_MEMBER_BYTES", 1000)
    with pytest.raises(InputError, match="header 2: a member of 5000 bytes"):
        python_inputs.load_python_input(archive)


@pytest.mark.parametrize("fmt", [tarfile.PAX_FORMAT, tarfile.GNU_FORMAT, tarfile.USTAR_FORMAT])
def test_long_names_within_the_bounds_still_scan(tmp_path: Path, fmt: int) -> None:
    name = "pkg-1.0/pkg/" + "deep/" * (9 if fmt == tarfile.USTAR_FORMAT else 40) + "m.py"
    archive = tmp_path / "pkg-1.0.tar.gz"
    archive.write_bytes(sdist([(name, SOURCE), ("pkg-1.0/pkg/__init__.py", b"")], fmt))
    summary = scan(archive, tmp_path / "out")
    assert summary["counts"]["byKind"]["diagnostic"] == 1  # type: ignore[index]


def test_the_hostile_fixtures_are_what_make_py_writes(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("make_safety_fixtures", SAFETY / "make.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(tmp_path)
    for name in module.FILES:
        assert (tmp_path / name).read_bytes() == (SAFETY / name).read_bytes(), name
