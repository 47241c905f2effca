"""Conflict detection and the offline rules on the MuSiQue-train memory (real OpenIE triples).

Needs the memory built first (see bench_retrieval.py). Checks every active fact (`--all`) three times
(after undoing and deleting the conflicts of an earlier run) and reports
the median time per 1,000 checked facts, the conflicts by type and status and the
verdicts applied. The first run resolves; the later ones find the same groups again (idempotent) or
none where a verdict removed a fact. Recall with and without adjudication: bench_retrieval.py.

    python benchmarks/bench_adjudication.py [--space musique] [--runs 3]

Writes benchmarks/results/adjudication.{json,md}.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import RESULTS, write_table  # noqa: E402
from memgraph_neo4j.adjudication import make_adjudicator, summary  # noqa: E402
from memgraph_neo4j.memory.ontology import load_ontology  # noqa: E402
from memgraph_neo4j.server.connection import open_store  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--space", default="musique")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with open_store() as store:
        adjudicator = make_adjudicator(store, args.space, load_ontology())
        print(f"{adjudicator.repository.delete_all()} conflicts of an earlier run reverted and deleted")
        runs = []
        for i in range(args.runs):
            report = adjudicator.run(rescan_all=True, progress=True)
            runs.append(report)
            print(f"run {i + 1}: {summary(report)} in {report.seconds:.1f}s", flush=True)
        conflicts, verdicts = adjudicator.repository.counts()
    per_1000 = [r.seconds / max(r.scanned, 1) * 1000 for r in runs]
    result = {
        "space": args.space, "facts_checked": runs[0].scanned, "candidates": runs[0].candidates,
        "seconds_per_1000_facts": [round(x, 2) for x in per_1000],
        "median_seconds_per_1000_facts": round(statistics.median(per_1000), 2),
        "conflicts": [{"type": t, "status": s, "count": n} for (t, s), n in sorted(conflicts.items())],
        "verdicts_applied": verdicts, "first_run": runs[0].model_dump(),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "adjudication.json").write_text(json.dumps(result, indent=2))
    print(write_table(RESULTS / "adjudication.md", ["type", "status", "conflicts"],
                      [[t, s, n] for (t, s), n in sorted(conflicts.items())]))
    print(f"verdicts applied: {verdicts}; median {result['median_seconds_per_1000_facts']} s per 1,000 facts "
          f"({', '.join(f'{x:.2f}' for x in per_1000)})")


if __name__ == "__main__":
    main()
