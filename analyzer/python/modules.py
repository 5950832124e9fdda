"""Unit paths -> dotted module names and vendored dependencies.

A module's name is its path from the outermost package directory: one holding an
`__init__.py`, or a directory inside a package (PEP 420; not a vendor directory):
`src/requests/api.py` -> `requests.api`. Vendored code lies under `<pkg>/_vendor/<dep>/` (or is
`<pkg>/_vendor/<dep>.py`) or under `site-packages/<dep>/`: evidence for a later Dependency
suggestion, never an owner.
"""

from __future__ import annotations

import keyword
import re
from collections import Counter
from dataclasses import dataclass

from analyzer.facts import MODULE_SCHEMA, BundledModule, BundleModules, UnitFacts
from analyzer.identity import scan_fingerprints
from analyzer.model import Module, ModuleKind

PYTHON_MODULE_KIND: ModuleKind = "python-package"
_VENDOR_DIRECTORIES = ("_vendor", "site-packages")
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:[=<>!~;\[#]|$)")


@dataclass(frozen=True, slots=True)
class ModuleName:
    #: dotted module name (`pkg.mod`; a package's `__init__.py` is `pkg`)
    name: str
    #: the package relative imports start from (`pkg` for both `pkg/__init__.py` and `pkg/mod.py`)
    package: str


def module_names(unit_names: list[str]) -> dict[str, ModuleName]:
    packages = _packages(unit_names)
    out = {}
    for unit in unit_names:
        parts = unit[:-3].split("/") if unit.endswith(".py") else unit.split("/")
        start = len(parts) - 1
        while start > 0 and "/".join(parts[:start]) in packages:
            start -= 1
        dotted = parts[start:]
        is_package = dotted[-1] == "__init__"
        if is_package:
            dotted = dotted[:-1]
        name = ".".join(dotted) or parts[-1]
        package = name if is_package else ".".join(dotted[:-1])
        out[unit] = ModuleName(name=name, package=package)
    return out


def _packages(unit_names: list[str]) -> set[str]:
    """The directories that are packages: those with an `__init__.py`, and below one, outermost
    first, every directory named as a module can be that is not a vendor directory (a namespace
    portion: `setuptools/_distutils/compilers/C/unix.py` -> `setuptools._distutils.compilers.C.unix`,
    so its relative imports resolve; `setuptools/_vendor/` is put on `sys.path`, not imported)."""
    packages = {name.rsplit("/", 1)[0] for name in unit_names if name.endswith("/__init__.py")}
    paths = [name.split("/") for name in unit_names]
    directories = {"/".join(parts[:end]) for parts in paths for end in range(1, len(parts))}
    for directory in sorted(directories, key=lambda d: d.count("/")):
        parent, _, last = directory.rpartition("/")
        if parent in packages and last.isidentifier() and not keyword.iskeyword(last) \
                and last not in _VENDOR_DIRECTORIES:
            packages.add(directory)
    return packages


@dataclass(frozen=True, slots=True)
class Vendored:
    #: import name of the vendored dependency (`rich`, `six`)
    dependency: str
    #: its root inside the input (`pip/_vendor/rich`, `pip/_vendor/six.py`)
    root: str
    #: its distribution name from the vendoring manifest beside it (`vendor.txt`), if listed
    distribution: str | None


def vendored(unit: str, manifests: dict[str, bytes]) -> Vendored | None:
    """The innermost vendored tree holding `unit`, if any."""
    parts = unit.split("/")
    for index in range(len(parts) - 2, -1, -1):
        if parts[index] not in _VENDOR_DIRECTORIES:
            continue
        head = parts[index + 1]
        dependency = head.removesuffix(".py")
        if not dependency or dependency == "__init__" or head.endswith((".dist-info", ".egg-info")):
            return None
        root = "/".join(parts[: index + 2])
        listing = manifests.get("/".join(parts[: index + 1]) + "/vendor.txt")
        return Vendored(dependency, root, _distribution(dependency, listing))
    return None


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


#: import names shipped by a distribution of another name; used only when the manifest lists
#: that distribution (pip vendors `pkg_resources` and lists `setuptools==...`)
_PROVIDED_BY = {
    "pkg_resources": "setuptools",
    "_distutils_hack": "setuptools",
    "yaml": "pyyaml",
    "dateutil": "python-dateutil",
    "attr": "attrs",
    "bs4": "beautifulsoup4",
    "OpenSSL": "pyopenssl",
}


def _distribution(dependency: str, listing: bytes | None) -> str | None:
    """The manifest's name for the distribution that ships `dependency` (its import name)."""
    if listing is None:
        return None
    wanted = {_canonical(dependency)}
    if dependency in _PROVIDED_BY:
        wanted.add(_canonical(_PROVIDED_BY[dependency]))
    listed = [m.group(1) for m in map(_REQUIREMENT.match, listing.decode("utf-8", "replace").splitlines()) if m]
    for name in listed:  # the import name itself first
        if _canonical(name) == _canonical(dependency):
            return name
    return next((name for name in listed if _canonical(name) in wanted), None)


def module_map(units: list[UnitFacts], digests: list[bytes], names: dict[str, ModuleName],
               vendors: dict[str, Vendored | None]) -> BundleModules:
    """Every Python unit is one module (`python-package`): modules.jsonl rows keyed by the
    unit's path, with the vendored dependency as `package`, so `suggest` proposes
    Dependency `<dep>` for `<pkg>/_vendor/<dep>/` code and nothing for the package's own."""
    order = [(u.unit.name, 0) for u in units]
    fingerprints = scan_fingerprints("fp1m", digests, order)
    rows: list[BundledModule] = []
    records: dict[tuple[str, int], Module] = {}
    for facts, fingerprint in zip(units, fingerprints):
        unit = facts.unit
        name = names[unit.name].name
        vendor = vendors[unit.name]
        identifier = f"m:{unit.name}@0"
        evidence = [f"python module {name}"]
        package = None
        if vendor is not None:
            package = vendor.distribution or vendor.dependency
            listed = f"listed as {vendor.distribution}" if vendor.distribution else "not listed in a vendor.txt"
            if vendor.distribution and _canonical(vendor.distribution) != _canonical(vendor.dependency):
                listed += f", which ships {vendor.dependency}"
            evidence.append(f"vendored under {vendor.root}/ ({listed})")
        counts = Counter(site.kind for site in facts.sites)
        rows.append(
            BundledModule(
                schema=MODULE_SCHEMA, id=identifier, unit=unit.name, kind=PYTHON_MODULE_KIND, name=name,
                fingerprint=fingerprint, offset=0, endOffset=len(unit.source), bodyOffset=0, line=1,
                spans=[[0, len(unit.source)]], parent=None, binding=None, key=unit.name, source=None,
                package=package, banners=(), manifests=(), evidence=tuple(evidence),
                callsites={kind: counts.get(kind, 0) for kind in ("error", "diagnostic")},
            )
        )
        module = Module(identifier, PYTHON_MODULE_KIND, name, fingerprint)
        records.update({(unit.name, site.offset): module for site in facts.sites})
    return BundleModules(rows, records, {}, [])
