"""Ingest throughput on MuSiQue-train, against a baseline measured in the same run.

Two measurements, each for this checkout and for a baseline git ref (default: the commit before the
write-path work), run alternately so that both see the same machine load:

- write path: the REAL gpt-3.5 OpenIE triples, typed once up front (not timed), replayed per passage,
  no embedder: passages, entity resolution, facts, schemas, mentions, promotion and adjudication
  after each batch. Passages/s of the whole corpus.
- offline ingest (`--offline N`): the first N passages through `MemoryGraph.ingest` with the default
  offline extractor and MiniLM: extraction, typing, embeddings of passages, entities, facts and
  schemas, resolution, bridging, writes, promotion, adjudication.

    python benchmarks/bench_ingest.py [--runs 3] [--baseline-ref fdab77e] [--offline 500] [--only offline]
                                      [--sequential]

`--sequential` (offline): also this checkout with one stage at a time (MemoryConfig.overlap_stages=False),
and the machine's bound in the same run: the extractor and MiniLM on the passages' texts, each alone, in
CPU seconds (`bound` below).

The baseline runs from a temporary `git worktree` of the ref, in a child process (its own code and
Cypher files). Both report passages/s per slice of SLICE passages (graph growth must not slow the
writes beyond log factors). Results: benchmarks/results/ingest.json (`--out` for another file).
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "musique_train"
BASELINE_REF = "fdab77e"  # main before the one-transaction-per-batch write path
SLICE = 1000  # passages per throughput slice


class Replay:
    """Scripted extractor: returns precomputed outcomes by passage id."""

    name = "openie"
    uses_guide = False

    def __init__(self, outcomes) -> None:
        self.outcomes = outcomes

    def extract(self, items, guide):
        return [self.outcomes[i.passage_id] for i in items]

    def estimate(self, items, guide):
        from memgraph_neo4j.contracts import Usage

        return Usage()


def child(root: str, mode: str, outcomes_file: str, space: str, batch_size: int, limit: int) -> None:
    """Runs inside the code tree `root`: one timed ingest, prints {"seconds", "passages", ...}."""
    sys.path.insert(0, root)
    from memgraph_neo4j.api import MemoryGraph
    from memgraph_neo4j.embeddings import make_embedder
    from memgraph_neo4j.extractors.factory import make_extractor
    from memgraph_neo4j.ingest.readers import read_musique_corpus
    from memgraph_neo4j.memory.ontology import load_ontology
    from memgraph_neo4j.server.connection import open_store

    ontology = load_ontology()
    docs = read_musique_corpus(DATA / "corpus.json")[: limit or None]
    with open_store() as store:
        store.init_schema(384)
        store.run_implicit("admin/delete_space", space=space)
        if mode == "write":
            extractor, embedder = Replay(pickle.loads(Path(outcomes_file).read_bytes())), None
        else:
            embedder = make_embedder("minilm")
            extractor = make_extractor("offline", ontology, embedder=embedder)
        config = {}
        if mode == "offline-sequential":  # this checkout with one stage at a time (ingest/pipeline.py)
            from memgraph_neo4j.config import MemoryConfig

            config = {"config": MemoryConfig(overlap_stages=False)}
        memory = MemoryGraph(space=space, store=store, ontology=ontology, embedder=embedder, extractor=extractor,
                             **config)
        memory.init()
        slices: list[float] = []
        last = [time.perf_counter(), 0]

        def on_batch(report, done: int) -> None:  # passages/s of every SLICE passages (the last one partial)
            if done // SLICE > last[1] // SLICE or done == len(docs):
                now = time.perf_counter()
                slices.append(round((done - last[1]) / (now - last[0]), 1))
                last[:] = [now, done]

        began = last[0] = time.perf_counter()
        report = memory.ingest(docs, batch_size=batch_size, progress=False, on_batch=on_batch)
        seconds = time.perf_counter() - began
        store.run_implicit("admin/delete_space", space=space)
    print(json.dumps({"seconds": seconds, "passages": report.passages, "facts": report.facts,
                      "promoted": report.promoted, "activated": report.activated, "slices": slices}))


def bound(limit: int) -> None:
    """Runs in this checkout: the machine's bound for the offline ingest of the first `limit` passages, from
    the two stages that must run, measured alone in CPU seconds: the offline extractor (spaCy, rules and
    typing) and MiniLM on the passages' texts. On `cores` cores no ingest of these passages can run faster
    than cores x passages / (their sum). The names and fact texts an ingest also embeds, and the Neo4j
    server's own work, are not in it."""
    sys.path.insert(0, str(ROOT))
    from memgraph_neo4j.contracts import ExtractionInput, NoGuide
    from memgraph_neo4j.embeddings import make_embedder
    from memgraph_neo4j.extractors.factory import make_extractor
    from memgraph_neo4j.ingest.pipeline import passage_rows
    from memgraph_neo4j.ingest.readers import read_musique_corpus
    from memgraph_neo4j.memory.ontology import load_ontology

    ontology = load_ontology()
    rows = passage_rows(read_musique_corpus(DATA / "corpus.json")[:limit], ontology.chunking.tokens,
                        ontology.chunking.overlap)
    embedder = make_embedder("minilm")
    extractor = make_extractor("offline", ontology, embedder=embedder)
    extractor.extract([ExtractionInput(passage_id="w", doc_id="w", text=rows[0].text)], NoGuide())  # model loads
    embedder.embed_documents([rows[0].embedding_text])
    embedder.clear_cache()
    inputs = [ExtractionInput(passage_id=r.id, doc_id=r.doc_id, text=r.text, title=r.title) for r in rows]
    began = time.process_time()
    for start in range(0, len(inputs), 64):
        extractor.extract(inputs[start : start + 64], NoGuide())
    extract_cpu = time.process_time() - began
    embedder.clear_cache()
    began = time.process_time()
    embedder.embed_documents([r.embedding_text for r in rows])
    embed_cpu = time.process_time() - began
    cores = os.cpu_count() or 1
    print(json.dumps({"passages": len(rows), "extract_cpu_s": round(extract_cpu, 2), "embed_cpu_s": round(embed_cpu, 2),
                      "cores": cores, "passages_per_s": round(cores * len(rows) / (extract_cpu + embed_cpu), 1)}))


