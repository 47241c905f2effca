"""What a long run of one-message writes costs the PageRank graph's catch-up, per write, as writes pile up.

A search after a write catches the local engine's graph copy up (ppr/graph_copy.GraphCopy.apply, then
its matrix) and, past `push_min_relationships`, corrects the push form (ppr/push_update.py), as
LocalEngine.push_graph does. This times that catch-up for every write of a long run on a synthetic space
shaped like MuSiQue x 10 (1.1M relationship entries at the default size): `--passages` passages of 8
mentions and 9 facts, 10 entities per passage in 15 Types (Zipf-sized, as the ontology's are), then
`--writes` writes of one message (1 passage, 3 new entities, 3 facts, an older fact retracted every 10th).
The delta grows until the copy compacts (COMPACT_FRACTION of the base's entries), so the median per
window of 100 writes shows whether a write's cost grows with the writes before it.

`--baseline REF`: the same run with the code of a git ref (extracted to a temporary directory, run in a
child process), in the same session. Results: benchmarks/results/graph_copy_writes.{json,md,png}.

    PYTHONPATH=. python benchmarks/bench_graph_copy_writes.py [--passages 20000] [--writes 1500] [--baseline REF]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
WINDOW = 100


def run(passages: int, writes: int, seed: int = 0) -> dict:
    """The catch-up times (ms) per write with the code on sys.path."""
    from memgraph_neo4j.config import RetrievalConfig
    from memgraph_neo4j.repository.changes import ChangedEntity, ChangedFact, ChangedPassage, Changes
    from memgraph_neo4j.repository.projections import projection_spec
    from memgraph_neo4j.retrieval.ppr.graph_copy import GraphCopy
    from memgraph_neo4j.retrieval.ppr.local import reported
    from memgraph_neo4j.retrieval.ppr.push import build_push_graph

    try:  # the correction's module since the lazy hub rows; before, in push.py
        from memgraph_neo4j.retrieval.ppr.push_update import update_push_graph
    except ImportError:
        from memgraph_neo4j.retrieval.ppr.push import update_push_graph

    rng = np.random.default_rng(seed)
    config = RetrievalConfig()
    types = [f"T{i}" for i in range(15)]
    share = 1.0 / np.arange(1, 16) ** 1.2
    share /= share.sum()

    def entity(key: str) -> ChangedEntity:
        return ChangedEntity(key, key, (types[int(rng.choice(15, p=share))],), ())

    def message(i: int, names: list[str], start: int) -> tuple[ChangedPassage, list[ChangedEntity], list[ChangedFact]]:
        new = [entity(f"e{i}-{k}") for k in range(10 if start else 3)]
        pool = [e.id for e in new] + [names[int(j)] for j in rng.integers(0, len(names), 5)] if names else \
            [e.id for e in new]
        mentions = tuple(sorted(set(pool[:8])))
        facts = [ChangedFact(f"f{i}-{k}", "active", "rel", pool[int(rng.integers(len(pool)))],
                             pool[int(rng.integers(len(pool)))]) for k in range(9 if start else 3)]
        return ChangedPassage(f"p{i}", "T", mentions), new, facts

    names: list[str] = []
    everything = Changes(-1, 1, True, [], [], [], [], types)
    for i in range(passages):
        page, new, facts = message(i, names, 1)
        names += [e.id for e in new]
        everything.passages.append(page)
        everything.entities.extend(new)
        everything.facts.extend(facts)
    copy = GraphCopy(projection_spec(config))
    copy.apply(everything)
    began = time.perf_counter()
    transition = copy.compacted()
    push = transition.nnz >= config.push_min_relationships
    form = build_push_graph(transition.explicit(), transition.degree, config.damping, config.tolerance,
                            reported=reported(copy), epsilon=config.push_epsilon) if push else None
    built_s = time.perf_counter() - began
    times, rebuilt = [], 0
    facts_made = [f for f in everything.facts]
    for w in range(writes):
        page, new, facts = message(passages + w, names, 0)
        names += [e.id for e in new]
        if w % 10 == 9:  # an older fact retracted
            old = facts_made[int(rng.integers(len(facts_made)))]
            facts.append(ChangedFact(old.id, "retracted", old.relation, old.head_id, old.tail_id))
        facts_made += facts[:3]
        before = copy.uid
        t0 = time.perf_counter()
        copy.apply(Changes(w + 1, w + 2, facts=facts, passages=[page], entities=new, types=types))
        t = copy.transition
        if push:
            rows = copy.changed_since(before)
            form = update_push_graph(form, rows, copy.rows(rows), t.degree, config.damping, config.push_epsilon,
                                     reported(copy))
            if form is None:  # the hub set moved: built again, as the engine does
                rebuilt += 1
                t = copy.compacted()
                form = build_push_graph(t.explicit(), t.degree, config.damping, config.tolerance,
                                        reported=reported(copy), epsilon=config.push_epsilon)
        times.append((time.perf_counter() - t0) * 1e3)
    return {"passages": passages, "writes": writes, "entries": int(transition.nnz), "push": push,
            "build_s": round(built_s, 2), "rebuilt": rebuilt, "times_ms": [round(x, 3) for x in times]}


def child(tree: Path, args: argparse.Namespace) -> dict:
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); sys.path.insert(1, sys.argv[2]);"
            "import bench_graph_copy_writes as b;"
            "print(json.dumps(b.run(int(sys.argv[3]), int(sys.argv[4]))))")
    out = subprocess.run([sys.executable, "-c", code, str(tree), str(ROOT / "benchmarks"), str(args.passages),
                          str(args.writes)], capture_output=True, text=True, check=True, cwd=tree)
    return json.loads(out.stdout.strip().splitlines()[-1])


def windows(times: list[float]) -> list[float]:
    return [round(statistics.median(times[i : i + WINDOW]), 2) for i in range(0, len(times), WINDOW)]


def report(result: dict, out: str) -> None:
    lines = [f"# Graph copy catch-up per write ({result['passages']:,} passages, {result['writes']:,} writes)", "",
             "Median ms per window of 100 writes (apply, matrix, push correction when the graph holds",
             "`push_min_relationships` entries or more).", ""]
    codes = result["codes"]
    lines += ["| code | entries | push | form built s | rebuilt | p50 all | " +
              " | ".join(f"w{i * WINDOW}-" for i in range(len(windows(codes[0]["times_ms"])))) + " |"]
    lines += ["|" + "---|" * (6 + len(windows(codes[0]["times_ms"])))]
    for c in codes:
        lines.append(f"| {c['label']} | {c['entries']:,} | {c['push']} | {c['build_s']} | {c['rebuilt']} | "
                     f"{statistics.median(c['times_ms']):.2f} | " + " | ".join(map(str, windows(c["times_ms"]))) + " |")
    (RESULTS / f"{out}.md").write_text("\n".join(lines) + "\n")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    for c in codes:
        w = windows(c["times_ms"])
        ax.plot([i * WINDOW + WINDOW / 2 for i in range(len(w))], w, marker="o", label=c["label"])
    ax.set_xlabel("write")
    ax.set_ylabel("catch-up per write, median of 100 (ms)")
    ax.set_title(f"Graph copy catch-up as writes pile up ({codes[0]['entries']:,} entries)")
    ax.set_ylim(bottom=0)
    ax.legend()
    fig.tight_layout()
    fig.savefig(RESULTS / f"{out}.png", dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--passages", type=int, default=20_000)
    parser.add_argument("--writes", type=int, default=1_500)
    parser.add_argument("--baseline", default=None, help="also run the code of this git ref")
    parser.add_argument("--out", default="graph_copy_writes")
    args = parser.parse_args()
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    codes = [{"label": f"current ({head})", **child(ROOT, args)}]
    if args.baseline:
        with tempfile.TemporaryDirectory() as tmp:
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.baseline, "memgraph_neo4j", "cypher"],
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            codes.append({"label": f"baseline ({args.baseline})", **child(Path(tmp), args)})
    result = {"passages": args.passages, "writes": args.writes, "codes": codes}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{args.out}.json").write_text(json.dumps(result))
    report(result, args.out)
    print((RESULTS / f"{args.out}.md").read_text())


if __name__ == "__main__":
    main()
