"""The language of a scan's input, decided once, before anything is parsed: a file by its name
(`.py`, a wheel, a `.pyz` are Python; anything else is JavaScript, a bundle or a Bun
executable), a directory or an archive (`.zip`, `.tar.gz`, `.tgz`) by the source files it
holds. A tree that holds both is the language its root's manifest names (`package.json`, or
`pyproject.toml`, `setup.py`, `setup.cfg`, `PKG-INFO`, a package's `__init__.py`), else the one
with more files; the choice is said, with the option that takes the other (docs/reference.md,
"Inputs")."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from analyzer.bundle.javascript_trees import javascript_source
from analyzer.bundle.python_inputs import is_python_name, python_source
from analyzer.bundle.trees import archive_members, strip_top, walk
from analyzer.bundle.unread import Unread, environments_said, others_said, unread_lines
from analyzer.errors import InputError
from analyzer.model import Language

#: how a person names each language, and its source files
SHOWN: dict[Language, tuple[str, str]] = {"javascript": ("JavaScript", ".js, .mjs, .cjs"), "python": ("Python", ".py")}
#: what `--language` takes
OPTION: dict[str, Language] = {"js": "javascript", "javascript": "javascript", "python": "python", "py": "python"}
_OPTION_OF: dict[Language, str] = {"javascript": "js", "python": "python"}
_MANIFESTS: dict[Language, frozenset[str]] = {
    "javascript": frozenset({"package.json"}),
    "python": frozenset({"pyproject.toml", "setup.py", "setup.cfg", "PKG-INFO", "__init__.py"}),
}
_TREE_ARCHIVES = (".zip", ".tar.gz", ".tgz")


def tree_language(path: Path, chosen: Language | None) -> tuple[Language, tuple[str, ...]]:
    """The input's language, and the lines a scan of it says first: for a tree, the environments
    of installed packages it skipped, and a directory's links and special files it did not read
    (`bundle.unread`); for a tree holding both languages, which one it scans and why."""
    if not is_tree(path):
        own: Language = "python" if is_python_name(path) else "javascript"
        if chosen is not None and chosen != own:
            raise InputError(path, f"a {SHOWN[own][0]} input by its name; --language chooses between the languages "
                                   "of a directory or an archive")
        return own, ()
    what = "directory" if os.path.isdir(path) else "archive"
    unread: list[Unread] = []
    names = _source_names(path, what, unread)
    environments = [u for u in unread if u.why.endswith("environment")]
    counts = {language: sum(1 for n in names if _source_of(n) == language) for language in SHOWN}
    if not any(counts.values()):
        others = [u for u in unread if u.why == "directory link" or (u not in environments and _source_of(u.path))]
        besides = (f" but in what it skips, {environments_said(environments)}" if environments else "") + (
            f"; not read: {others_said(others)}" if others else "")
        raise InputError(path, f"{what} holds no JavaScript (.js, .mjs, .cjs) or Python (.py) source files{besides}")
    if chosen is not None:
        if not counts[chosen]:
            other = _other(chosen)
            raise InputError(path, f"{what} holds no {SHOWN[chosen][0]} source files ({SHOWN[chosen][1]}); it holds "
                                   f"{counts[other]} {SHOWN[other][0]} files (--language {_OPTION_OF[other]})")
        return chosen, _notes(path, unread, chosen)
    if not counts["javascript"] or not counts["python"]:
        language: Language = "python" if counts["python"] else "javascript"
        return language, _notes(path, unread, language)
    language, why = _both(names, counts)
    other = _other(language)
    chose = (f"{path}: holds {counts['python']} Python and {counts['javascript']} JavaScript source files; scanning "
             f"the {SHOWN[language][0]} ({why}); --language {_OPTION_OF[other]} scans the {SHOWN[other][0]}")
    return language, (*_notes(path, unread, language), chose)


def _notes(path: Path, unread: list[Unread], language: Language) -> tuple[str, ...]:
    """What the scan of `language` leaves unread, said: its environments, macOS metadata, the links
    to directories, and the links and special files named as its source files."""
    said = [u for u in unread if u.why in ("directory link", "resource forks") or u.why.endswith("environment")
            or _source_of(u.path) == language]
    return unread_lines(str(path), said)


def _both(names: list[str], counts: dict[Language, int]) -> tuple[Language, str]:
    declared = [language for language, manifests in _MANIFESTS.items() if any(n in manifests for n in names)]
    if len(declared) == 1:
        found = sorted(n for n in names if n in _MANIFESTS[declared[0]])[0]
        return declared[0], f"{found} at its root"
    if counts["javascript"] > counts["python"]:
        return "javascript", "more of its files are JavaScript"
    return "python", "more of its files are Python" if counts["python"] > counts["javascript"] else "as many of each"


def _source_names(path: Path, what: str, unread: list[Unread]) -> list[str]:
    """The source files and root manifests of a tree, as posix paths inside it (an archive's
    below its single top-level directory); what it leaves unread appended to `unread`."""
    if what == "directory":
        return list(walk(path, _counted, "source", unread))
    return [member.name for member in strip_top(archive_members(path, _counted, unread))]


def _counted(name: str) -> bool:
    """A source file, or a file named like a manifest (`_both` takes those at the root only)."""
    return _source_of(name) is not None or name.rsplit("/", 1)[-1] in _MANIFESTS["javascript"] | _MANIFESTS["python"]


def _source_of(name: str) -> Language | None:
    return "javascript" if javascript_source(name) else "python" if python_source(name) else None


def _other(language: Language) -> Language:
    return "python" if language == "javascript" else "javascript"


def is_tree(path: Path) -> bool:
    """A directory, or an archive that may hold either language."""
    if path.name.lower().endswith(_TREE_ARCHIVES):
        return True
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except OSError:
        return False
