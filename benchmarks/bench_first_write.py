"""The first one-message write of a fresh process whose space is above the in-process copies' cap.

    python benchmarks/bench_first_write.py --space raw_musique --cap 10000 --repeats 3

Above `MemoryConfig.exact_neighbours_max` vectors, resolution asks inverted-file copies of the entity and fact
vectors. Read and trained before the first write, they cost seconds at MuSiQue with a lowered cap and minutes
at 100k passages (311-389 s measured there), for a write that asks about ten questions. Since the ski-rental
rule (memory/neighbours.SpaceVectors) the server's vector index answers until its summed time reaches what
building the copy would cost. This benchmark measures both in fresh processes, alternating:

- `rent`: today's rule (the index answers first);
- `build`: the copy built at once (`build_seconds_per_vector = 0`, the behaviour before the rule).

Each child: opens a MemoryGraph with the cap, makes its embedder, extractor and writer outside the timing
(first-use model loads are not the write's), writes one new message, then a second one, reports both and how often
each copy was read, and retracts what it wrote. Results: benchmarks/results/<out>.{json,md,png}.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from common import RESULTS, write_table  # noqa: E402

MODES = ("rent", "build")


def child(args: argparse.Namespace) -> None:
    """One fresh process, one mode: prints one JSON line."""
    from read_after_write_child import SOURCE, message

    from memgraph_neo4j.api import MemoryGraph
    from memgraph_neo4j.config import MemoryConfig
    from memgraph_neo4j.extractors.offline import load_spacy
    from memgraph_neo4j.ingest.readers import Document

    load_spacy()
    memory = MemoryGraph(space=args.space, config=MemoryConfig(exact_neighbours_max=args.cap))
    memory.embedder.embed_documents(["load the model before the timing"])
    # first-use loads, not the write's: the extractor's spaCy pipeline and type prototypes (1.2 s), the
    # ontology and writer (0.3 s)
    memory.extractor, memory.writer  # noqa: B018
    copies = (memory.writer.lookup.vectors, memory.writer.fact_vectors)
    if args.child == "build":
        for copy in copies:
            copy.build_seconds_per_vector = 0
    nonce = random.randrange(1 << 30)
    times = []
    for i in range(2):
        text = message(i, nonce)
        doc = Document(title=text[:80], text=text, source=SOURCE, metadata={"kind": "text"})
        began = time.perf_counter()
        memory.ingest([doc], progress=False)
        times.append(round((time.perf_counter() - began) * 1000, 1))
    row = {"mode": args.child, "first_ms": times[0], "second_ms": times[1],
           "entity_loads": copies[0].loads, "fact_loads": copies[1].loads,
           "entity_index_s": round(copies[0].index_seconds, 3), "fact_index_s": round(copies[1].index_seconds, 3)}
    memory.retract([d.id for d in memory.documents() if d.source == SOURCE])
    memory.close()
    print(json.dumps(row))


def space_vectors(space: str) -> dict[str, int]:
    """Entity and fact vectors of the space (what the cap is compared with)."""
    from memgraph_neo4j.api import MemoryGraph

    memory = MemoryGraph(space=space)
    try:
        counts = memory.writer.lookup.vectors.space_count(), memory.writer.fact_vectors.space_count()
    finally:
        memory.close()
    return {"entity_vectors": counts[0], "fact_vectors": counts[1]}


def plot(rows: list[dict], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 3.8))
    for x, mode in enumerate(MODES):
        for y, key in enumerate(("first_ms", "second_ms")):
            values = [r[key] / 1000 for r in rows if r["mode"] == mode]
            ax.bar(x * 3 + y, statistics.median(values), color=("tab:blue", "tab:orange")[y],
                   label=("first write", "second write")[y] if x == 0 else None)
            ax.scatter([x * 3 + y] * len(values), values, color="black", s=10, zorder=3)
    ax.set_xticks([0.5, 3.5], ["index first (rent)", "copy built at once (build)"])
    ax.set_ylabel("seconds (bars: median; dots: runs)")
    ax.set_title(title, fontsize=9)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--space", default="raw_musique", help="an existing space (MuSiQue: bench_read_after_write)")
    parser.add_argument("--cap", type=int, default=10_000, help="exact_neighbours_max for the children")
    parser.add_argument("--repeats", type=int, default=3, help="fresh processes per mode, alternating")
    parser.add_argument("--out", default="first_write")
    parser.add_argument("--child", choices=MODES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args)
    vectors = space_vectors(args.space)
    if max(vectors.values()) <= args.cap:
        raise SystemExit(f"--cap {args.cap}: the space {args.space!r} holds {vectors}; pick a cap below that")
    load = os.getloadavg()[0]
    def run(mode: str) -> dict:
        out = subprocess.run([sys.executable, __file__, "--space", args.space, "--cap", str(args.cap),
                              "--child", mode], capture_output=True, text=True, check=True)
        return json.loads(out.stdout.strip().splitlines()[-1])

    # one child left out: the first after a server start paid 6.3 s where the next paid 1.3-1.5 s (the
    # server's page cache and vector index warming), whichever mode it ran
    print("warm-up (not counted):", run(MODES[1]), flush=True)
    rows = []
    for r in range(args.repeats):
        for mode in MODES if r % 2 == 0 else MODES[::-1]:
            rows.append(run(mode))
            print(rows[-1], flush=True)
    summary = {mode: {key: statistics.median(r[key] for r in rows if r["mode"] == mode)
                      for key in ("first_ms", "second_ms")} for mode in MODES}
    ratio = round(summary["build"]["first_ms"] / summary["rent"]["first_ms"], 2)
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    head = (f"# First write of a fresh process above the copies' cap\n\n"
            f"Space `{args.space}` ({vectors['entity_vectors']:,} "
            f"entity and {vectors['fact_vectors']:,} fact vectors), cap {args.cap:,}, code {commit}, "
            f"{os.cpu_count()} cores, load average {load:.1f} before, {os.getloadavg()[0]:.1f} after. "
            f"{args.repeats} fresh processes per mode, alternating, after one left out; embedder, extractor and "
            f"writer made before the timing.\n\n")
    def runs(mode: str, key: str) -> str:
        values = [r[key] for r in rows if r["mode"] == mode]
        return f"{statistics.median(values):.0f} (" + ", ".join(f"{v:.0f}" for v in values) + ")"

    def median(mode: str, key: str) -> float:
        return statistics.median(r[key] for r in rows if r["mode"] == mode)

    table = write_table(None, ["mode", "first write ms, median (runs)", "second write ms, median (runs)",
                               "copies read", "index seconds (entities / facts)"],
                        [[mode, f"**{runs(mode, 'first_ms')}**", runs(mode, "second_ms"),
                          median(mode, "entity_loads") + median(mode, "fact_loads"),
                          f"{median(mode, 'entity_index_s'):.3f} / {median(mode, 'fact_index_s'):.3f}"]
                         for mode in MODES])
    text = head + table + f"\nFirst write, copy built at once / index first: **{ratio}x**.\n"
    RESULTS.joinpath(f"{args.out}.md").write_text(text)
    RESULTS.joinpath(f"{args.out}.json").write_text(json.dumps(
        {"space": args.space, "cap": args.cap, "commit": commit, **vectors, "runs": rows, "medians": summary,
         "ratio_first_write": ratio}, indent=1))
    plot(rows, RESULTS / f"{args.out}.png", f"First write above the cap: {args.space}, cap {args.cap:,}")
    print(text)


if __name__ == "__main__":
    main()
