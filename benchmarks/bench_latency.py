"""Retrieval latency on MuSiQue-train: p50/p95 per method, PPR engine and layer search, the stage
breakdown, and the cost of the first query (projection build, statistics and, for the local engine and
the local layer search, the exports).

Needs the memory built from the real OpenIE triples first (see bench_retrieval.py), then:

    python benchmarks/bench_latency.py [--space musique] [--limit 100]

Answer generation is excluded. Each row starts cold (every projection of the space dropped, a new
RetrievalContext), times that first query, warms up on --warmup questions, then times every question.
Baseline for the ratios: dense retrieval, measured in the same run. Writes
benchmarks/results/latency.{json,md,png}.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import MUSIQUE, RESULTS, drop_projections, percentile, write_table  # noqa: E402
from memgraph_neo4j.config import RetrievalConfig  # noqa: E402
from memgraph_neo4j.embeddings import make_embedder  # noqa: E402
from memgraph_neo4j.retrieval import RetrievalContext, make_retriever  # noqa: E402
from memgraph_neo4j.server.connection import open_store  # noqa: E402

# (method, PPR engine, layer search)
ROWS = [("dense", "-", "index"), ("bm25", "-", "index"),
        ("hipporag2", "gds", "index"), ("hipporag2", "local", "index"), ("hipporag2", "local", "local"),
        ("memgraphrag", "gds", "index"), ("memgraphrag", "gds", "local"), ("memgraphrag", "local", "index"),
        ("memgraphrag", "local", "local"), ("memgraphrag", "client", "index")]
STAGES = ["search", "embed", "vector", "seeding", "projection", "ppr", "fetch"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--space", default="musique")
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--replot", action="store_true", help="redraw latency.png from latency.json, no queries")
    args = parser.parse_args()
    out = RESULTS
    if args.replot:
        saved = json.loads((out / "latency.json").read_text())
        plot(saved["results"], saved["questions"], out / "latency.png")
        return

    questions = [q["question"] for q in json.loads((MUSIQUE / "questions.json").read_text())[: args.limit]]
    embedder = make_embedder("minilm")
    embedder.embed_query("warm up the model")
    results: dict[str, dict] = {}
    with open_store() as store:
        for method, engine, layers in ROWS:
            label = method if engine == "-" else f"{method} ({engine}{', local layers' if layers == 'local' else ''})"
            drop_projections(store, args.space)
            config = RetrievalConfig(ppr_engine="gds" if engine == "-" else engine, layer_search=layers)
            retriever = make_retriever(method, RetrievalContext(store, args.space, embedder, config))
            began = time.perf_counter()
            first = retriever.search(questions[0])
            first_ms = (time.perf_counter() - began) * 1000
            for q in questions[1 : 1 + args.warmup]:
                retriever.search(q)
            totals, stages = [], {}
            for q in questions:
                began = time.perf_counter()
                result = retriever.search(q)
                totals.append((time.perf_counter() - began) * 1000)
                for stage, ms in result.timings_ms.items():
                    stages.setdefault(stage, []).append(ms)
            results[label] = {
                "method": method, "engine": engine, "layer_search": layers,
                "p50_ms": round(percentile(totals, 0.5), 1), "p95_ms": round(percentile(totals, 0.95), 1),
                "stages_p50_ms": {s: round(statistics.median(stages[s]), 2) for s in STAGES if s in stages},
                "first_query_ms": round(first_ms, 1),
                "first_query_stages_ms": first.timings_ms,
            }
            r = results[label]
            print(f"{label:22s} p50 {r['p50_ms']:6.1f} ms  p95 {r['p95_ms']:6.1f} ms  "
                  f"first {r['first_query_ms']:7.1f} ms  {r['stages_p50_ms']}", flush=True)
    base = results["dense"]["p50_ms"]
    for r in results.values():
        r["p50_vs_dense"] = round(r["p50_ms"] / base, 2)
    for label, r in results.items():
        if r["engine"] in ("local", "client") or r["layer_search"] == "local":
            r["p50_vs_gds"] = round(r["p50_ms"] / results[f"{r['method']} (gds)"]["p50_ms"], 2)

    out.mkdir(exist_ok=True)
    (out / "latency.json").write_text(json.dumps({"questions": len(questions), "space": args.space,
                                                  "results": results}, indent=2))
    print(write_table(out / "latency.md",
                      ["method (PPR engine, layers)", "p50 ms", "p95 ms", "p50 / dense", "stage p50s (ms)",
                       "first query ms"],
                      [[label, r["p50_ms"], r["p95_ms"], f"{r['p50_vs_dense']}x",
                        ", ".join(f"{k} {v}" for k, v in r["stages_p50_ms"].items()), r["first_query_ms"]]
                       for label, r in results.items()]))
    plot(results, len(questions), out / "latency.png")


def plot(results: dict[str, dict], n: int, path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed: no plot (pip install 'memgraph-neo4j[bench]')")
        return
    labels = list(results)[::-1]
    limit = 1.15 * max(r["p95_ms"] for r in results.values() if r["engine"] != "client")
    fig, ax = plt.subplots(figsize=(10, 4.5))
    left = [0.0] * len(labels)
    for stage in STAGES:
        widths = [results[k]["stages_p50_ms"].get(stage, 0.0) for k in labels]
        if any(widths):
            ax.barh(labels, widths, left=left, label=stage)
            left = [a + b for a, b in zip(left, widths, strict=True)]
    p95 = [results[k]["p95_ms"] for k in labels]
    ax.scatter([min(v, limit) for v in p95], labels, marker="|", s=300, color="black", label="p95 total")
    for label, total in zip(labels, left, strict=True):
        if total > limit:  # the client engine: far off the scale, drawn cut with its numbers
            r = results[label]
            ax.text(limit * 0.98, label, f"p50 {r['p50_ms']:.0f} ms, p95 {r['p95_ms']:.0f} ms  →",
                    ha="right", va="center", fontsize=8, color="white")
    ax.set_xlim(0, limit)
    ax.axvline(30, linestyle="--", color="grey", linewidth=1)
    ax.text(30, len(labels) - 0.4, " 30 ms target", color="grey", fontsize=8)
    ax.set_xlabel("milliseconds (stacked: median of each stage; answer generation excluded)")
    ax.set_title(f"Retrieval latency, MuSiQue-train, {n} questions, warm projection, 2 cores")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    main()
