"""The bundled all-MiniLM-L6-v2 on its two runtimes: passage throughput and single-query latency.

Throughput: the MuSiQue corpus (1,890 passages, "title\\ntext"), median passages/s over `--runs`.
Latency: one embed_query per MuSiQue question (100), p50/p95 after a warm-up. Baseline in the same
run: the numpy runtime; the length-sorting ablation (batches in corpus order) runs on the default
runtime. Runs are interleaved so load changes hit every mode alike. Writes
benchmarks/results/embed.{json,md}.

    .venv/bin/python benchmarks/bench_embed.py [--limit N] [--runs 3] [--batch-size 64]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import MUSIQUE, RESULTS, write_table  # noqa: E402
from memgraph_neo4j.embeddings.minilm import MiniLMEmbedder  # noqa: E402
from memgraph_neo4j.evaluation.metrics import percentile  # noqa: E402

MODES = [("onnx", True), ("numpy", True), ("onnx", False)]  # (runtime, sort by length)


def padded_tokens(lengths: list[int], batch_size: int) -> int:
    """Tokens actually pushed through the model when each batch pads to its longest text."""
    return sum(max(lengths[s : s + batch_size]) * len(lengths[s : s + batch_size])
               for s in range(0, len(lengths), batch_size))


def timed(model: MiniLMEmbedder, texts: list[str], batch_size: int, sort: bool) -> tuple[float, np.ndarray]:
    model.sort_by_length = sort
    start = time.perf_counter()
    vecs = model.embed_documents(texts, batch_size=batch_size)
    model.sort_by_length = True
    return len(texts) / (time.perf_counter() - start), vecs


def query_latencies(model: MiniLMEmbedder, questions: list[str]) -> list[float]:
    for q in questions[:10]:
        model.embed_query(q + " warm-up")
    out = []
    for q in questions:
        start = time.perf_counter()
        model.embed_query(q)
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=MUSIQUE / "corpus.json")
    ap.add_argument("--limit", type=int, default=None, help="embed only the first N passages")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--batch-size", type=int, default=64)
    args = ap.parse_args()
    if not args.corpus.is_file():
        print(f"corpus not found: {args.corpus}", file=sys.stderr)
        return 2

    passages = json.loads(args.corpus.read_text())[: args.limit]
    texts = [f"{p['title']}\n{p['text']}" for p in passages]
    questions = [q["question"] for q in json.loads((MUSIQUE / "questions.json").read_text())]
    models = {}
    for runtime in ("onnx", "numpy"):
        began = time.perf_counter()
        models[runtime] = MiniLMEmbedder(runtime=runtime)
        print(f"{runtime}: loaded in {time.perf_counter() - began:.2f} s")
        models[runtime].embed_documents(texts[:8])  # warm-up: page in weights, start thread pools
    lengths = [len(e.ids) for e in models["onnx"]._encoder.encode_batch(texts)]  # as the model sees them
    real = sum(lengths)
    print(f"{len(texts)} passages, {real} tokens (mean {real / len(texts):.1f}, max {max(lengths)}), "
          f"batch {args.batch_size}, {os.cpu_count()} CPUs")
    for label, order in (("sorted", sorted(lengths, reverse=True)), ("unsorted", lengths)):
        pad = padded_tokens(order, args.batch_size)
        print(f"  {label:8s}: {pad} tokens incl. padding ({100 * (pad - real) / pad:.1f}% padding)")

    rates: dict[tuple[str, bool], list[float]] = {mode: [] for mode in MODES}
    latencies: dict[str, list[float]] = {runtime: [] for runtime in models}
    ref: np.ndarray | None = None
    max_diff = 0.0
    for run in range(1, args.runs + 1):
        for runtime, sort in MODES:
            rate, vecs = timed(models[runtime], texts, args.batch_size, sort)
            rates[(runtime, sort)].append(rate)
            ref = vecs if ref is None else ref
            max_diff = max(max_diff, float(np.abs(vecs - ref).max()))
            print(f"run {run} {runtime:5s} {'sorted' if sort else 'unsorted':8s}: {rate:7.2f} passages/s", flush=True)
        for runtime, model in models.items():
            latencies[runtime] += query_latencies(model, questions)

    base_rate = statistics.median(rates[("numpy", True)])
    base_p50 = percentile(latencies["numpy"], 0.5)
    rows, saved = [], {}
    for runtime, sort in MODES:
        label = f"{runtime}, {'length-sorted' if sort else 'corpus order'}"
        rate = statistics.median(rates[(runtime, sort)])
        p50 = percentile(latencies[runtime], 0.5) if sort else None
        p95 = percentile(latencies[runtime], 0.95) if sort else None
        saved[label] = {"passages_per_s": round(rate, 2), "query_p50_ms": p50 and round(p50, 2),
                        "query_p95_ms": p95 and round(p95, 2)}
        rows.append([label, f"{rate:.1f}", f"{rate / base_rate:.2f}x",
                     p50 and f"{p50:.2f}", p95 and f"{p95:.2f}", p50 and f"{base_p50 / p50:.2f}x"])
    RESULTS.mkdir(parents=True, exist_ok=True)
    table = write_table(RESULTS / "embed.md",
                        ["runtime, batches", "passages/s (median)", "vs numpy", "query p50 ms", "query p95 ms",
                         "query speed-up vs numpy"], rows)
    (RESULTS / "embed.json").write_text(json.dumps({
        "passages": len(texts), "questions": len(questions), "runs": args.runs, "batch_size": args.batch_size,
        "cpus": os.cpu_count(), "max_abs_difference_between_modes": max_diff, "results": saved}, indent=2) + "\n")
    print(table)
    print(f"max |difference| between all modes' vectors: {max_diff:.1e}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
