"""Recall@2/@5 and latency on MuSiQue-train for every method and ablation, from one run.

Needs the memory built from the real OpenIE triples first:

    memgraph-neo4j ingest ../shared/data/musique_train/corpus.json \
        --openie ../shared/data/musique_train/openie_gpt-3.5-turbo-1106.json --space musique
    python benchmarks/bench_retrieval.py [--space musique] [--limit 100]

Recall@k: per question, the share of gold (is_supporting) passages, matched by title, among the
top k; averaged. Latency: answer generation excluded; the projection is warm except for the
reported first query. Writes benchmarks/results/retrieval.{json,md,png}.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import MUSIQUE, RESULTS, drop_projections, percentile, write_table  # noqa: E402
from memgraph_neo4j.config import RetrievalConfig, SeedConfig  # noqa: E402
from memgraph_neo4j.embeddings import make_embedder  # noqa: E402
from memgraph_neo4j.retrieval import RetrievalContext, make_retriever  # noqa: E402
from memgraph_neo4j.server.connection import open_store  # noqa: E402

PAPER = SeedConfig.paper()  # eq. 6 mean entity weights, schema filter (active facts, stable schemas)
VARIANTS: dict[str, tuple[str, SeedConfig, dict]] = {
    "dense": ("dense", SeedConfig(), {}),
    "bm25": ("bm25", SeedConfig(), {}),
    "hipporag2": ("hipporag2", SeedConfig(), {"type_weight": 0.0}),
    "memgraphrag paper (eq. 6-8 + schema filter)": ("memgraphrag", PAPER, {}),
    "  ablation: no schema filter": ("memgraphrag", dataclasses.replace(PAPER, schema_filter=False), {}),
    "  ablation: no hub suppression": ("memgraphrag", dataclasses.replace(PAPER, hub_suppression=False), {}),
    "  ablation: no density term": ("memgraphrag", dataclasses.replace(PAPER, density=False), {}),
    "  ablation: no adjudication (facts with a verdict used)": ("memgraphrag", PAPER, {"adjudication": False}),
    "memgraphrag default (HippoRAG-2 entity weights, no filter)": ("memgraphrag", SeedConfig(), {}),
    "  same, no adjudication (facts with a verdict used)": ("memgraphrag", SeedConfig(), {"adjudication": False}),
    "  same, without entity-type edges": ("memgraphrag", SeedConfig(), {"type_weight": 0.0}),
    # exact top-K in process instead of the HNSW indexes, with the in-process PageRank: the fast setting
    "  same, local layers + local PPR (fast setting)": ("memgraphrag", SeedConfig(),
                                                         {"layer_search": "local", "ppr_engine": "local"}),
    "memgraphrag paper, local layers + local PPR": ("memgraphrag", PAPER,
                                                    {"layer_search": "local", "ppr_engine": "local"}),
}


def recall(ranked_titles: list[str], gold: set[str], k: int) -> float:
    return len(gold & set(ranked_titles[:k])) / len(gold)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--space", default="musique")
    parser.add_argument("--limit", type=int, default=100)
    args = parser.parse_args()

    questions = json.loads((MUSIQUE / "questions.json").read_text())[: args.limit]
    embedder = make_embedder("minilm")
    results: dict[str, dict] = {}
    with open_store() as store:
        for label, (method, seed_config, extra) in VARIANTS.items():
            config = dataclasses.replace(RetrievalConfig(seeds=seed_config), **extra)
            retriever = make_retriever(method, RetrievalContext(store, args.space, embedder, config))
            first_ms = None
            if method in ("hipporag2", "memgraphrag"):
                drop_projections(store, args.space)  # measure a cold first query
                began = time.perf_counter()
                retriever.search(questions[0]["question"], top_k=5)
                first_ms = (time.perf_counter() - began) * 1000
            r2, r5, latencies, stages, fallbacks = [], [], [], {}, 0
            for q in questions:
                gold = {p["title"] for p in q["paragraphs"] if p["is_supporting"]}
                began = time.perf_counter()
                res = retriever.search(q["question"], top_k=5)
                latencies.append((time.perf_counter() - began) * 1000)
                titles = [h.name for h in res.passages]
                r2.append(recall(titles, gold, 2))
                r5.append(recall(titles, gold, 5))
                fallbacks += res.fallback
                for stage, ms in res.timings_ms.items():
                    stages.setdefault(stage, []).append(ms)
            results[label] = {
                "R@2": round(statistics.mean(r2), 3), "R@5": round(statistics.mean(r5), 3),
                "p50_ms": round(percentile(latencies, 0.5), 1), "p95_ms": round(percentile(latencies, 0.95), 1),
                "stages_p50_ms": {k: round(statistics.median(v), 2) for k, v in stages.items()},
                "first_query_ms": round(first_ms, 1) if first_ms else None, "dense_fallbacks": fallbacks,
            }
            print(f"{label:52s} R@2 {results[label]['R@2']:.3f}  R@5 {results[label]['R@5']:.3f}  "
                  f"p50 {results[label]['p50_ms']} ms  p95 {results[label]['p95_ms']} ms", flush=True)

    out = RESULTS
    out.mkdir(exist_ok=True)
    (out / "retrieval.json").write_text(json.dumps({"questions": len(questions), "space": args.space,
                                                    "results": results}, indent=2))
    print(write_table(out / "retrieval.md",
                      ["method", "R@2", "R@5", "p50 ms", "p95 ms", "stages p50 (ms)", "first query ms"],
                      [[label, f"{r['R@2']:.3f}", f"{r['R@5']:.3f}", r["p50_ms"], r["p95_ms"],
                        ", ".join(f"{k} {v}" for k, v in r["stages_p50_ms"].items()), r["first_query_ms"]]
                       for label, r in results.items()]))
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        labels = list(results)
        fig, ax = plt.subplots(figsize=(11, 5))
        xs = range(len(labels))
        ax.bar([x - 0.2 for x in xs], [results[k]["R@2"] for k in labels], width=0.4, label="Recall@2")
        ax.bar([x + 0.2 for x in xs], [results[k]["R@5"] for k in labels], width=0.4, label="Recall@5")
        ax.set_xticks(list(xs), labels, rotation=25, ha="right", fontsize=8)
        ax.set_ylim(0, 1)
        ax.set_title(f"MuSiQue-train, {len(questions)} questions, all-MiniLM-L6-v2, real gpt-3.5 triples")
        ax.legend()
        fig.tight_layout()
        fig.savefig(out / "retrieval.png", dpi=120)
    except ImportError:
        print("matplotlib not installed: no plot (pip install 'memgraph-neo4j[bench]')")


if __name__ == "__main__":
    main()
