"""The child of benchmarks/bench_read_after_write.py: one long-lived MemoryGraph on one memory, with the code
of one tree, measuring warm searches, one-message writes and the searches right after them; prints one
JSON line. The messages it writes are here too (the parent retracts leftovers by their SOURCE)."""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("MEMGRAPH_SHARED_DATA") or ROOT.parent / "shared" / "data") / "musique_train"
SOURCE = "bench:read_after_write"  # the written messages' Document.source: how leftovers are found

# One or two sentences each, as an agent writes a note or a conversation turn. {p}: a person named anew in
# every child (see `person`), so that every write is new to the space: writing a message again whose facts
# an earlier run retracted revives those facts, a path that costs more (see --fixed-messages). Each message
# names at most one entity the MuSiQue memory holds, so no fact of it links two known entities.
WARMUP_MESSAGE = "{p} bought a small bakery in Osaka in 2017 and named it after her daughter."
MESSAGES = [
    "{p} moved to Zagreb in March 2021 to work for the national theatre.",
    "{p} donated an archive of letters about Josip Broz Tito to a small library in 2019.",
    "{p} hiked the trail to Cascade Falls in May 2022. She said the river was very high.",
    "{p} is allergic to peanuts and prefers trains to flights when she travels to Berlin.",
    "The meeting with {p} about the office in Lagos moved to Thursday at 10 am.",
    "{p} won a chess open in Helsinki in 2018. She now coaches a junior team.",
    "{p} owns a winery in the San Lucas AVA that released its first pinot noir in 2020.",
    "{p}, the new chief technology officer of the company, studied physics at ETH Zurich.",
    "{p} translated the novel into Arabic in 2015 and won a prize at the Beirut Book Fair.",
    "{p} said the Green Line of the Boston subway reopened after repairs on 14 August 2023.",
]
FIRST_NAMES = ["Marta", "Ivana", "Priya", "Elena", "Sofia", "Amira", "Helga", "Yuki", "Nadia", "Lena", "Clara"]
_SYLLABLES = ["ka", "lo", "mer", "vin", "ta", "dor", "shi", "bru", "nel", "qua", "ri", "zen", "fo", "gal", "pe", "tur"]


def person(nonce: int, i: int) -> str:
    """A first name and a made-up surname of four syllables (65,536 of them), distinct for the messages of a
    child; two children (random nonces) share a person with odds 1/65,536 per message."""
    n = (nonce * 1_000_003 + i * 7919) % 16**4
    surname = "".join(_SYLLABLES[(n >> shift) & 15] for shift in (12, 8, 4, 0)).capitalize()
    return f"{FIRST_NAMES[i % len(FIRST_NAMES)]} {surname}"


def message(i: int, nonce: int | None) -> str:
    """Message i of a child (i = -1: the warm-up); `nonce` None: the fixed texts of --fixed-messages."""
    template = WARMUP_MESSAGE if i < 0 else MESSAGES[i % len(MESSAGES)]
    return template.format(p=person(0 if nonce is None else nonce, i + 1))


def rss_mb() -> dict[str, float]:
    """This process's resident set now (VmRSS) and at its peak (VmHWM), in MB."""
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = round(int(value.split()[0]) / 1024, 1)
    if not fields:  # no /proc: the peak from getrusage (KB on Linux)
        peak = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
        fields = {"VmRSS": peak, "VmHWM": peak}
    return {"rss_mb": fields["VmRSS"], "peak_rss_mb": fields["VmHWM"]}


