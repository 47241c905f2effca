"""Search at size on a space a scale run kept: p50/p95, stage medians and Recall@k, per PageRank path.

    python benchmarks/scale/bench_scale.py replicated --copies 53 --keep --space scale_100k   # once, ~2 h
    python benchmarks/scale/bench_scale_search.py --space scale_100k

Each run is a fresh long-lived MemoryGraph with the defaults, warmed by one question, then the 100
MuSiQue questions (`--limit`) with memgraphrag, and dense once. The local engine's forward push
(retrieval/ppr/push.py, the default above `push_min_relationships`) alternates with the power iteration
it replaces (the baseline, same run). Recall is by gold title: in a replicated space the originals
compete with 52 renamed copies of every passage. Results: benchmarks/results/scale/search_<space>.{json,png}.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from memgraph_neo4j.api import MemoryGraph  # noqa: E402
from memgraph_neo4j.config import RetrievalConfig  # noqa: E402
from memgraph_neo4j.embeddings import make_embedder  # noqa: E402
from memgraph_neo4j.evaluation.datasets import load_dataset  # noqa: E402
from memgraph_neo4j.evaluation.metrics import percentile  # noqa: E402
from memgraph_neo4j.server.connection import open_store  # noqa: E402

DATA = Path(os.environ.get("MEMGRAPH_SHARED_DATA") or ROOT.parent / "shared" / "data")
OUT = ROOT / "benchmarks" / "results" / "scale"
PATHS = {"push": {}, "iteration": {"push_min_relationships": 10**15}}


def run(store, space: str, questions, path: str, embedder, with_dense: bool) -> dict:
    memory = MemoryGraph(space=space, store=store, embedder=embedder, retrieval=RetrievalConfig(**PATHS[path]))
    try:
        began = time.perf_counter()
        memory.search(questions[0].question, method="memgraphrag", top_k=5)  # exports, copies, compiles
        first = (time.perf_counter() - began) * 1000
        out = {"path": path, "first_query_ms": round(first), "methods": {}}
        for method in (["memgraphrag", "dense"] if with_dense else ["memgraphrag"]):
            ms, stages, titles = [], {}, []
            for q in questions:
                t = time.perf_counter()
                result = memory.search(q.question, method=method, top_k=5)
                ms.append((time.perf_counter() - t) * 1000)
                for name, value in result.timings_ms.items():
                    stages.setdefault(name, []).append(value)
                titles.append([p.name for p in result.passages])
            recall = {f"recall@{k}": round(statistics.mean(
                len(set(q.gold_titles) & set(t[:k])) / len(set(q.gold_titles)) for q, t in zip(questions, titles)), 3)
                for k in (2, 5)}
            out["methods"][method] = {
                "p50_ms": round(statistics.median(ms), 1), "p95_ms": round(percentile(ms, 0.95), 1), **recall,
                "stages_p50_ms": {k: round(statistics.median(v), 2) for k, v in stages.items()}}
        return out
    finally:
        memory.close()


def plot(result: dict, path: Path) -> None:
    """Stage medians of memgraphrag per run, stacked, with each run's p50 above its bar."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = result["runs"]
    stages = list(dict.fromkeys(k for r in runs for k in r["methods"]["memgraphrag"]["stages_p50_ms"]))
    fig, ax = plt.subplots(figsize=(7, 3.8))
    bottom = [0.0] * len(runs)
    for stage in stages:
        values = [r["methods"]["memgraphrag"]["stages_p50_ms"].get(stage, 0.0) for r in runs]
        ax.bar(range(len(runs)), values, bottom=bottom, label=stage)
        bottom = [b + v for b, v in zip(bottom, values)]
    for i, r in enumerate(runs):
        ax.text(i, bottom[i], f"p50 {r['methods']['memgraphrag']['p50_ms']:.0f} ms", ha="center", va="bottom")
    ax.set_xticks(range(len(runs)), [f"{i + 1}: {r['path']}" for i, r in enumerate(runs)])
    ax.set_ylabel("ms (stage medians)")
    ax.set_title(f"memgraphrag on '{result['space']}', {result['questions']} questions: PageRank by push or iteration",
                 fontsize=10)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--space", default="scale_100k")
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=2, help="push / iteration pairs (push runs once more)")
    args = parser.parse_args()
    questions = load_dataset(DATA / "musique_train").questions[: args.limit]
    embedder = make_embedder("minilm")
    order = ["push", "iteration"] * args.rounds + ["push"]
    runs = []
    with open_store() as store:
        for i, path in enumerate(order):
            load = os.getloadavg()[0]
            row = run(store, args.space, questions, path, embedder, with_dense=i == 0)
            row["load_before"] = round(load, 2)
            runs.append(row)
            m = row["methods"]["memgraphrag"]
            print(f"{path:9s} p50 {m['p50_ms']} p95 {m['p95_ms']} R@2 {m['recall@2']} R@5 {m['recall@5']} "
                  f"stages {m['stages_p50_ms']}", flush=True)
    summary = {path: {"p50_ms_median_of_runs": statistics.median(r["methods"]["memgraphrag"]["p50_ms"]
                                                                 for r in runs if r["path"] == path),
                      "p95_ms_median_of_runs": statistics.median(r["methods"]["memgraphrag"]["p95_ms"]
                                                                 for r in runs if r["path"] == path)}
               for path in PATHS}
    result = {"space": args.space, "questions": len(questions), "runs": runs, "summary": summary,
              "python_peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
              "cpus": os.cpu_count()}
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"search_{args.space}.json").write_text(json.dumps(result, indent=2))
    plot(result, OUT / f"search_{args.space}.png")
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
