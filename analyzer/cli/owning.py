"""The owner verbs over a scan directory: project, allow, prune, fmt and gate."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from analyzer.cli.app import ALLOWLISTS, err, reading_a_scan
from analyzer.cli.gating import gate_status
from analyzer.errors import ExitCode, InputError

if TYPE_CHECKING:
    from analyzer.owners.allowlist import Entry


def project(
    directory: Annotated[Path, typer.Argument(help="A scan directory.")],
    allowlist: Annotated[list[Path] | None, ALLOWLISTS] = None,
    no_allowlist: Annotated[bool, typer.Option("--no-allowlist", help="Project with no allowlist: every owner "
                                               "the scan's allowlists gave is dropped.")] = False,
) -> None:
    """Re-project an existing scan with allowlists, without parsing the bundle again."""
    from analyzer.owners.allowlist import load_allowlists
    from analyzer.projected import owner_files
    from analyzer.scandir.files import SUMMARY_FILE, is_derived
    from analyzer.scandir.read import verified
    from analyzer.scandir.summary import scan_part
    from analyzer.scandir.write import write_directory

    reading_a_scan()
    if allowlist and no_allowlist:
        raise InputError("--no-allowlist", "and --allowlist: project with the allowlists given, or with none")
    allowlists = load_allowlists(allowlist or [])
    files, base = verified(directory)
    if not allowlist and not no_allowlist and base.allowlists:
        raise InputError(directory, _keeps_owners(directory, [item.path for item in base.allowlists]))
    inventory = {name: data for name, data in files.items() if not is_derived(name)}
    inventory |= owner_files(inventory, allowlists, scan_part(base.document, directory / SUMMARY_FILE))
    write_directory(directory, inventory)
    _say_owners(inventory)


def _keeps_owners(directory: Path, recorded: list[str]) -> str:
    """Why a bare `project` of a scan with allowlists is refused: it would drop every owner they give."""
    import shlex

    again = "".join(f" -a {shlex.quote(path)}" for path in recorded)
    them, their = ("them", "their") if len(recorded) > 1 else ("it", "its")
    return (f"projected with {len(recorded)} allowlist{'s' if len(recorded) > 1 else ''}, and none given: "
            f"`erratlas project {shlex.quote(str(directory))}{again}` projects {them} again, --no-allowlist drops "
            f"{their} owners")


def _say_owners(files: dict[str, bytes]) -> None:
    err.print(f"erratlas: {owners_line(files)}", markup=False)


def owners_line(files: dict[str, bytes]) -> str:
    from analyzer.scandir.files import SUMMARY_FILE
    from analyzer.scandir.read import parse_summary
    from analyzer.scandir.summary import summary_of

    summary = summary_of(parse_summary(files[SUMMARY_FILE], SUMMARY_FILE), SUMMARY_FILE)
    coverage = summary.coverage.overall
    return (f"owners: {coverage.owned} of {coverage.total} owned ({coverage.display}), "
            f"{len(summary.stale)} stale, {len(summary.drifted)} drifted, {len(summary.ambiguous)} ambiguous entries")


#: the scope a fingerprint given as `allow`'s target names (the option that would say the same)
_TARGET_SCOPES = {"fp1f": "--function", "fp1m": "--module", "fp1b": "--references"}


#: the owner facts of an entry (docs/reference.md, "Allowlists"), each independent of --owner
_CATCH_OWNER = typer.Option("--catch-owner", help="Owner fact catchOwner: who owns catching it.")
_RETRY_OWNER = typer.Option("--retry-owner", help="Owner fact retryOwner: who owns retrying it.")
_TOOL_RESULT_OWNER = typer.Option("--tool-result-owner", help="Owner fact toolResultOwner: who owns its tool result.")
_USER_SURFACE_OWNER = typer.Option("--user-surface-owner",
                                   help="Owner fact userSurfaceOwner: who owns what the user sees of it.")


def allow(
    directory: Annotated[Path, typer.Argument(help="A scan directory.")],
    target: Annotated[
        str, typer.Argument(help="A callsite id (e:cli.js@123) or fingerprint (fp1:/fp1f:/fp1m:/fp1b:).")
    ],
    allowlist: Annotated[Path, typer.Option("--allowlist", "-a", help="The allowlist to write (created if absent).")],
    owner: Annotated[str, typer.Option("--owner", help="Product or Dependency.")],
    reason: Annotated[str, typer.Option("--reason", help="Why this owner: what you checked.")],
    reviewer: Annotated[str, typer.Option("--reviewer", help="Who reviewed it.")],
    name: Annotated[str | None, typer.Option("--name", help="Reviewed function name, e.g. ZodType._parse.")] = None,
    package: Annotated[str | None, typer.Option("--package", help="Exact npm/PyPI package (Dependency).")] = None,
    function_scope: Annotated[bool, typer.Option("--function", help="Cover the callsite's whole function.")] = False,
    module_scope: Annotated[bool, typer.Option("--module", help="Cover the callsite's whole module.")] = False,
    references_scope: Annotated[
        bool,
        typer.Option(
            "--references",
            help="Product by reference: root the top-level "
            "binding declared where the callsite is (or TARGET fp1b:...).",
        ),
    ] = False,
    all_copies: Annotated[
        bool,
        typer.Option(
            "--all-copies", help="The code has identical copies in the scan: own all of them, reviewed together."
        ),
    ] = False,
    catch_owner: Annotated[str | None, _CATCH_OWNER] = None,
    retry_owner: Annotated[str | None, _RETRY_OWNER] = None,
    tool_result_owner: Annotated[str | None, _TOOL_RESULT_OWNER] = None,
    user_surface_owner: Annotated[str | None, _USER_SURFACE_OWNER] = None,
    on: Annotated[str | None, typer.Option("--on", help="Review date YYYY-MM-DD (default today).")] = None,
) -> None:
    """Write a reviewed entry for a callsite (or its function/module) into an allowlist."""
    from analyzer.owners.review import add_entry

    scopes = [name for name, given in (("--function", function_scope), ("--module", module_scope),
                                       ("--references", references_scope)) if given]
    if len(scopes) > 1:
        raise InputError(scopes[0], f"and {scopes[1]}: an entry covers one scope, choose one")
    named = _TARGET_SCOPES.get(target.partition(":")[0])
    if named is not None and scopes and scopes[0] != named:  # else the target's scope is written, unsaid
        raise InputError(scopes[0], f"and the {named.lstrip('-')} fingerprint {target}: the fingerprint chooses the "
                                    f"scope; give a callsite id (e:..., d:...) with {scopes[0]}, or leave it out")
    extra = {"catchOwner": catch_owner, "retryOwner": retry_owner, "toolResultOwner": tool_result_owner,
             "userSurfaceOwner": user_surface_owner}
    held = _held_entries(allowlist)
    entry = add_entry(
        directory, target, allowlist, owner=owner, package=package, function=name, reason=reason,
        reviewer=reviewer, scope="references" if references_scope else "module" if module_scope
        else "function" if function_scope else "callsite",
        owner_fields={k: v for k, v in extra.items() if v is not None}, reviewed_on=on, all_copies=all_copies,
    )
    earlier = held.get(entry.identity())
    if earlier is None:
        done = ""
    elif dataclasses.replace(earlier, origin=entry.origin) == entry:
        done = ": the allowlist held this entry already, unchanged"
    else:
        done = (f" (replacing {earlier.owner}{f' {earlier.package}' if earlier.package else ''}, reviewed by "
                f"{earlier.reviewed_by} on {earlier.reviewed_on}, {earlier.origin})")
    err.print(f"erratlas: {allowlist}: {entry.level} {entry.fingerprint} -> {entry.owner}"
              + (f" {entry.package}" if entry.package else "") + done, markup=False)


def _held_entries(allowlist: Path) -> dict[tuple[object, ...], Entry]:
    """The entries `allowlist` holds before `allow` writes it, by what each names: `allow` replaces
    one, and says so. An allowlist that cannot be read holds none here: `allow` refuses it."""
    from analyzer.owners.allowlist import load_allowlist

    try:
        return {entry.identity(): entry for entry in load_allowlist(allowlist).entries}
    except InputError:
        return {}


def prune(
    directory: Annotated[Path, typer.Argument(help="A scan directory.")],
    allowlist: Annotated[list[Path], ALLOWLISTS],
) -> None:
    """Remove the entries that match nothing in the scan (stale), and nothing else."""
    from analyzer.owners.review import prune_stale

    for path, removed, repeated in prune_stale(directory, allowlist):
        err.print(f"erratlas: {path}: removed {len(removed)} stale entries", markup=False)
        for entry in removed:
            err.print(f"  - {entry.level} {entry.fingerprint} ({entry.owner} {entry.function or ''})".rstrip(),
                       markup=False)
        if repeated:  # written in canonical form: one entry per match and verdict
            err.print(f"erratlas: {path}: {len(repeated)} entries left out, each repeating a later one's match and "
                      "owner: " + ", ".join(e.origin for e in repeated), markup=False)


def fmt(
    allowlists: Annotated[list[Path], typer.Argument(help="Allowlist TOML files.")],
    check: Annotated[bool, typer.Option("--check", help="Change nothing; exit 1 naming each file that is not in "
                                        "canonical form (for a pre-commit hook or CI).")] = False,
) -> None:
    """Write allowlists in the canonical form `allow` and `accept` write (entries sorted, keys in a
    fixed order; comments are not kept), so that review diffs stay small."""
    from analyzer.owners.allowlist import (
        load_allowlist,
        overridden,
        refuse_keyless,
        refuse_repeated,
        render,
        write_allowlist,
    )

    refuse_repeated(allowlists)  # else rewritten, then said to be 'already in canonical form'
    loaded = [(path, list(load_allowlist(path).entries)) for path in allowlists]  # one refused: none written
    for path in allowlists:
        refuse_keyless(path)
    off = []
    for path, entries in loaded:
        if render(entries) == path.read_bytes():
            if not check:  # a rewrite that left the file as it was says so (`--check` passes in silence, for hooks)
                err.print(f"erratlas: {path}: already in canonical form, left as it was", markup=False)
            continue
        off.append(path)
        dropped = overridden(entries)  # the canonical form holds one entry per match and verdict
        repeating = f", each repeating a later one's match and owner: {', '.join(e.origin for e in dropped)}"
        if check:
            typer.echo(f"{path}: not in canonical form (erratlas fmt {path})"
                       + (f"; the rewrite would leave out {len(dropped)} entries{repeating}" if dropped else ""))
        else:
            write_allowlist(path, entries)
            err.print(f"erratlas: {path}: rewritten in canonical form"
                      + (f"; {len(dropped)} entries left out{repeating}" if dropped else ""), markup=False)
    raise typer.Exit(int(ExitCode.FINDINGS if check and off else ExitCode.OK))


def gate(
    directory: Annotated[Path, typer.Argument(help="A scan directory.")],
    min_coverage: Annotated[
        float | None, typer.Option("--min-coverage", help="Overall (Product+Dependency)/total.")
    ] = None,
    min_kind: Annotated[
        list[str] | None, typer.Option("--min-coverage-kind", help="KIND=F, e.g. error=0.9 (repeatable).")
    ] = None,
    baseline: Annotated[
        Path | None, typer.Option("--baseline", help="A summary: fail on new Unresolved callsites.")
    ] = None,
    allowlist: Annotated[
        list[Path] | None,
        typer.Option(
            "--allowlist",
            "-a",
            help="The allowlists the scan used "
            "(repeatable; default: the paths its summary records, from the current directory). "
            "Given, they must be exactly the scan's, by sha256.",
        ),
    ] = None,
    allow_stale: Annotated[
        bool, typer.Option("--allow-stale", help="Do not fail on stale, drifted or ambiguous entries.")
    ] = False,
    max_drop: Annotated[
        float | None,
        typer.Option("--max-drop", help="With --baseline: fail when the callsites fell by more than this share of "
                     "the baseline's (0 to 1, default 0.5; a wrong input or a broken build)."),
    ] = None,
    allow_empty: Annotated[
        bool, typer.Option("--allow-empty", help="Gate a scan that holds no callsite (refused otherwise).")
    ] = False,
    max_new_swallowed: Annotated[
        int | None,
        typer.Option("--max-new-swallowed", min=0, help="With --baseline: fail when more than N Product handlers "
                     "that swallow an error are new (by fp1h fingerprint)."),
    ] = None,
    max_new_lost_cause: Annotated[
        int | None,
        typer.Option("--max-new-lost-cause", min=0, help="With --baseline: fail when more than N Product handlers "
                     "whose wrap loses the cause are new (by fp1h fingerprint)."),
    ] = None,
    output_format: Annotated[
        str,
        typer.Option(
            "--format",
            help="text, github (workflow annotations) or sarif (SARIF 2.1.0 of the failing callsites and handlers "
            "on stdout).",
        ),
    ] = "text",
    bundle: Annotated[
        Path | None,
        typer.Option("--bundle", help="With --format sarif: the bundle DIR scanned, as seen from here (results "
                     "point at the original sources its map names)."),
    ] = None,
) -> None:
    """Exit 0 when every threshold holds, 1 when one fails, 2 when the directory is unusable:
    the gate recomputes the owners from the inventory and the allowlists, and believes only
    what it recomputed."""
    raise typer.Exit(gate_status(directory, typer.echo, min_coverage, min_kind, baseline, allowlist, allow_stale,
                                 max_drop, allow_empty, max_new_swallowed, max_new_lost_cause, output_format, bundle))
