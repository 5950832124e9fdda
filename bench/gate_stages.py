"""Where `erratlas gate` spends its CPU on one scan directory, stage by stage, in one process.

usage: python bench/gate_stages.py SCAN_DIR [--runs N]

Run from the repository root (where a scan's recorded allowlist paths are found). Calls the
functions the gate calls, with the collector off as the CLI has it, and prints a markdown table
of the minimum user + system CPU of each stage over N runs (default 5). The reference graph's
lines appear only when an allowlist of the scan has a `references` entry; the projection's line
includes building the graph's edge index and its reach (each run on a fresh graph, built
beforehand); the index pages' line renders them from the owners counted, without the allowlists'
health.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    gc.disable()
    start = time.process_time()
    try:  # what a plain gate command line imports first
        importlib.import_module("analyzer.cli.gating")
    except ImportError:  # a revision before it: the gate's start-up imports the whole CLI
        importlib.import_module("analyzer.cli")
    from analyzer.owners.gate import recorded_allowlists
    from analyzer.owners.handlers import handler_owner_counts, project_handlers
    from analyzer.owners.projection import owner_counts, project
    from analyzer.owners.references import ReferenceGraph
    from analyzer.projected import recompute
    from analyzer.reports.flow import flow_pages
    from analyzer.reports.index import index_files
    from analyzer.scandir.files import SUMMARY_FILE, is_derived
    from analyzer.scandir.load import in_bundle_order, load_callsites, load_handlers, reference_fields
    from analyzer.scandir.read import verified
    from analyzer.scandir.summary import scan_part
    from analyzer.summary_model import OwnerPart

    print(f"| stage | min CPU s of {args.runs} |\n|---|---:|\n| imports (the CLI and the gate's modules) "
          f"| {time.process_time() - start:.3f} |")

    def stage(name: str, work: Callable[[], Any]) -> Any:
        best = float("inf")
        for _ in range(args.runs):
            began = time.process_time()
            made = work()
            best = min(best, time.process_time() - began)
        print(f"| {name} | {best:.3f} |")
        return made

    directory, where = args.directory, args.directory / SUMMARY_FILE
    files, summary = stage("read and verify the directory", lambda: verified(directory))
    allowlists = stage("the recorded allowlists, read again",
                       lambda: recorded_allowlists(summary.allowlists, [], where))
    inventory = {name: data for name, data in files.items() if not is_derived(name)}
    records = stage("callsite records", lambda: in_bundle_order(load_callsites(inventory)))
    handlers = stage("handler records", lambda: load_handlers(inventory)) or []
    graph = None
    if any(entry.level == "references" for allowlist in allowlists for entry in allowlist.entries):
        stage("reference items as tuples (`reference_fields`)", lambda: reference_fields(inventory))
        graph = stage("reference graph, read and built (`ReferenceGraph.load`)", lambda: ReferenceGraph.load(inventory))
    fresh = [ReferenceGraph.load(inventory) for _ in range(args.runs)] if graph is not None else []
    projection = stage("projection (and the graph's edge index and reach)",
                       lambda: project(records, allowlists, fresh.pop() if fresh else None))
    rows = stage("handler owners", lambda: project_handlers(handlers, allowlists, projection, graph))
    findings = [h.findings() for h in handlers]
    flow = stage("flow pages", lambda: flow_pages(handlers, rows, findings, records))
    counted, coverage, invariants = owner_counts(records, projection)
    tallied, more = handler_owner_counts(handlers, rows, findings, scan_part(summary.document, where).handlers)
    owners = OwnerPart(counted, coverage, [], [], [], [], invariants + more, tallied)
    stage("index pages", lambda: index_files(records, projection.rows, owners, scan_part(summary.document, where).head,
                                             [], flow[0]))
    stage("the whole recomputation (`projected.recompute`)", lambda: recompute(directory, files, summary, allowlists))
    return 0


if __name__ == "__main__":
    sys.exit(main())
