"""The in-process BM25 kept up to date from changes: build, apply and query times on synthetic corpora.

Passages of ~150 words (titles of 3) drawn from a Zipf-like vocabulary of 50,000 words; questions of
10 words drawn alike. Per corpus size: the fresh build (median of `--runs`), `apply` of 1 new passage
(median of 50, one after another: they stay in the overlay), the first query after each apply (it
recomputes the average-length norms and the new passage's overlay arrays), steady queries (median of
200) on the fresh index, with 50 added passages and with 1 % of the base removed, and a compaction.
`--baseline REF`: the fresh build and query of bm25_index.py at that git ref, in the same run.

    PYTHONPATH=. python benchmarks/bench_bm25_delta.py [--sizes 2000 20000] [--runs 5] [--baseline HEAD]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from memgraph_neo4j.repository.layers import PassageMatch
from memgraph_neo4j.retrieval.bm25_index import Bm25Index

VOCABULARY = 50_000


def sampler(seed: int):
    rng = np.random.default_rng(seed)
    weights = 1.0 / np.arange(1, VOCABULARY + 1) ** 1.07
    weights /= weights.sum()
    names = [f"w{i}" for i in range(VOCABULARY)]
    return lambda n: " ".join(names[i] for i in rng.choice(VOCABULARY, n, p=weights))


def corpus(n: int, draw, start: int = 0) -> list[PassageMatch]:
    return [PassageMatch(f"p{start + i:07d}", 0.0, draw(3), draw(150)) for i in range(n)]


def ms(seconds: list[float]) -> str:
    return f"{1000 * statistics.median(seconds):.3f} ms"


def timed(f) -> float:
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def baseline_class(ref: str):
    src = subprocess.run(["git", "show", f"{ref}:memgraph_neo4j/retrieval/bm25_index.py"], check=True,
                         capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / "bm25_baseline.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location("bm25_baseline", path)
    module = sys.modules["bm25_baseline"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Bm25Index


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[2000, 20000])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", default=None)
    args = parser.parse_args()
    old = baseline_class(args.baseline) if args.baseline else None
    for n in args.sizes:
        draw = sampler(n)
        passages = corpus(n, draw)
        questions = [draw(10) for _ in range(200)]
        print(f"{n:,} passages")
        builds = {"new": Bm25Index} | ({"baseline": old} if old else {})
        for name, cls in builds.items():
            build = [timed(lambda: cls(passages)) for _ in range(args.runs)]
            index = cls(passages)
            query = [timed(lambda q=q: index.search(q, 10)) for q in questions]
            print(f"  {name:8s} build {ms(build)}, query {ms(query)}")
        index = Bm25Index(passages)
        extra = corpus(50, draw, start=n)
        apply, first = [], []
        for i, p in enumerate(extra):
            apply.append(timed(lambda p=p: index.apply([p])))
            first.append(timed(lambda i=i: index.search(questions[i], 10)))
        steady = [timed(lambda q=q: index.search(q, 10)) for q in questions]
        print(f"  apply of 1 new passage {ms(apply)}, first query after it {ms(first)}, "
              f"steady query with 50 in the overlay {ms(steady)}")
        removed = [p.id for p in passages[:: 100]]
        gone = timed(lambda: index.apply([], removed))
        steady = [timed(lambda q=q: index.search(q, 10)) for q in questions]
        print(f"  apply removing {len(removed)} passages {1000 * gone:.3f} ms, then query {ms(steady)}")
        compact = timed(index.compact)
        steady = [timed(lambda q=q: index.search(q, 10)) for q in questions]
        print(f"  compaction {1000 * compact:.1f} ms, then query {ms(steady)}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
