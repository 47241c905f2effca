"""Ingest's neighbour look-up at a million entities without ingesting them: the exact in-process product
against the inverted-file copy (memory/neighbours.IvfVectors) that replaces it above 200k vectors.

    python benchmarks/bench_ivf_scale.py --space musique --copies 55 [--queries 4700]

The space's entity vectors plus `copies - 1` turned copies of them (the scale run's renamed copies:
each vector turned by a fixed random direction, cosine 1/sqrt(2) to its original, see
benchmarks/scale/replicate.py) make the matrix. The queries are the last `--queries` rows (a batch has
~2,400 names and ~2,300 facts), asked for bridging's 10 nearest at cosine >= 0.8. Reports ms per query
of both, the inverted file's build time and what it missed of the exact answer.
Results: benchmarks/results/ivf_scale.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memgraph_neo4j.memory.neighbours import EntityVectors, IvfVectors  # noqa: E402
from memgraph_neo4j.repository.entities import EntityRepository  # noqa: E402
from memgraph_neo4j.server.connection import open_store  # noqa: E402


def turned(vectors: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    noise = rng.standard_normal(vectors.shape).astype(np.float32)
    noise -= (noise * vectors).sum(1, keepdims=True) * vectors  # orthogonal: cosine exactly 1/sqrt(2)
    noise /= np.linalg.norm(noise, axis=1, keepdims=True)
    out = vectors + noise
    return out / np.linalg.norm(out, axis=1, keepdims=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--space", required=True)
    parser.add_argument("--copies", type=int, default=55)
    parser.add_argument("--queries", type=int, default=4700)
    parser.add_argument("--cells", default="", help="cell counts to compare, comma-separated (default: the rule's)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "ivf_scale.json")
    args = parser.parse_args()
    with open_store() as store:
        vectors = [v for _, _, page in EntityRepository(store, args.space).entity_vector_pages() for v in page]
    base = np.asarray([v for v in vectors if v is not None], dtype=np.float32)
    base /= np.linalg.norm(base, axis=1, keepdims=True)
    rng = np.random.default_rng(0)
    matrix = np.concatenate([base] + [turned(base, rng) for _ in range(args.copies - 1)])
    names = [f"e{i}" for i in range(len(matrix))]
    exact = EntityVectors()
    exact.add(names, ["T"] * len(names), matrix)
    queries = matrix[-args.queries:] + rng.normal(0, 0.02, (args.queries, matrix.shape[1])).astype(np.float32)
    sample = min(500, args.queries)  # the exact product is slow at this size: a sample of the queries
    unit = queries / np.linalg.norm(queries, axis=1, keepdims=True)
    began = time.perf_counter()
    truth = exact._nearest(unit[:sample], 10, 0.8)
    exact_ms = (time.perf_counter() - began) / sample * 1000
    pairs = sum(len(t) for t in truth)
    runs = []
    for cells in [int(c) for c in args.cells.split(",") if c] or [None]:
        began = time.perf_counter()
        ivf = IvfVectors.of(exact, cells=cells)
        build_s = time.perf_counter() - began
        began = time.perf_counter()
        found = ivf._nearest(unit, 10, 0.8)
        ivf_ms = (time.perf_counter() - began) / len(unit) * 1000
        missed = sum(len({j for j, _ in t} - {j for j, _ in f}) for t, f in zip(truth, found[:sample]))
        runs.append({"cells": ivf.cells, "ivf_ms_per_query": round(ivf_ms, 3), "speedup": round(exact_ms / ivf_ms, 1),
                     "ivf_build_s": round(build_s, 1), "ivf_missed": missed})
        print(runs[-1], flush=True)
    result = {"space": args.space, "vectors": len(matrix), "queries": args.queries,
              "exact_ms_per_query": round(exact_ms, 3), "exact_pairs_in_sample": pairs, **runs[0], "runs": runs}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
