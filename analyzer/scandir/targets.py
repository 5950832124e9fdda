"""What an id or fingerprint given to `explain` or `allow` names when it names nothing in a scan:
the unit it asked for that the scan lacks, the nearest record of the unit it names, or the forms
an id takes, so that the line says what to give instead."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable

#: a record's id: its letter (`e` error, `d` diagnostic, `h` handler), its unit and its offset
_ID = re.compile(r"[a-z]:(?P<unit>.+)@(?P<offset>[0-9]+)\Z", re.DOTALL)
#: what follows a fingerprint's prefix: the digest's 32 hex digits, as every record writes them
_DIGEST = re.compile(r"[0-9a-f]{32}\Z")
#: what each fingerprint's prefix names
_FINGERPRINTS = {"fp1:": "callsite", "fp1f:": "function", "fp1m:": "module", "fp1h:": "handler", "fp1b:": "binding"}
#: the fingerprints `explain` takes (and handler ids), and those `allow` takes
EXPLAINED = ("fp1:", "fp1f:", "fp1m:", "fp1h:")
ALLOWED = ("fp1:", "fp1f:", "fp1m:", "fp1b:")
_UNITS_SHOWN = 3


def nothing_named(what: str, target: str, ids: Iterable[str], taken: tuple[str, ...] = EXPLAINED) -> str:
    """The problem of `target`, which names no `what` ('callsite', 'handler') of a scan whose
    records of that kind have `ids`; `taken`: the fingerprints the verb takes."""
    given = _ID.match(target) if not target.startswith("h:") or "fp1h:" in taken else None
    if given is None:
        prefix = target.partition(":")[0] + ":"
        if prefix in taken and not _DIGEST.match(target[len(prefix):]):
            return f"'{target}' is not a {_FINGERPRINTS[prefix]} fingerprint ({prefix} and 32 hex digits)"
        if prefix in taken:
            return f"no {_FINGERPRINTS[prefix]} with fingerprint '{target}' in this scan"
        handlers = ", a handler id (h:UNIT@OFFSET)" if "fp1h:" in taken else ""
        return (f"'{target}' is not a callsite id (e:UNIT@OFFSET, d:UNIT@OFFSET){handlers} or a fingerprint "
                f"({', '.join(taken)})")
    by_unit: dict[str, list[tuple[int, str]]] = {}
    for name in ids:
        found = _ID.match(name)
        if found is not None:
            by_unit.setdefault(found["unit"], []).append((int(found["offset"]), name))
    unit, offset = given["unit"], int(given["offset"])
    if unit not in by_unit:
        units = sorted(by_unit)
        shown = ", ".join(units[:_UNITS_SHOWN]) + (f" and {len(units) - _UNITS_SHOWN} more"
                                                   if len(units) > _UNITS_SHOWN else "")
        return (f"no {what} of a unit '{unit}' in this scan ("
                + (f"its {what}s are in {shown})" if units else f"it holds no {what})"))
    records = sorted(by_unit[unit])
    at = bisect.bisect_left(records, (offset, ""))
    near = min(records[max(at - 1, 0):at + 1], key=lambda record: (abs(record[0] - offset), record[0]))
    return f"no {what} with id '{target}' in this scan; the nearest in {unit} is {near[1]}"