def timed(root: Path, mode: str, outcomes: Path, space: str, batch_size: int, limit: int = 0) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", str(root), mode, str(outcomes), space,
                          str(batch_size), str(limit)], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{mode} ingest in {root} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def prepare_outcomes(path: Path) -> float:
    """The typed OpenIE outcomes of every passage, pickled for the children; returns the seconds spent."""
    sys.path.insert(0, str(ROOT))
    from memgraph_neo4j.contracts import ExtractionInput
    from memgraph_neo4j.embeddings import make_embedder
    from memgraph_neo4j.extractors.openie import OpenIEExtractor, load_openie
    from memgraph_neo4j.extractors.typing import TypeAssigner
    from memgraph_neo4j.ingest.pipeline import passage_rows
    from memgraph_neo4j.ingest.readers import read_musique_corpus
    from memgraph_neo4j.memory.ontology import load_ontology

    began = time.perf_counter()
    ontology = load_ontology()
    rows = passage_rows(read_musique_corpus(DATA / "corpus.json"), ontology.chunking.tokens, ontology.chunking.overlap)
    extractor = OpenIEExtractor(load_openie(DATA / "openie_gpt-3.5-turbo-1106.json"),
                                TypeAssigner(ontology, make_embedder("minilm")))
    inputs = [ExtractionInput(passage_id=r.id, doc_id=r.doc_id, text=r.text, title=r.title) for r in rows]
    path.write_bytes(pickle.dumps({o.passage_id: o for o in extractor.extract(inputs, None)}))
    return time.perf_counter() - began


def summary(runs: list[dict]) -> dict:
    seconds = statistics.median(r["seconds"] for r in runs)
    slices = [statistics.median(s) for s in zip(*(r.get("slices", []) for r in runs))]
    return {"runs_s": [round(r["seconds"], 2) for r in runs], "median_s": round(seconds, 2),
            "passages_per_s": round(runs[0]["passages"] / seconds, 1), "passages": runs[0]["passages"],
            "facts": runs[0]["facts"], "promoted": runs[0]["promoted"], "activated": runs[0]["activated"],
            f"passages_per_s_per_{SLICE}_slice_median": slices}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--bound":
        bound(int(sys.argv[2]))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        root, mode, outcomes, space, batch_size, limit = sys.argv[2:8]
        child(root, mode, outcomes, space, int(batch_size), int(limit))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--baseline-ref", default=BASELINE_REF)
    parser.add_argument("--offline", type=int, default=0, help="also time the offline ingest of this many passages")
    parser.add_argument("--only", choices=["write", "offline"], help="time only this measurement")
    parser.add_argument("--sequential", action="store_true",
                        help="offline: also this checkout with one stage at a time (MemoryConfig.overlap_stages)")
    parser.add_argument("--outcomes", type=Path, help="reuse (or make) the typed replay outcomes at this path")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "ingest.json")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench_ingest_") as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(base), args.baseline_ref],
                       check=True)
        try:
            outcomes = args.outcomes or Path(tmp) / "outcomes.pkl"
            prep = 0.0 if outcomes.exists() or args.only == "offline" else prepare_outcomes(outcomes)
            result = {"baseline_ref": args.baseline_ref, "batch_size": args.batch_size,
                      "typing_and_replay_prep_s": round(prep, 1), "cores": os.cpu_count()}
            modes = [("write", 0)] + ([("offline", args.offline)] if args.offline else [])
            for mode, limit in [m for m in modes if args.only in (None, m[0])]:
                ours, theirs, plain, bounds = [], [], [], []
                for i in range(args.runs):  # alternate, so both see the same load
                    theirs.append(timed(base, mode, outcomes, f"w_bench_base_{i}", args.batch_size, limit))
                    ours.append(timed(ROOT, mode, outcomes, f"w_bench_ours_{i}", args.batch_size, limit))
                    print(f"{mode} run {i}: baseline {theirs[-1]['seconds']:.1f} s, ours {ours[-1]['seconds']:.1f} s",
                          flush=True)
                    if mode == "offline" and args.sequential:
                        plain.append(timed(ROOT, "offline-sequential", outcomes, f"w_bench_seq_{i}", args.batch_size,
                                           limit))
                        bounds.append(json.loads(subprocess.run([sys.executable, __file__, "--bound", str(limit)],
                                                                capture_output=True, text=True, check=True
                                                                ).stdout.strip().splitlines()[-1]))
                        print(f"  sequential {plain[-1]['seconds']:.1f} s, bound {bounds[-1]['passages_per_s']} "
                              "passages/s", flush=True)
                result[mode] = {"ours": summary(ours), "baseline": summary(theirs),
                                "speedup": round(summary(theirs)["median_s"] / summary(ours)["median_s"], 2)}
                if plain:
                    rate = statistics.median(b["passages_per_s"] for b in bounds)
                    result[mode].update(sequential=summary(plain), bound_runs=bounds, bound_passages_per_s=rate,
                                        speedup_over_sequential=round(summary(plain)["median_s"]
                                                                      / summary(ours)["median_s"], 2),
                                        share_of_bound=round(summary(ours)["passages_per_s"] / rate, 2))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=False)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
