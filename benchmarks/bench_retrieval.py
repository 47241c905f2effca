"""Recall@k and latency on MuSiQue-train for every method and ablation, from one run: a thin user of
the evaluation harness (`memgraph-neo4j eval`), so the metrics have one implementation.

The space is built from the real OpenIE triples if it is missing (idempotent otherwise):

    python benchmarks/bench_retrieval.py [--space musique] [--limit 100] [--dataset DIR]

Writes benchmarks/results/retrieval/ (report.json, report.md, recall.png, latency.png).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import MUSIQUE, RESULTS  # noqa: E402
from memgraph_neo4j.api import MemoryGraph  # noqa: E402
from memgraph_neo4j.evaluation.datasets import load_dataset  # noqa: E402
from memgraph_neo4j.evaluation.report import markdown, write_report  # noqa: E402
from memgraph_neo4j.evaluation.runner import evaluate  # noqa: E402
from memgraph_neo4j.evaluation.variants import ABLATION_VARIANTS, DEFAULT_METHODS, variants  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--space", default="musique")
    parser.add_argument("--dataset", type=Path, default=MUSIQUE)
    parser.add_argument("--limit", type=int, default=100)
    args = parser.parse_args()
    dataset = load_dataset(args.dataset, limit=args.limit)
    with MemoryGraph(space=args.space) as memory:
        # the passage methods (METHOD_VARIANTS also holds the conversation ones, and dual needs a model)
        report = evaluate(memory, dataset, variants(list(DEFAULT_METHODS), list(ABLATION_VARIANTS)), health=False)
    write_report(report, RESULTS / "retrieval")
    print(markdown(report))


if __name__ == "__main__":
    main()
