"""Read after write: a search right after a one-message write, against a warm search, per memory size.

    python benchmarks/bench_read_after_write.py [--sizes musique,x3] [--scale N] [--rounds 10]
                                                [--baseline-ref main] [--repeats 1]

Memories (each a space of its own, built once with this checkout's code and reused while it holds the
expected number of passages; `--rebuild` deletes and builds it again):
- `raw_musique`: MuSiQue-train (1,890 passages) with the REAL gpt-3.5 OpenIE triples and MiniLM, as the
  evaluation harness builds it (`evaluation/runner.build`);
- `raw_musique_x{N}`: N copies of it with renamed entities (benchmarks/scale/replicate.py: the triples
  renamed the same way, copies' vectors derived from the originals'), 1,890 x N passages. `--sizes`
  takes `musique`, `xN` or `N`; `--scale N` adds MuSiQue x N (alone when `--sizes` is not given).

Per code tree and size, one child process (fresh Python, so that its RSS is that size's) holds one
long-lived `MemoryGraph` with the defaults (MiniLM, offline extractor, adjudication on, memgraphrag):
1. the first search (cold: what a new process pays; code that keeps its copies on disk, retrieval/persisted.py,
   loads those the child before it left, and the report gives how many it loaded); one warm-up message
   written (first-use loads out of the rounds: spaCy, the writer's and the adjudicator's copies), then two
   untimed searches;
2. `--warm` (20) timed warm searches, MuSiQue questions;
3. `--rounds` (10) rounds of: write one message (`write_memory`-sized, one or two sentences, written as
   the MCP `write_memory` writes it: one Document through `MemoryGraph.ingest`), timed; the next search
   (the search after write), timed; one more search ("after that"), timed. Each search keeps its
   `timings_ms` (stage medians in the report), each write how often it read the writer's copies in full;
4. the messages (and the warm-up one) retracted (`MemoryGraph.retract`), and the passage count checked
   against the built one, by the child and again by the parent. Documents of this benchmark that a run
   which died left behind (`Document.source` SOURCE) are retracted before the next child starts.

Every child names new people in its messages (a random nonce), so every write is new to the space.
Retraction restores the documents, passages, entities and the active and pending facts; the engine keeps
a retracted message's facts (state `retracted`, out of retrieval) and its schemas that lost their support
(`candidate`), about 11 facts per child. `--fixed-messages` writes the same texts in every run instead:
from the second run on those writes revive retracted facts, which (at 6368e43) fell back to reading the
writer's copies in full on every write (5-10 s on MuSiQue).

`--baseline-ref REF`: the same children run with the code of a git ref too (a temporary worktree under
/tmp, this script run with that tree first on sys.path), on the same spaces, alternating with this
checkout (`--repeats` pairs per size). Target (issue 26): search-after-write p50 <= 2 x warm p50 + 10 ms
at every size. Connection: NEO4J_URI / NEO4J_PASSWORD (else the local launcher's server).
Results: benchmarks/results/read_after_write.{json,md,png} (`--out` for another stem; `--replot` renders
the Markdown and the PNG again from the JSON).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from read_after_write_child import DATA, MESSAGES, SOURCE, child
from read_after_write_report import plot, report, summarise

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
PASSAGES = 1890  # MuSiQue-train corpus.json
PREFIX = "raw_musique"  # --prefix


def space_of(copies: int, prefix: str = PREFIX) -> str:
    return prefix if copies == 1 else f"{prefix}_x{copies}"


# ----- the parent: builds the spaces, runs the children, reports -------------------------------------
def passages_in(store, space: str) -> int:
    from memgraph_neo4j.repository.stats import StatsRepository

    repo = StatsRepository(store, space)
    if not repo.exists():
        return 0
    passages = repo.memory_stats().nodes.get("Passage")
    return passages.total if passages is not None else 0


def clean(store, space: str) -> int:
    """Retract documents this benchmark wrote and left behind (a child that died); returns how many."""
    from memgraph_neo4j.api import MemoryGraph

    memory = MemoryGraph(space=space, store=store, embedder=None, adjudication=False)
    left = [d.id for d in memory.documents() if d.source == SOURCE]
    if left:
        memory = MemoryGraph(space=space, store=store)  # retraction's conflict check as in a round
        memory.retract(left)
    return len(left)


def build(store, copies: int, rebuild: bool, prefix: str, named: dict[int, str] | None = None) -> dict:
    """The space of MuSiQue x `copies`, if it does not hold the expected passages already; `named`: spaces
    built under another name (bench_scale.py replicated --keep: the same build) by their copies."""
    space, expected = (named or {}).get(copies) or space_of(copies, prefix), PASSAGES * copies
    cleaned = clean(store, space) if passages_in(store, space) else 0
    have = passages_in(store, space)
    info = {"space": space, "copies": copies, "passages": expected, "leftovers_retracted": cleaned}
    if have == expected and not rebuild:
        return {**info, "built": False}
    if rebuild or have > expected:
        if have > expected:
            print(f"{space}: {have} passages, more than {expected}: deleting it", flush=True)
        from memgraph_neo4j.api import MemoryGraph

        MemoryGraph(space=space, store=store, embedder=None).delete()
    print(f"{space}: {have} of {expected} passages: building (OpenIE triples replayed, MiniLM)", flush=True)
    began = time.perf_counter()
    from memgraph_neo4j.api import MemoryGraph
    from memgraph_neo4j.embeddings import make_embedder
    from memgraph_neo4j.ingest.readers import read_musique_corpus
    from memgraph_neo4j.memory.ontology import load_ontology

    ontology, base = load_ontology(), make_embedder("minilm")

    def on_batch(report, done: int) -> None:
        print(f"  {space}: {done} of {expected} passages, {time.perf_counter() - began:.0f} s", flush=True)

    docs = read_musique_corpus(DATA / "corpus.json")
    openie = DATA / "openie_gpt-3.5-turbo-1106.json"
    if copies == 1:  # as the evaluation harness builds a dataset with an OpenIE file
        from memgraph_neo4j.extractors.factory import make_extractor

        memory = MemoryGraph(space=space, store=store, ontology=ontology, embedder=base)
        report = memory.ingest(docs, extractor=make_extractor("openie", ontology, base, openie=openie),
                               batch_size=256, progress=False, on_batch=on_batch)
    else:  # as benchmarks/scale/bench_scale.py replicated builds MuSiQue x N
        sys.path.insert(0, str(ROOT / "benchmarks" / "scale"))
        from bench_scale import Replay
        from replicate import CopyEmbedder, replicate

        from memgraph_neo4j.contracts import ExtractionInput
        from memgraph_neo4j.extractors.openie import OpenIEExtractor, load_openie
        from memgraph_neo4j.extractors.typing import TypeAssigner
        from memgraph_neo4j.ingest.pipeline import passage_rows

        chunking = ontology.chunking
        rows = passage_rows(docs, chunking.tokens, chunking.overlap)
        originals = OpenIEExtractor(load_openie(openie), TypeAssigner(ontology, base)).extract(
            [ExtractionInput(passage_id=r.id, doc_id=r.doc_id, text=r.text, title=r.title) for r in rows], None)
        replay = Replay()
        copied = replicate(docs, originals, copies)
        for copy, doc, original in copied:
            replay.add(passage_rows([doc], chunking.tokens, chunking.overlap)[0].id, doc.id, original, copy)
        memory = MemoryGraph(space=space, store=store, ontology=ontology, embedder=CopyEmbedder(base),
                             extractor=replay)
        report = memory.ingest([doc for _, doc, _ in copied], batch_size=256, progress=False, on_batch=on_batch)
    have = passages_in(store, space)
    if have != expected:
        raise SystemExit(f"{space}: built {have} passages, expected {expected} (failed chunks: {report.failed})")
    return {**info, "built": True, "build_s": round(time.perf_counter() - began, 1), "facts": report.facts}


def run_child(tree: Path, label: str, space: str, args: argparse.Namespace) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", str(tree), "--label", label, "--space", space,
           "--rounds", str(args.rounds), "--warm", str(args.warm), "--method", args.method, "--engine", args.engine,
           "--top-k", str(args.top_k), "--nonce", str(-1 if args.fixed_messages else random.getrandbits(31))]
    proc = subprocess.run(cmd, cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}, stdout=subprocess.PIPE,
                          text=True)  # stderr: the child's progress lines, through
    if proc.returncode != 0:
        raise SystemExit(f"{label} on {space} ({tree}) failed with code {proc.returncode}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def parse_sizes(args: argparse.Namespace) -> list[int]:
    tokens = [t.strip() for t in (args.sizes if args.sizes is not None else
                                  ("" if args.scale else "musique,x3")).split(",") if t.strip()]
    sizes = [1 if t == "musique" else int(t.removeprefix("x")) for t in tokens]
    sizes += [args.scale] if args.scale else []
    if not sizes or min(sizes) < 1:
        raise SystemExit("--sizes: musique, xN or N (N >= 1), comma-separated; or --scale N")
    return sorted(set(sizes))


def git(*argv: str, cwd: Path = ROOT) -> str:
    return subprocess.run(["git", "-C", str(cwd), *argv], capture_output=True, text=True, check=True).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default=None, help="musique, xN or N, comma-separated (default musique,x3)")
    parser.add_argument("--scale", type=int, default=0, help="also (alone without --sizes) MuSiQue x N")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--warm", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=1, help="children per code and size, alternating codes")
    parser.add_argument("--baseline-ref", default=None, help="also measure the code of this git ref")
    parser.add_argument("--method", default="memgraphrag")
    parser.add_argument("--engine", default="", help="PageRank engine (local, gds, client); default: the config's")
    parser.add_argument("--top-k", type=int, default=5)
    parser.add_argument("--prefix", default=PREFIX, help="space names: PREFIX (x1), PREFIX_xN")
    parser.add_argument("--space-name", action="append", default=[], metavar="N=SPACE",
                        help="MuSiQue x N is the space SPACE (e.g. 53=scale_100k from bench_scale.py --keep)")
    parser.add_argument("--rebuild", action="store_true", help="delete and build the spaces again")
    parser.add_argument("--out", default="read_after_write", help="results file stem under benchmarks/results")
    parser.add_argument("--replot", action="store_true", help="only render .md and .png again from the .json")
    parser.add_argument("--fixed-messages", action="store_true", help="the same message texts in every run: "
                        "from the second run on, the writes revive facts an earlier run retracted")
    parser.add_argument("--child", help=argparse.SUPPRESS)  # the code tree, in a child process
    parser.add_argument("--label", default="current", help=argparse.SUPPRESS)
    parser.add_argument("--nonce", type=int, default=-1, help=argparse.SUPPRESS)
    parser.add_argument("--space", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    if args.replot:
        sys.path.insert(0, str(ROOT))
        result = json.loads((RESULTS / f"{args.out}.json").read_text())
        (RESULTS / f"{args.out}.md").write_text(text := report(result))
        plot(result, RESULTS / f"{args.out}.png")
        print(text)
        return
    os.environ.setdefault("TQDM_DISABLE", "1")  # the build's embedding bars (read when tqdm is imported)
    sys.path.insert(0, str(ROOT))
    from memgraph_neo4j.server.connection import open_store

    sizes = parse_sizes(args)
    result: dict = {"method": args.method, "engine": args.engine or "default", "top_k": args.top_k,
                    "rounds": args.rounds, "warm": args.warm,
                    "repeats": args.repeats, "cpus": os.cpu_count(), "load_before": os.getloadavg(),
                    "neo4j_uri": os.environ.get("NEO4J_URI", "(local launcher)"), "messages": MESSAGES,
                    "fixed_messages": args.fixed_messages,
                    "codes": {"current": {"tree": str(ROOT), "ref": git("rev-parse", "--abbrev-ref", "HEAD"),
                                          "commit": git("describe", "--always", "--dirty")}}}
    with tempfile.TemporaryDirectory(prefix="bench_raw_") as tmp:
        trees = {"current": ROOT}
        if args.baseline_ref:
            base = Path(tmp) / "baseline"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(base), args.baseline_ref],
                           check=True)
            trees["baseline"] = base
            result["codes"]["baseline"] = {"tree": str(base), "ref": args.baseline_ref,
                                           "commit": git("rev-parse", "--short", "HEAD", cwd=base)}
        try:
            with open_store() as store:
                store.init_schema(384)
                named = {int(n.removeprefix("x")): name for n, _, name in (s.partition("=") for s in args.space_name)}
                result["sizes"] = [build(store, copies, args.rebuild, args.prefix, named) for copies in sizes]
                runs: dict[str, dict[str, list[dict]]] = {name: {} for name in trees}
                for size in result["sizes"]:
                    for i in range(args.repeats):
                        order = list(trees.items())
                        order = order[::-1] if i % 2 == 0 else order  # the baseline first, then alternate
                        for name, tree in order:
                            run = run_child(tree, name, size["space"], args)
                            runs[name].setdefault(size["space"], []).append(run)
                            left = clean(store, size["space"])
                            have = passages_in(store, size["space"])
                            if have != size["passages"] or run["passages_after"] != size["passages"] or left:
                                raise SystemExit(f"{size['space']} after {name}: {have} passages (child saw "
                                                 f"{run['passages_after']}), {left} leftovers: expected "
                                                 f"{size['passages']}")
        finally:
            if "baseline" in trees:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(trees["baseline"])],
                               check=False)
    passages = {s["space"]: s["passages"] for s in result["sizes"]}
    result["summary"] = {name: {space: summarise(rs, passages[space]) for space, rs in by_space.items()}
                         for name, by_space in runs.items()}
    result["runs"] = runs
    result["load_after"] = os.getloadavg()
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{args.out}.json").write_text(json.dumps(result, indent=2) + "\n")
    text = report(result)
    (RESULTS / f"{args.out}.md").write_text(text)
    plot(result, RESULTS / f"{args.out}.png")
    print(text)


if __name__ == "__main__":
    main()
