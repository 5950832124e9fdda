"""What a projection row's `evidence` says, in words, for the index, SARIF and `explain`.

Evidence is read as data: today an entry (`{entry, level, fingerprint}`), tomorrow a chain of
references or several entries. Known keys are said first and in words; any other key is said
as `key: value`, lists are followed link by link, so new kinds of evidence show without a
change here.
"""

from __future__ import annotations

from analyzer.model import OwnerEvidence

_KNOWN = ("level", "entry", "fingerprint")


def evidence_lines(evidence: OwnerEvidence | None) -> list[str]:
    """One line per piece of evidence (an entry, a link of a chain, ...); [] for none."""
    return _lines(evidence)


def _lines(evidence: object) -> list[str]:
    if evidence is None:
        return []
    if isinstance(evidence, list):
        return [line for item in evidence for line in _lines(item)]
    if not isinstance(evidence, dict):
        return [str(evidence)]
    head = []
    if evidence.get("level") is not None:
        head.append(f"{evidence['level']} entry")
    if evidence.get("entry") is not None:
        head.append(str(evidence["entry"]))
    if evidence.get("fingerprint") is not None:
        head.append(str(evidence["fingerprint"]))
    lines = [" ".join(head)] if head else []
    for key, value in evidence.items():
        if key in _KNOWN or value is None:
            continue
        if isinstance(value, (list, dict)):
            inner = _lines(value)
            lines.append(f"{key}: " + " → ".join(inner) if inner else f"{key}: (none)")
        else:
            lines.append(f"{key}: {value}")
    return lines


def evidence_summary(evidence: OwnerEvidence | None) -> str:
    """The evidence on one line ('' for none)."""
    return "; ".join(evidence_lines(evidence))
