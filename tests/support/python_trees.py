"""Real Python trees that tests and benchmarks scan.

- pip: the copy installed beside the interpreter running the tests (`import pip`);
- requests: the pinned requests 2.31.0 wheel, fetched once with pip (`pip download`, the
  registry's ordinary client) into `$ERRATLAS_CACHE/pypi/` (default `~/.cache/erratlas/pypi/`),
  checked against PyPI's published sha256, and unpacked into a tree as `pip install` would;
- the standard library of the running Python: a fixed sample of packages and modules, or the
  whole `Lib/` (without `site-packages/` and `__pycache__/`), copied into a tree.

Each tree is created under a directory the caller gives, with a fixed final name, so that the
bundle name recorded in a scan's summary is the same wherever it is built.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path

#: requests 2.31.0: warnings, a deep exception hierarchy across modules, re-exports
REQUESTS_WHEEL = "requests-2.31.0-py3-none-any.whl"
REQUESTS_SPEC = "requests==2.31.0"
REQUESTS_SHA256 = "58cd2187c01e70e6e26505bca751777aa9f2ee0b7f4300988b709f44e013003f"

STDLIB = Path(sysconfig.get_paths()["stdlib"])
#: the sample: packages with deep exception hierarchies, logging and warnings, and big modules
STDLIB_SAMPLE_PACKAGES = (
    "asyncio", "concurrent", "email", "http", "importlib", "json", "logging", "multiprocessing",
    "unittest", "urllib", "xml",
)
STDLIB_SAMPLE_MODULES = (
    "argparse", "configparser", "shutil", "socket", "ssl", "subprocess", "tarfile", "tempfile",
    "traceback", "typing", "warnings", "zipfile",
)


class FetchError(Exception):
    """A pinned input could not be downloaded."""


def pip_tree() -> Path:
    import pip

    return Path(pip.__file__).resolve().parent


def cache_root() -> Path:
    configured = os.environ.get("ERRATLAS_CACHE")
    return (Path(configured) if configured else Path.home() / ".cache" / "erratlas") / "pypi"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch_requests_wheel() -> Path:
    """The pinned wheel, downloaded into a staging directory, verified, then renamed into place."""
    target = cache_root() / REQUESTS_WHEEL
    if target.is_file() and sha256(target) == REQUESTS_SHA256:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".download-", dir=target.parent) as staging:
        command = [sys.executable, "-m", "pip", "download", REQUESTS_SPEC, "--no-deps", "--only-binary=:all:",
                   "--no-cache-dir", "--disable-pip-version-check", "--quiet", "-d", staging]
        done = subprocess.run(command, check=False, capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise FetchError(f"cannot download {REQUESTS_SPEC} from PyPI: {done.stderr.strip().splitlines()[-1:]}")
        fetched = Path(staging) / REQUESTS_WHEEL
        actual = sha256(fetched)
        if actual != REQUESTS_SHA256:
            raise FetchError(f"{REQUESTS_WHEEL}: sha256 {actual}, pinned {REQUESTS_SHA256}")
        fetched.replace(target)
    return target


def requests_tree(parent: Path) -> Path:
    """`parent/requests`: the wheel's `requests/*.py`, byte for byte, as installed."""
    root = parent / "requests"
    with zipfile.ZipFile(fetch_requests_wheel()) as archive:
        for name in archive.namelist():
            if name.startswith("requests/") and name.endswith(".py"):
                path = parent / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(archive.read(name))
    return root


def _python_only(directory: str, names: list[str]) -> list[str]:
    return [
        n
        for n in names
        if n == "__pycache__" or (not n.endswith(".py") and not os.path.isdir(os.path.join(directory, n)))
    ]


def stdlib_sample(parent: Path) -> Path:
    """`parent/stdlib-sample`: STDLIB_SAMPLE_PACKAGES and STDLIB_SAMPLE_MODULES, `.py` files only."""
    root = parent / "stdlib-sample"
    root.mkdir(parents=True)
    for package in STDLIB_SAMPLE_PACKAGES:
        shutil.copytree(STDLIB / package, root / package, ignore=_python_only)
    for module in STDLIB_SAMPLE_MODULES:
        shutil.copy(STDLIB / f"{module}.py", root / f"{module}.py")
    return root


def stdlib_tree(parent: Path) -> Path:
    """`parent/stdlib`: every `.py` file of the standard library's `Lib/`, without
    `site-packages/` (installed distributions, not the standard library)."""
    root = parent / "stdlib"

    def ignore(directory: str, names: list[str]) -> list[str]:
        skipped = _python_only(directory, names)
        return skipped + (["site-packages"] if Path(directory) == STDLIB else [])

    shutil.copytree(STDLIB, root, ignore=ignore, symlinks=True)
    return root
