"""A real wheel from PyPI gives the same records as its unpacked tree (issue 5).

The wheel is fetched once with pip (`pip download`, the registry's ordinary client) into
`$ERRATLAS_CACHE/pypi/` (default `~/.cache/erratlas/pypi/`), checked against the sha256 pinned
here (PyPI's published digest), and reused from there afterwards without the network.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest
from conftest import SUMMARY, records, scan

pytestmark = pytest.mark.network

#: requests 2.31.0: warnings, a deep exception hierarchy across modules, re-exports
WHEEL = "requests-2.31.0-py3-none-any.whl"
SPEC = "requests==2.31.0"
SHA256 = "58cd2187c01e70e6e26505bca751777aa9f2ee0b7f4300988b709f44e013003f"


def cache_root() -> Path:
    configured = os.environ.get("ERRATLAS_CACHE")
    return (Path(configured) if configured else Path.home() / ".cache" / "erratlas") / "pypi"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch_wheel() -> Path:
    """The pinned wheel, downloaded into a staging directory, verified, then renamed into place."""
    target = cache_root() / WHEEL
    if target.is_file() and sha256(target) == SHA256:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".download-", dir=target.parent) as staging:
        command = [sys.executable, "-m", "pip", "download", SPEC, "--no-deps", "--only-binary=:all:",
                   "--no-cache-dir", "--disable-pip-version-check", "--quiet", "-d", staging]
        done = subprocess.run(command, check=False, capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            pytest.skip(f"cannot download {SPEC} from PyPI: {done.stderr.strip().splitlines()[-1:]}")
        fetched = Path(staging) / WHEEL
        actual = sha256(fetched)
        assert actual == SHA256, f"{WHEEL}: sha256 {actual}, pinned {SHA256}"
        fetched.replace(target)
    return target


@pytest.fixture(scope="module")
def wheel() -> Path:
    return fetch_wheel()


OUTPUTS = (
    "error-message-callsites.jsonl", "diagnostic-message-callsites.jsonl", "error-classes.jsonl",
    "error-message-templates.jsonl", "diagnostic-message-templates.jsonl", "error-message-literals.txt",
    "diagnostic-message-literals.txt", "modules.jsonl", "error-diagnostic-owner-projection.jsonl",
)


def test_wheel_gives_the_records_of_its_unpacked_tree(wheel: Path, tmp_path: Path) -> None:
    tree = tmp_path / "unpacked"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tree)  # our own pinned wheel: trusted, unlike the archives erratlas reads
    scan(wheel, tmp_path / "from-wheel")
    scan(tree, tmp_path / "from-tree")
    for name in OUTPUTS:
        assert (tmp_path / "from-wheel" / name).read_bytes() == (tmp_path / "from-tree" / name).read_bytes(), name
    summaries = [json.loads((tmp_path / d / SUMMARY).read_text()) for d in ("from-wheel", "from-tree")]
    assert summaries[0]["inputs"]["units"] == summaries[1]["inputs"]["units"]
    assert summaries[0]["counts"] == summaries[1]["counts"]
    assert summaries[0]["inputs"]["bundle"]["sha256"] == SHA256


def test_wheel_records_what_requests_does(wheel: Path, tmp_path: Path) -> None:
    out = tmp_path / "scan"
    scan(wheel, out)
    errors = records(out, "error")
    constructors = {str(r["constructor"]) for r in errors}
    assert "requests.exceptions.InvalidURL" in constructors
    assert {"ValueError", "TypeError"} <= constructors
    diagnostics = records(out, "diagnostic")
    assert diagnostics and {r["calleeRole"] for r in diagnostics} == {"warnings"}  # requests never logs
    classes = {json.loads(line)["name"]: json.loads(line) for line in (out / "error-classes.jsonl").open()}
    # RequestException(IOError) in requests.exceptions; ConnectionError derives from it
    assert classes["requests.exceptions.RequestException"]["rootConstructor"] == "IOError"
    assert classes["requests.exceptions.ConnectionError"]["rootConstructor"] == "IOError"
    assert all(u["vendored"] is None for u in json.loads((out / SUMMARY).read_text())["loggers"])