def child(args: argparse.Namespace) -> None:
    """One MemoryGraph on one space with the code of `args.child` first on sys.path; prints one JSON line.
    Imports only what every version of the package has: MemoryGraph and the Document model."""
    sys.path.insert(0, args.child)
    import memgraph_neo4j
    from memgraph_neo4j.api import MemoryGraph
    from memgraph_neo4j.ingest.readers import Document

    if not str(Path(memgraph_neo4j.__file__).resolve()).startswith(str(Path(args.child).resolve())):
        raise SystemExit(f"memgraph_neo4j imported from {memgraph_neo4j.__file__}, not from {args.child}")
    questions = [q["question"] for q in json.loads((DATA / "questions.json").read_text())]
    nonce = None if args.nonce < 0 else args.nonce

    def log(text: str) -> None:
        print(f"  [{args.label} {args.space}] {text}", file=sys.stderr, flush=True)

    def document(text: str) -> Document:  # as mcp/documents.memory_document makes it, with our source
        title = text if len(text) <= 80 else text[:79].rstrip() + "\u2026"
        return Document(title=title, text=text, source=SOURCE, metadata={"kind": "text"})

    def search(question: str) -> tuple[float, dict[str, float]]:
        began = time.perf_counter()
        result = memory.search(question, method=args.method, top_k=args.top_k)
        return (time.perf_counter() - began) * 1000, dict(result.timings_ms)

    def copy_loads() -> dict[str, int | None]:
        """How often the writer's in-process copies were read in full (None where a version has no such copy)."""
        writer = memory.__dict__.get("writer")  # a cached property: None before the first write
        copies = {"fact_vectors": getattr(writer, "fact_vectors", None),
                  "entity_vectors": getattr(getattr(writer, "lookup", None), "vectors", None)}
        return {name: getattr(c, "loads", None) for name, c in copies.items()}

    def write(text: str) -> tuple[float, dict]:
        before = copy_loads()
        began = time.perf_counter()
        report = memory.ingest([document(text)], progress=False)
        ms = (time.perf_counter() - began) * 1000
        out = {k: getattr(report, k, None) for k in ("passages_new", "facts", "entities_new", "promoted",
                                                     "activated", "conflicts")}
        after = copy_loads()  # full re-reads of the writer's copies during this write
        out["copy_reads"] = {k: (v - before[k]) if v is not None and before[k] is not None else v
                             for k, v in after.items()}
        return ms, out

    out: dict = {"label": args.label, "tree": args.child, "space": args.space, "method": args.method,
                 "engine": args.engine, "nonce": nonce, "load_before": round(os.getloadavg()[0], 2)}
    began = time.perf_counter()
    if args.engine:  # the PageRank engine: the default (local, in process) unless given
        from memgraph_neo4j.config import RetrievalConfig

        memory = MemoryGraph(space=args.space, retrieval=RetrievalConfig(ppr_engine=args.engine))
    else:
        memory = MemoryGraph(space=args.space)
    try:
        out["open_ms"] = round((time.perf_counter() - began) * 1000, 1)
        out["first_search_ms"] = round(search(questions[0])[0], 1)
        # the copies it loaded from disk (retrieval/persisted.py; None: a version that keeps none)
        out["copies_loaded"] = getattr(getattr(memory.retrieval, "files", None), "loads", None)
        log(f"first search {out['first_search_ms']:.0f} ms, {out['copies_loaded']} copies loaded")
        rounds, written = [], []
        try:
            # first-use loads out of the rounds: spaCy, the writer's and the adjudicator's copies; the message
            # stays until the end (a retraction now would make the first round's write re-read them)
            ms, _ = write(message(-1, nonce))
            written.append(document(message(-1, nonce)).id)
            out["warmup_write_ms"] = round(ms, 1)
            out["warmup_search_ms"] = [round(search(q)[0], 1) for q in questions[1:3]]
            log(f"warm-up write {out['warmup_write_ms']:.0f} ms, searches {out['warmup_search_ms']} ms")
            warm = [search(questions[i % len(questions)]) for i in range(args.warm)]
            out["warm_ms"] = [round(ms, 2) for ms, _ in warm]
            out["warm_stages_ms"] = [stages for _, stages in warm]
            log(f"warm p50 {statistics.median(out['warm_ms']):.1f} ms")
            for i in range(args.rounds):
                text = message(i, nonce)
                write_ms, report = write(text)
                written.append(document(text).id)
                saw_ms, saw_stages = search(questions[(args.warm + 2 * i) % len(questions)])
                after_ms, after_stages = search(questions[(args.warm + 2 * i + 1) % len(questions)])
                rounds.append({"write_ms": round(write_ms, 1), "write": report, "search_after_write_ms":
                               round(saw_ms, 2), "search_after_write_stages_ms": saw_stages,
                               "after_that_ms": round(after_ms, 2), "after_that_stages_ms": after_stages})
                log(f"round {i + 1}: write {write_ms:.0f} ms ({report['facts']} facts, copies read "
                    f"{report['copy_reads']}), search after write "
                    f"{saw_ms:.0f} ms, after that {after_ms:.0f} ms")
            out.update(rss_mb())  # with the rounds' messages in, before the retraction
            # the retraction round: each round's message retracted on its own, then the next search (a delete
            # follows the change feed through tombstones: no copy is read whole)
            retractions = []
            for i, doc_id in enumerate(written[1:]):
                began = time.perf_counter()
                memory.retract([doc_id])
                retract_ms = (time.perf_counter() - began) * 1000
                saw_ms, saw_stages = search(questions[(args.warm + 2 * args.rounds + i) % len(questions)])
                retractions.append({"retract_ms": round(retract_ms, 1), "search_after_retract_ms": round(saw_ms, 2),
                                    "search_after_retract_stages_ms": saw_stages})
                log(f"retraction {i + 1}: {retract_ms:.0f} ms, search after it {saw_ms:.0f} ms")
            written = written[:1]
            out["retractions"] = retractions
        finally:
            if written:
                began = time.perf_counter()
                memory.retract(written)
                out["retract_ms"] = round((time.perf_counter() - began) * 1000, 1)
        out["rounds"] = rounds
        out["passages_after"] = memory.stats()["nodes"].get("Passage", {}).get("total", 0)
    finally:
        memory.close()
    out["load_after"] = round(os.getloadavg()[0], 2)
    print(json.dumps(out))


