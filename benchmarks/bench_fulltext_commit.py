"""What the fulltext indexes' consistency costs a one-message write: refreshed at every commit (as before)
against eventually consistent (the schema now, its reads awaiting the queue), alternating on one space.

    python benchmarks/bench_fulltext_commit.py --space raw_musique [--rounds 2] [--writes 16] [--out fulltext_commit]

Each round makes the three fulltext indexes (passage_text_search, entity_name_search, fact_text_search) one
way, waits for them to come online, then runs `write_breakdown.py` (one long-lived MemoryGraph, `--writes`
one-message writes, each followed by a search; its messages retracted after). Refreshed first, then
eventually consistent, `--rounds` times. Reports the medians per mode and their ratio, with a PNG; the
database is left with the schema's own indexes (`init_schema`). Connection: NEO4J_URI / NEO4J_PASSWORD,
else the local launcher's server. Rebuilding the indexes re-reads every space's nodes (~15 s with the dev
database's ~1M nodes): run it on a database nobody else is using.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from common import write_table  # noqa: E402

MODES = ("refreshed at commit", "eventually consistent")


def make_indexes(store, mode: str) -> None:
    from memgraph_neo4j.store.cypher import CypherLibrary

    bench = store.with_library(CypherLibrary(HERE / "cypher"))
    names = bench.cypher.names("fulltext_sync")
    for name in names:  # the drops (1_...) first: CREATE ... IF NOT EXISTS keeps an index of the same schema
        if mode == MODES[0] or "/1_drop_" in name:
            bench.run_implicit(name)
    if mode == MODES[1]:
        store.init_schema()
    store.run_implicit("admin/await_indexes", timeout=600)


def one_run(space: str, writes: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "medians.json"
        subprocess.run([sys.executable, str(HERE / "write_breakdown.py"), "--space", space, "--writes", str(writes),
                        "--json", str(out)], check=True, stdout=subprocess.DEVNULL)
        return json.loads(out.read_text())


def plot(path: Path, summary: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    parts = ["ms", "write_tx", "commit", "read_tx"]
    labels = ["whole write", "write transactions", "their commits", "read transactions"]
    fig, ax = plt.subplots(figsize=(7, 3.6))
    width = 0.38
    for k, mode in enumerate(MODES):
        values = [summary[mode][p] for p in parts]
        ax.bar([i + (k - 0.5) * width for i in range(len(parts))], values, width, label=mode)
    ax.set_xticks(range(len(parts)), labels)
    ax.set_ylabel("median ms per one-message write")
    ax.set_title("Fulltext index consistency and a one-message write (MuSiQue)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--space", default="raw_musique")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--writes", type=int, default=16)
    parser.add_argument("--out", default="fulltext_commit")
    args = parser.parse_args()

    from memgraph_neo4j.server.connection import open_store

    store = open_store()
    runs: dict[str, list[dict]] = {mode: [] for mode in MODES}
    try:
        for r in range(args.rounds):
            for mode in MODES:
                make_indexes(store, mode)
                run = one_run(args.space, args.writes)
                runs[mode].append(run)
                print(f"round {r + 1}, {mode}: write p50 {run['medians']['ms']:.0f} ms, commit "
                      f"{run['medians']['commit']:.0f} ms", flush=True)
    finally:
        make_indexes(store, MODES[1])
        store.close()
    keys = ("ms", "read_tx", "write_tx", "commit", "search_ms")
    summary = {mode: {k: statistics.median(x for run in runs[mode] for x in
                                           ([run["medians"][k]] if k != "ms" else run["ms"])) for k in keys}
               for mode in MODES}
    results = HERE / "results"
    rows = [[mode, *(f"{summary[mode][k]:.1f}" for k in keys)] for mode in MODES]
    rows.append(["ratio (refreshed / eventual)",
                 *(f"{summary[MODES[0]][k] / summary[MODES[1]][k]:.2f}" for k in keys)])
    table = write_table(None, ["fulltext indexes", "write p50 ms", "read tx ms", "write tx ms", "commit ms",
                               "search after ms"], rows)
    header = (f"# Fulltext index consistency and a one-message write ({args.space}; {args.rounds} rounds x "
              f"{args.writes} writes per mode, alternating)\n\nMedians per write (the whole write over every write "
              "of every round; the parts: the median of the rounds' medians).\n\n")
    (results / f"{args.out}.md").write_text(header + table)
    (results / f"{args.out}.json").write_text(json.dumps({"args": vars(args), "runs": runs, "summary": summary},
                                                          indent=1))
    plot(results / f"{args.out}.png", summary)
    print(table)


if __name__ == "__main__":
    main()
