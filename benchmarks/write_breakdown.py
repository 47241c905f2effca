"""Where a one-message write's time goes: per transaction, per named statement, and the rest (Python).

    python benchmarks/write_breakdown.py --space raw_musique [--writes 8] [--profile]

One long-lived `MemoryGraph` (defaults: MiniLM, offline extractor, adjudication on) writes one warm-up
message (first-use loads out), then `--writes` messages as the read-after-write benchmark writes them
(benchmarks/read_after_write_child.py), timed, each followed by one search. The store is wrapped, not
changed: every transaction is timed from the driver's call to its return (statements + commit round
trip), every statement from its send to its last row. Per write it reports medians of: the whole write;
the transactions by kind (read, write) and their count; the named statements; a write transaction's time
outside its statements (its commit). `--profile`: cProfile's top functions by cumulative time over the timed writes. The messages
are retracted at the end. Connection: NEO4J_URI / NEO4J_PASSWORD (else the local launcher's server).
"""

from __future__ import annotations

import argparse
import cProfile
import collections
import json
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from read_after_write_child import SOURCE, message  # noqa: E402


class Timings:
    """Per write: (kind, first statement, ms, statements' ms) per transaction; ms per statement name."""

    def __init__(self) -> None:
        self.transactions: list[tuple[str, str, float, float]] = []
        self.statements: dict[str, list[float]] = collections.defaultdict(list)
        self._inner = 0.0

    def wrap(self, store) -> None:
        run, session = store._run, store._session

        def timed_run(tx, name, params):
            began = time.perf_counter()
            rows = run(tx, name, params)
            ms = (time.perf_counter() - began) * 1000
            self.statements[name].append(ms)
            self._inner += ms
            return rows

        class TimedSession:
            def __init__(self, inner) -> None:
                self.inner = inner

            def _timed(self, kind, work, *args):
                outer = self

                def body(tx, *a):
                    timings._inner = 0.0
                    return work(tx, *a)

                began = time.perf_counter()
                try:
                    return getattr(outer.inner, f"execute_{kind}")(body, *args)
                finally:
                    timings.transactions.append((kind, timings._first or "?", (time.perf_counter() - began) * 1000,
                                                 timings._inner))

            def execute_read(self, work, *args):
                return self._timed("read", work, *args)

            def execute_write(self, work, *args):
                return self._timed("write", work, *args)

            def __getattr__(self, name):
                return getattr(self.inner, name)

        timings = self
        self._first = None
        from contextlib import contextmanager

        @contextmanager
        def timed_session(name):
            with session(name) as inner:
                self._first = name
                yield TimedSession(inner)

        store._run, store._session = timed_run, timed_session


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--space", default="raw_musique")
    parser.add_argument("--writes", type=int, default=8)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--sort", default="cumulative", help="cProfile order: cumulative, tottime, ...")
    parser.add_argument("--json", type=Path, help="also write the per-write medians here (bench_fulltext_commit)")
    args = parser.parse_args()

    from memgraph_neo4j.api import MemoryGraph
    from memgraph_neo4j.ingest.readers import Document

    def document(text: str) -> Document:
        return Document(title=text[:80], text=text, source=SOURCE, metadata={"kind": "text"})

    nonce = random.randrange(1 << 30)
    memory = MemoryGraph(space=args.space)
    written: list[str] = []
    try:
        memory.search("warm-up question?")
        for text in [message(-1, nonce)]:
            memory.ingest([document(text)], progress=False)
            written.append(document(text).id)
        timings = Timings()
        timings.wrap(memory.store)
        per_write = []
        profiler = cProfile.Profile() if args.profile else None
        for i in range(args.writes):
            timings.transactions.clear()
            timings.statements.clear()
            text = message(i, nonce)
            began = time.perf_counter()
            if profiler:
                profiler.enable()
            report = memory.ingest([document(text)], progress=False)
            if profiler:
                profiler.disable()
            ms = (time.perf_counter() - began) * 1000
            print(f"write {i + 1}: {ms:.0f} ms, {report.facts} facts, {report.entities_new} new entities, "
                  f"{report.promoted} promoted, {report.activated} activated, {report.conflicts} conflicts",
                  flush=True)
            written.append(document(text).id)
            tx = list(timings.transactions)
            statements = {n: sum(v) for n, v in timings.statements.items()}
            timings.transactions.clear()
            timings.statements.clear()
            began = time.perf_counter()
            memory.search(f"Where did {text.split()[0]} work?")
            search_ms = (time.perf_counter() - began) * 1000
            per_write.append({
                "ms": ms,
                "read_tx": sum(t[2] for t in tx if t[0] == "read"), "reads": sum(t[0] == "read" for t in tx),
                "write_tx": sum(t[2] for t in tx if t[0] == "write"), "writes": sum(t[0] == "write" for t in tx),
                "commit": sum(t[2] - t[3] for t in tx if t[0] == "write"),
                "statements": statements, "transactions": tx, "search_ms": search_ms,
                "search_statements": {n: sum(v) for n, v in timings.statements.items()}})
        med = {k: statistics.median(w[k] for w in per_write) for k in ("ms", "read_tx", "reads", "write_tx",
                                                                      "writes", "commit")}
        print(f"{args.writes} writes on {args.space}: p50 {med['ms']:.0f} ms; read transactions "
              f"{med['read_tx']:.0f} ms ({med['reads']:.0f}), write transactions {med['write_tx']:.0f} ms "
              f"({med['writes']:.0f}), of which outside statements (commit) {med['commit']:.0f} ms; "
              "the rest (Python: extraction, embedding, resolution) "
              f"{med['ms'] - med['read_tx'] - med['write_tx']:.0f} ms")
        if args.json:
            med["search_ms"] = statistics.median(w["search_ms"] for w in per_write)
            args.json.write_text(json.dumps({"space": args.space, "writes": args.writes, "medians": med,
                                             "ms": [w["ms"] for w in per_write]}))
        names = collections.Counter()
        for w in per_write:
            names.update(w["statements"])
        print("statements, median ms per write (those above 1 ms):")
        for name, _ in names.most_common():
            values = [w["statements"].get(name, 0.0) for w in per_write]
            if statistics.median(values) >= 1:
                print(f"  {statistics.median(values):7.1f}  {name}")
        print("transactions of the last write (kind, first statement, ms, of which statements):")
        for kind, first, ms, inner in per_write[-1]["transactions"]:
            print(f"  {kind:5s} {ms:7.1f} {inner:7.1f}  {first}")
        print(f"the search after each write: p50 {statistics.median(w['search_ms'] for w in per_write):.0f} ms; "
              "its statements, median ms:")
        names = collections.Counter()
        for w in per_write:
            names.update(w["search_statements"])
        for name, _ in names.most_common():
            print(f"  {statistics.median(w['search_statements'].get(name, 0.0) for w in per_write):7.1f}  {name}")
        if profiler:
            pstats.Stats(profiler).sort_stats(args.sort).print_stats(45)
    finally:
        if written:
            memory.retract(written)
        memory.close()


if __name__ == "__main__":
    main()
