"""Throughput of the bundled numpy all-MiniLM-L6-v2 on the MuSiQue corpus (1,890 passages).

Embeds "title\\ntext" per passage, `--runs` times, and reports the median passages/second.
As an in-run baseline it also times the naive way (batches in corpus order, no length
sorting) so the speed-up from sorting is a ratio measured on the same machine and load.

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

from memgraph_neo4j.embeddings.minilm import MiniLMEmbedder, get_minilm

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "data" / "musique_train" / "corpus.json"


def padded_tokens(lengths: list[int], batch_size: int) -> int:
    """Tokens actually pushed through the model when each batch pads to its longest text."""
    return sum(max(lengths[s : s + batch_size]) * len(lengths[s : s + batch_size])
               for s in range(0, len(lengths), batch_size))


def timed(model: MiniLMEmbedder, texts: list[str], batch_size: int, sort: bool) -> tuple[float, np.ndarray]:
    model.sort_by_length = sort
    start = time.perf_counter()
    vecs = model.embed_documents(texts, batch_size=batch_size)
    return len(texts) / (time.perf_counter() - start), vecs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--limit", type=int, default=None, help="embed only the first N passages")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--batch-size", type=int, default=64)
    args = ap.parse_args()
    if not args.corpus.is_file():
        print(f"corpus not found: {args.corpus}", file=sys.stderr)
        return 2

    passages = json.loads(args.corpus.read_text())[: args.limit]
    texts = [f"{p['title']}\n{p['text']}" for p in passages]
    model = get_minilm()
    lengths = [len(e.ids) for e in model._encoder.encode_batch(texts)]  # as the model sees them
    model.embed_documents(texts[:8])  # warm-up: page in weights, start the thread pool once

    real = sum(lengths)
    print(f"{len(texts)} passages, {real} tokens (mean {real / len(texts):.1f}, max {max(lengths)}), "
          f"batch {args.batch_size}, workers {model.workers}, {os.cpu_count()} CPUs")
    for label, order in (("sorted", sorted(lengths, reverse=True)), ("unsorted", lengths)):
        pad = padded_tokens(order, args.batch_size)
        print(f"  {label:8s}: {pad} tokens incl. padding ({100 * (pad - real) / pad:.1f}% padding)")

    rates: dict[str, list[float]] = {"sorted": [], "unsorted": []}
    ref: np.ndarray | None = None
    max_diff = 0.0
    for run in range(1, args.runs + 1):
        for label in rates:  # interleaved so load changes hit both modes alike
            rate, vecs = timed(model, texts, args.batch_size, sort=label == "sorted")
            rates[label].append(rate)
            ref = vecs if ref is None else ref
            max_diff = max(max_diff, float(np.abs(vecs - ref).max()))
            print(f"run {run} {label:8s}: {rate:7.2f} passages/s", flush=True)
    model.sort_by_length = True

    sorted_med = statistics.median(rates["sorted"])
    unsorted_med = statistics.median(rates["unsorted"])
    print(f"median sorted   : {sorted_med:.2f} passages/s")
    print(f"median unsorted : {unsorted_med:.2f} passages/s")
    print(f"speed-up from length sorting: {sorted_med / unsorted_med:.2f}x "
          f"(max |difference| between all runs' vectors: {max_diff:.1e})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
