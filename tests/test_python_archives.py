"""Python archives are read safely (issue 5): hostile members refuse the whole archive with one
line naming it, exit 2, and nothing is written anywhere (archives are never extracted).
Well-formed sdists and zipapps give the same records as the tree they hold."""

from __future__ import annotations

import io
import os
import stat
import tarfile
import zipfile
from pathlib import Path

import pytest
from conftest import FIXTURES, records, run, scan

PACKAGE = FIXTURES / "python" / "shadowing"


def listing(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*")}


def assert_refused(archive: Path, *words: str) -> None:
    """One line naming the archive, exit 2, no output directory, nothing new beside it."""
    work = archive.parent
    before = listing(work)
    out = work / "out"
    result = run("scan", archive, "--out", out)
    assert result.returncode == 2, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(archive) in lines[0], result.stderr
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    assert not out.exists()
    assert listing(work) == before
    assert not (work.parent / "evil.py").exists() and not Path("/tmp/erratlas-evil.py").exists()


def zip_with(path: Path, members: list[tuple[zipfile.ZipInfo | str, bytes]]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("pkg/__init__.py", b"raise ValueError('fine')\n")
        for info, data in members:
            archive.writestr(info, data)
    return path


def test_zip_with_a_dotdot_member_is_refused(tmp_path: Path) -> None:
    wheel = zip_with(tmp_path / "evil-1.0-py3-none-any.whl", [("pkg/../../evil.py", b"x = 1\n")])
    assert_refused(wheel, "'..'", "pkg/../../evil.py")


def test_zip_with_an_absolute_member_is_refused(tmp_path: Path) -> None:
    archive = zip_with(tmp_path / "evil.pyz", [("/tmp/erratlas-evil.py", b"x = 1\n")])
    assert_refused(archive, "absolute")


def test_zip_with_a_symlink_member_is_refused(tmp_path: Path) -> None:
    link = zipfile.ZipInfo("pkg/passwd.py")
    link.create_system = 3  # unix: the mode lives in the high bits of external_attr
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    archive = zip_with(tmp_path / "evil-1.0.zip", [(link, b"/etc/passwd")])
    assert_refused(archive, "symbolic link", "pkg/passwd.py")


def test_zip_bomb_is_refused_by_its_compression_ratio(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb-1.0-py3-none-any.whl"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("pkg/__init__.py", b"")
        with archive.open("pkg/huge.py", "w") as handle:
            block = b"#" * (1 << 20)
            for _ in range(32):
                handle.write(block)
    assert bomb.stat().st_size < 1 << 20
    assert_refused(bomb, "compression ratio", "pkg/huge.py")


def test_zip_with_too_many_members_is_refused(tmp_path: Path) -> None:
    crowded = tmp_path / "crowded.pyz"
    with zipfile.ZipFile(crowded, "w", zipfile.ZIP_STORED) as archive:
        for index in range(50_001):
            archive.writestr(f"m/{index}.txt", b"")
    assert_refused(crowded, "50001 members")


def test_corrupt_wheel_is_one_line(tmp_path: Path) -> None:
    fake = tmp_path / "fake-1.0-py3-none-any.whl"
    fake.write_bytes(b"PK\x03\x04 not really a zip")
    assert_refused(fake, "not a valid zip archive")


def _tar(path: Path, members: list[tarfile.TarInfo | tuple[str, bytes]]) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for member in members:
            if isinstance(member, tarfile.TarInfo):
                archive.addfile(member)
            else:
                name, data = member
                info = tarfile.TarInfo(name)
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
    return path


def test_sdist_with_a_dotdot_member_is_refused(tmp_path: Path) -> None:
    sdist = _tar(
        tmp_path / "evil-1.0.tar.gz", [("evil-1.0/pkg/ok.py", b"x = 1\n"), ("evil-1.0/../../evil.py", b"x = 2\n")]
    )
    assert_refused(sdist, "'..'")


def test_sdist_with_a_symlink_member_is_refused(tmp_path: Path) -> None:
    link = tarfile.TarInfo("evil-1.0/pkg/link.py")
    link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
    sdist = _tar(tmp_path / "evil-1.0.tar.gz", [("evil-1.0/pkg/ok.py", b"x = 1\n"), link])
    assert_refused(sdist, "link", "/etc/passwd")


def _tree_files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*.py"))}


def test_sdist_and_zipapp_give_the_records_of_their_tree(tmp_path: Path) -> None:
    files = _tree_files(PACKAGE)
    sdist = _tar(tmp_path / "app-1.0.tar.gz", [(f"app-1.0/{name}", data) for name, data in files.items()])
    pyz = tmp_path / "app.pyz"
    with pyz.open("wb") as handle:
        handle.write(b"#!/usr/bin/env python3\n")  # a zipapp may start with a shebang
        with zipfile.ZipFile(handle, "w") as archive:
            for name, data in files.items():
                archive.writestr(name, data)
    scan(PACKAGE, tmp_path / "tree", "--jobs", "1")
    for archive in (sdist, pyz):
        out = tmp_path / archive.name.replace(".", "-")
        scan(archive, out, "--jobs", "1")
        for kind in ("error", "diagnostic"):
            assert records(out, kind) == records(tmp_path / "tree", kind), (archive.name, kind)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads everything")
def test_unreadable_directory_member_does_not_traceback(tmp_path: Path) -> None:
    tree = tmp_path / "pkg"
    tree.mkdir()
    (tree / "a.py").write_text("raise ValueError('x')\n")
    locked = tree / "b.py"
    locked.write_text("x = 1\n")
    locked.chmod(0)
    result = run("scan", tree, "--out", tmp_path / "out")
    assert result.returncode == 2 and "permission denied" in result.stderr
