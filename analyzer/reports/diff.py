"""The markdown a reviewer reads for a release-to-release diff (`erratlas diff`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TypeVar

from analyzer.diff_model import BriefCallsite, DiffDocument, DiffPair
from analyzer.reports.index import cell

#: rows listed per section; the JSON holds every one
_LISTED = 300
Row = TypeVar("Row")


def render_diff(document: DiffDocument) -> bytes:
    old, new, totals = document.old, document.new, document.counts
    lines = [
        f"# {cell(old.label)} → {cell(new.label)}",
        "",
        f"{old.callsites} callsites before, {new.callsites} after.",
        "",
        "| unchanged | moved | changed | added | removed | ambiguous | owners carried |",
        "|---:|---:|---:|---:|---:|---:|---:|",
        f"| {totals.unchanged} | {totals.moved} | {totals.changed} | {totals.added} | "
        f"{totals.removed} | {totals.ambiguous} | {document.carried} |",
        "",
        "*Moved* and *changed* callsites are paired one to one by evidence (same function, same "
        "unchanged neighbours, or a message no other callsite has); *ambiguous* ones had more than "
        "one candidate and are never paired. `carried.jsonl` proposes each paired callsite's "
        "reviewed owner for `erratlas accept`.",
        "",
    ]
    lines += _section("Moved and changed", [p for p in document.pairs if p.status != "unchanged"],
                      ["status", "new", "old", "message", "evidence", "owner carried"], _pair_row)
    lines += _section("Added", document.added, ["new", "kind", "message", "module"], _record_row)
    lines += _section("Removed", document.removed, ["old", "kind", "message", "module"], _record_row)
    lines += _section("Ambiguous", document.ambiguous, ["new", "kind", "message", "module"], _record_row)
    return ("\n".join(lines) + "\n").encode("utf-8")


def _section(title: str, rows: Sequence[Row], header: list[str], render: Callable[[Row], list[str]]) -> list[str]:
    if not rows:
        return [f"## {title}", "", "None.", ""]
    lines = [f"## {title} ({len(rows)})", ""]
    if title != "Moved and changed":
        modules = Counter((r.module or "(no module)") for r in rows if isinstance(r, BriefCallsite))
        if len(modules) > 1:
            top = ", ".join(f"{cell(name, 60)} ×{n}" for name, n in modules.most_common(8))
            lines += [f"Most in: {top}.", ""]
    lines += ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(render(row)) + " |" for row in rows[:_LISTED]]
    if len(rows) > _LISTED:
        lines.append(f"| … {len(rows) - _LISTED} more in diff.json |" + " |" * (len(header) - 1))
    return [*lines, ""]


def _pair_row(pair: DiffPair) -> list[str]:
    owner = pair.carried
    return [pair.status, f"`{cell(pair.new.id, 80)}`", f"`{cell(pair.old.id, 80)}`",
            cell(pair.new.message), pair.evidence,
            cell(f"{owner.owner} {owner.package or ''}".strip()) if owner else ""]


def _record_row(record: BriefCallsite) -> list[str]:
    return [f"`{cell(record.id, 80)}`", record.kind, cell(record.message), cell(record.module, 60)]
