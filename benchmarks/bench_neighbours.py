"""The ingest's neighbour look-ups at the size of a space: the vector index against the exact in-process
copy and against the inverted-file copy that replaces it above 200k vectors (memory/neighbours.py),
the same queries, alternating, in one run. Entities: resolution and
bridging's look-up of a batch's names; facts: adjudication's candidates by meaning of newly active facts.

    python benchmarks/bench_neighbours.py --space scale_r3 [--queries 2000] [--runs 5]

The queries are the space's own entity vectors, slightly perturbed (as a batch's new names near stored
ones are), asked with the ingest's parameters (fetch 30, min cosine 0.8). Facts: the
candidates by meaning of `--queries` stored facts (δ 0.9, 20 per fact, 100 fetched), as adjudication asks.
Reports per-query medians of each way, the copies' load times, and what the approximate ones (the index,
the inverted file) missed of the exact neighbours.
Results: benchmarks/results/neighbours.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memgraph_neo4j.adjudication.similar import similar_candidates  # noqa: E402
from memgraph_neo4j.config import AdjudicationConfig, MemoryConfig  # noqa: E402
from memgraph_neo4j.memory.neighbours import ExactEntityLookup, IvfVectors, SpaceVectors  # noqa: E402
from memgraph_neo4j.repository.conflicts import ConflictRepository  # noqa: E402
from memgraph_neo4j.repository.entities import EntityRepository, VectorQuery  # noqa: E402
from memgraph_neo4j.repository.facts import FactRepository  # noqa: E402
from memgraph_neo4j.server.connection import open_store  # noqa: E402


class Held:
    """A copy as adjudication asks for it (SpaceVectors.current), without the count check."""

    def __init__(self, copy) -> None:
        self.copy = copy

    def current(self):
        return self.copy


def fact_candidates(store, space: str, queries: int, runs: int) -> dict:
    config, facts = AdjudicationConfig(), FactRepository(store, space)
    repository = ConflictRepository(store, space)
    copy = SpaceVectors(facts.fact_vector_pages, facts.fact_count, 10**9)  # exact at any size: the reference
    began = time.perf_counter()
    held = copy.current()
    load_s = time.perf_counter() - began
    ivf = Held(IvfVectors.of(held))  # the same rows in the inverted file (what a space above the cap gets)
    ids = list(np.random.default_rng(1).choice(held.ids, size=min(queries, len(held.ids)), replace=False))
    index_s, exact_s, ivf_s = [], [], []
    for _ in range(runs):
        began = time.perf_counter()
        from_index = similar_candidates(repository, None, ids, config.similarity, config.max_candidates)
        index_s.append(time.perf_counter() - began)
        began = time.perf_counter()
        exact = similar_candidates(repository, copy, ids, config.similarity, config.max_candidates)
        exact_s.append(time.perf_counter() - began)
        began = time.perf_counter()
        from_ivf = similar_candidates(repository, ivf, ids, config.similarity, config.max_candidates)
        ivf_s.append(time.perf_counter() - began)
    pairs = lambda found: {(c.fact, c.candidate) for c in found}  # noqa: E731
    a, b, c = pairs(exact), pairs(from_index), pairs(from_ivf)
    per_query = lambda s: round(statistics.median(s) / len(ids) * 1000, 3)  # noqa: E731
    return {"facts": len(held), "queries": len(ids), "copy_load_s": round(load_s, 2),
            "index_ms_per_query": per_query(index_s), "exact_ms_per_query": per_query(exact_s),
            "ivf_ms_per_query": per_query(ivf_s), "ivf_cells": ivf.copy.cells,
            "speedup": round(statistics.median(index_s) / statistics.median(exact_s), 1),
            "candidates_exact": len(a), "candidates_index": len(b), "index_missed": len(a - b),
            "index_only": len(b - a), "ivf_missed": len(a - c), "ivf_only": len(c - a)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--space", required=True)
    parser.add_argument("--queries", type=int, default=2000, help="names per look-up (a 256-passage batch has ~2,000)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "neighbours.json")
    # at the 100k-passage space: --space scale_100k --out benchmarks/results/neighbours_100k.json
    args = parser.parse_args()
    config = MemoryConfig()
    fetch, floor = max(20, 3 * config.bridge_k), min(config.merge_threshold, config.bridge_threshold)
    with open_store() as store:
        repository = EntityRepository(store, args.space)
        began = time.perf_counter()
        vectors = [v for _, _, page in repository.entity_vector_pages() for v in page]
        read_s = time.perf_counter() - began
        stored = np.asarray([v for v in vectors if v is not None], dtype=np.float32)
        rng = np.random.default_rng(0)
        picked = stored[rng.choice(len(stored), size=min(args.queries, len(stored)), replace=False)]
        noisy = picked + rng.normal(0, 0.02, picked.shape).astype(np.float32)
        queries = [VectorQuery(f"key:{i}", (v / np.linalg.norm(v)).tolist()) for i, v in enumerate(noisy)]
        lookup = ExactEntityLookup(repository, 10**9)  # exact at any size: the reference
        began = time.perf_counter()
        lookup.entity_neighbors(queries[:1], fetch, floor)  # loads the copy
        load_s = time.perf_counter() - began
        began = time.perf_counter()
        ivf = IvfVectors.of(lookup.vectors.current())
        ivf_build_s = time.perf_counter() - began
        index_s, exact_s, ivf_s = [], [], []
        for _ in range(args.runs):
            began = time.perf_counter()
            from_index = repository.entity_neighbors(queries, fetch, floor)
            index_s.append(time.perf_counter() - began)
            began = time.perf_counter()
            exact = lookup.entity_neighbors(queries, fetch, floor)
            exact_s.append(time.perf_counter() - began)
            began = time.perf_counter()
            from_ivf = ivf.neighbors(queries, fetch, floor)
            ivf_s.append(time.perf_counter() - began)
        pairs = lambda hits: {(h.id, h.neighbor) for h in hits}  # noqa: E731
        a, b, c = pairs(exact), pairs(from_index), pairs(from_ivf)
        facts = fact_candidates(store, args.space, args.queries, args.runs)
    per_query = lambda s: round(statistics.median(s) / len(queries) * 1000, 3)  # noqa: E731
    result = {"space": args.space, "entities": len(stored), "with_vectors": len(stored), "queries": len(queries),
              "fetch": fetch, "min_cosine": floor, "runs": args.runs,
              "index_ms_per_query": per_query(index_s), "exact_ms_per_query": per_query(exact_s),
              "ivf_ms_per_query": per_query(ivf_s), "ivf_cells": ivf.cells, "ivf_build_s": round(ivf_build_s, 1),
              "speedup": round(statistics.median(index_s) / statistics.median(exact_s), 1),
              "index_s_runs": [round(s, 2) for s in index_s], "exact_s_runs": [round(s, 3) for s in exact_s],
              "ivf_s_runs": [round(s, 3) for s in ivf_s],
              "copy_load_s": round(load_s, 2), "vector_read_s": round(read_s, 2),
              "neighbours_exact": len(a), "neighbours_index": len(b), "index_missed": len(a - b),
              "index_only": len(b - a), "ivf_missed": len(a - c), "ivf_only": len(c - a), "facts": facts}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
