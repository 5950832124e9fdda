"""The reviewer's index (SPEC 6): markdown a person can use on ten thousand callsites.

Totals and coverage first; then Dependency by package and function, Product by function,
Unresolved by module and function with their most frequent messages. Every row points at a
line of the readable rendering and at the original offset. Every cell is escaped, so no
message can break a table.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from typing import Any

from analyzer.projection import Projection
from analyzer.reports.readable import readable_names

_CELL_LIMIT = 140
_TOP_MESSAGES = 3
_ESCAPED = re.compile(r"([\\`*_\[\]#~|!])")
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")


#: any character `cell` changes
_SPECIAL = re.compile(r"[&<>\\`*_\[\]#~|!\x00-\x1f\x7f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def cell(value: object, limit: int = _CELL_LIMIT) -> str:
    """Text safe inside a markdown table cell: no pipes, no markup, no HTML, one line."""
    text = "" if value is None else str(value)
    if len(text) > limit:
        text = text[:limit] + "…"
    if not _SPECIAL.search(text):
        return text
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _CONTROL.sub(lambda m: "↵" if m.group() in "\n\r\u2028\u2029" else f"\\u{ord(m.group()):04x}", text)
    return _ESCAPED.sub(r"\\\1", text)


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines + [""]


def _location(record: dict[str, Any], readable: dict[str, str]) -> str:
    path = readable[record["unit"]]
    return f"[{cell(record['unit'], 60)}:{record['readableLine']}]({path}#L{record['readableLine']}) @{record['offset']}"


def _messages(records: list[dict[str, Any]]) -> str:
    if len(records) == 1:
        return cell(records[0]["message"]["comparisonKey"])
    keys = Counter(r["message"]["comparisonKey"] for r in records)
    top = sorted(keys.items(), key=lambda kv: (-kv[1], kv[0]))[:_TOP_MESSAGES]
    return "<br>".join(f"{cell(key, 100)} ×{count}" if len(keys) > 1 else cell(key) for key, count in top)


def _roles(records: list[dict[str, Any]]) -> str:
    if len(records) == 1:
        return str(records[0]["consumer"]["role"])
    roles = Counter(r["consumer"]["role"] for r in records)
    return ", ".join(f"{role} {count}" if len(roles) > 1 else role for role, count in sorted(roles.items()))


def _group_rows(groups: dict[tuple[str, ...], list[dict[str, Any]]], label: int,
                readable: dict[str, str]) -> list[list[str]]:
    rows = []
    for key, members in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        first = members[0]
        fingerprint = first["functionFingerprint"] if len(members) > 1 and first["functionFingerprint"] else first["fingerprint"]
        rows.append([cell(key[label]), str(len(members)), _location(first, readable), _messages(members), _roles(members),
                     f"`{fingerprint}`"])
    return rows


def render_index(
    records: list[dict[str, Any]], projection: Projection, owners: dict[str, Any], base: dict[str, Any]
) -> bytes:
    bundle = base["inputs"]["bundle"]
    lines = [f"# erratlas owner index: {cell(bundle['name'])}", ""]
    lines.append(f"Bundle sha256 `{bundle['sha256']}`, {len(base['inputs']['units'])} unit(s); "
                 f"erratlas {base['tool']['version']}, fingerprints {base['fingerprint']['version']}.")
    lines.append("")
    lines += ["## Totals and coverage", ""]
    counts, coverage = owners["owners"], owners["coverage"]
    rows = []
    for kind in ("error", "diagnostic"):
        c = counts["byKind"][kind]
        rows.append([kind, str(sum(c.values())), str(c["Product"]), str(c["Dependency"]), str(c["Unresolved"]),
                     coverage[kind]["display"]])
    t = counts["total"]
    rows.append(["**all**", str(sum(t.values())), str(t["Product"]), str(t["Dependency"]), str(t["Unresolved"]),
                 coverage["overall"]["display"]])
    lines += _table(["kind", "callsites", "Product", "Dependency", "Unresolved", "coverage"], rows)
    lines += _allowlist_health(base, owners)
    paired = list(zip(records, projection.rows))
    readable = readable_names(unit["name"] for unit in base["inputs"]["units"])
    lines += _dependency_section(paired, readable)
    lines += _product_section(paired, readable)
    lines += _unresolved_section(paired, readable)
    return ("\n".join(lines).rstrip("\n") + "\n").encode("utf-8")


def _allowlist_health(base: dict[str, Any], owners: dict[str, Any]) -> list[str]:
    lines = ["## Allowlists", ""]
    allowlists = base["inputs"]["allowlists"]
    if not allowlists:
        lines += ["No allowlist was applied: every callsite is Unresolved.", ""]
    else:
        lines += _table(["allowlist", "entries", "sha256"],
                        [[cell(a["path"]), str(a["entries"]), f"`{a['sha256'][:16]}…`"] for a in allowlists])
    for title, key in (("Stale entries (match nothing)", "stale"), ("Drifted entries (expect no longer holds)", "drifted")):
        entries = owners[key]
        lines += [f"### {title}: {len(entries)}", ""]
        if entries:
            lines += _table(["entry", "level", "owner", "function", "fingerprint", "found"],
                            [[cell(e["entry"]), e["level"], cell(f"{e['owner']} {e['package'] or ''}".strip()),
                              cell(e["function"]), f"`{e['fingerprint']}`", cell(e.get("found", ""))] for e in entries])
    return lines


def _dependency_section(paired: list[tuple[dict[str, Any], dict[str, Any]]], readable: dict[str, str]) -> list[str]:
    by_package: dict[str, dict[tuple[str, ...], list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for record, row in paired:
        if row["owner"] == "Dependency":
            by_package[row["package"]][(row["function"] or record["scope"]["function"],)].append(record)
    lines = [f"## Dependency: {sum(len(m) for g in by_package.values() for m in g.values())} callsites", ""]
    for package, groups in sorted(by_package.items(), key=lambda kv: (-sum(map(len, kv[1].values())), kv[0])):
        lines += [f"### {cell(package)} ({sum(map(len, groups.values()))})", ""]
        lines += _table(["function", "callsites", "location", "message", "role", "fingerprint"], _group_rows(groups, 0, readable))
    return lines


def _product_section(paired: list[tuple[dict[str, Any], dict[str, Any]]], readable: dict[str, str]) -> list[str]:
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = defaultdict(list)
    for record, row in paired:
        if row["owner"] == "Product":
            groups[(row["function"] or record["scope"]["function"],)].append(record)
    lines = [f"## Product: {sum(map(len, groups.values()))} callsites", ""]
    if groups:
        lines += _table(["function", "callsites", "location", "message", "role", "fingerprint"], _group_rows(groups, 0, readable))
    return lines


def _unresolved_section(paired: list[tuple[dict[str, Any], dict[str, Any]]], readable: dict[str, str]) -> list[str]:
    by_module: dict[str, dict[tuple[str, ...], list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for record, row in paired:
        if row["owner"] == "Unresolved":
            module = record.get("module")
            where = module["name"] if isinstance(module, dict) and module.get("name") else record["unit"]
            scope = record["scope"]["scopePath"][-1]
            by_module[where][(scope,)].append(record)
    total = sum(len(m) for g in by_module.values() for m in g.values())
    lines = [f"## Unresolved: {total} callsites", ""]
    for module, groups in sorted(by_module.items(), key=lambda kv: (-sum(map(len, kv[1].values())), kv[0])):
        lines += [f"### {cell(module)} ({sum(map(len, groups.values()))})", ""]
        lines += _table(["scope", "callsites", "location", "most frequent messages", "role", "fingerprint"],
                        _group_rows(groups, 0, readable))
    return lines
