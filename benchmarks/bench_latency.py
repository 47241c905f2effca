"""Retrieval latency on MuSiQue-train per method, PPR engine and layer search: p50/p95, the stage
breakdown and the first (cold) query, with dense retrieval as the baseline measured in the same run.
A thin user of the evaluation harness: each row is a variant with its own fresh RetrievalContext.

    python benchmarks/bench_latency.py [--space musique] [--limit 100]

Answer generation is excluded. Writes benchmarks/results/latency/ (report.json, report.md, plots).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import MUSIQUE, RESULTS, drop_projections  # noqa: E402
from memgraph_neo4j.api import MemoryGraph  # noqa: E402
from memgraph_neo4j.evaluation.datasets import load_dataset  # noqa: E402
from memgraph_neo4j.evaluation.report import write_report  # noqa: E402
from memgraph_neo4j.evaluation.runner import evaluate, evaluate_variant  # noqa: E402
from memgraph_neo4j.evaluation.variants import Variant  # noqa: E402

ROWS = [("dense", "gds", "index"), ("bm25", "gds", "index"),
        *((method, engine, layers) for method in ("hipporag2", "memgraphrag")
          for engine, layers in (("gds", "index"), ("gds", "local"), ("local", "index"), ("local", "local"),
                                 ("client", "index")))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--space", default="musique")
    parser.add_argument("--limit", type=int, default=100)
    args = parser.parse_args()
    rows = [Variant(f"{m}-{e}-{layers}", m if m in ("dense", "bm25") else f"{m} ({e}, {layers} layers)", m,
                    options=(("ppr_engine", e), ("layer_search", layers)) + ((("type_weight", 0.0),)
                                                                              if m == "hipporag2" else ()))
            for m, e, layers in ROWS]
    dataset = load_dataset(MUSIQUE, limit=args.limit)
    with MemoryGraph(space=args.space) as memory:
        report = evaluate(memory, dataset, [], health=False)  # builds the space if it is missing
        base_config = memory.settings.retrieval_config()
        for row in rows:
            drop_projections(memory.store, args.space)  # the first query of each row is cold
            report.methods.append(evaluate_variant(memory, dataset, row, base_config))
    write_report(report, RESULTS / "latency")
    base = next(m for m in report.methods if m["method"] == "dense")["p50_ms"]
    print("| method (PPR engine, layer search) | p50 ms | p95 ms | p50 / dense | first query ms | stages p50 (ms) |")
    print("|---|---|---|---|---|---|")
    for m in report.methods:
        stages = ", ".join(f"{s} {v}" for s, v in m["stages_p50_ms"].items())
        print(f"| {m['label']} | {m['p50_ms']} | {m['p95_ms']} | {m['p50_ms'] / base:.2f} | {m['first_query_ms']} "
              f"| {stages} |")


if __name__ == "__main__":
    main()
