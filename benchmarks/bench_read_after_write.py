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
1. the first search (cold); one warm-up message written (first-use loads out of the rounds: spaCy, the
   writer's and the adjudicator's copies), then two untimed searches;
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
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
DATA = Path(os.environ.get("MEMGRAPH_SHARED_DATA") or ROOT.parent / "shared" / "data") / "musique_train"
PASSAGES = 1890  # MuSiQue-train corpus.json
PREFIX = "raw_musique"  # --prefix
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


def space_of(copies: int, prefix: str = PREFIX) -> str:
    return prefix if copies == 1 else f"{prefix}_x{copies}"


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


# ----- the child: runs inside one code tree ----------------------------------------------------------
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

    out: dict = {"label": args.label, "tree": args.child, "space": args.space, "method": args.method, "nonce": nonce,
                 "load_before": round(os.getloadavg()[0], 2)}
    began = time.perf_counter()
    memory = MemoryGraph(space=args.space)
    try:
        out["open_ms"] = round((time.perf_counter() - began) * 1000, 1)
        out["first_search_ms"] = round(search(questions[0])[0], 1)
        log(f"first search {out['first_search_ms']:.0f} ms")
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


def build(store, copies: int, rebuild: bool, prefix: str) -> dict:
    """The space of MuSiQue x `copies`, if it does not hold the expected passages already."""
    space, expected = space_of(copies, prefix), PASSAGES * copies
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
           "--rounds", str(args.rounds), "--warm", str(args.warm), "--method", args.method,
           "--top-k", str(args.top_k), "--nonce", str(-1 if args.fixed_messages else random.getrandbits(31))]
    proc = subprocess.run(cmd, cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}, stdout=subprocess.PIPE,
                          text=True)  # stderr: the child's progress lines, through
    if proc.returncode != 0:
        raise SystemExit(f"{label} on {space} ({tree}) failed with code {proc.returncode}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def summarise(runs: list[dict], passages: int) -> dict:
    from memgraph_neo4j.evaluation.metrics import percentile

    def stats(values: list[float]) -> dict[str, float]:
        return {"p50_ms": round(statistics.median(values), 1), "p90_ms": round(percentile(values, 0.9), 1),
                "max_ms": round(max(values), 1)}

    def stage_medians(stage_lists: list[dict[str, float]]) -> dict[str, float]:
        names = list(dict.fromkeys(k for s in stage_lists for k in s))
        return {n: round(statistics.median(s.get(n, 0.0) for s in stage_lists), 2) for n in names}

    rounds = [r for run in runs for r in run["rounds"]]
    warm = stats([ms for run in runs for ms in run["warm_ms"]])
    out = {"passages": passages, "children": len(runs), "rounds": len(rounds), "warm": warm,
           "write": stats([r["write_ms"] for r in rounds]),
           "search_after_write": stats([r["search_after_write_ms"] for r in rounds]),
           "after_that": stats([r["after_that_ms"] for r in rounds]),
           "first_search_ms": statistics.median(run["first_search_ms"] for run in runs),
           "warmup_write_ms": statistics.median(run["warmup_write_ms"] for run in runs),
           "retract_ms": statistics.median(run.get("retract_ms", 0.0) for run in runs),
           "rss_mb": max(run.get("rss_mb", 0.0) for run in runs),
           "peak_rss_mb": max(run.get("peak_rss_mb", 0.0) for run in runs),
           "warm_stages_p50_ms": stage_medians([s for run in runs for s in run["warm_stages_ms"]]),
           "search_after_write_stages_p50_ms": stage_medians([r["search_after_write_stages_ms"] for r in rounds]),
           "after_that_stages_p50_ms": stage_medians([r["after_that_stages_ms"] for r in rounds])}
    out["target_ms"] = round(2 * warm["p50_ms"] + 10, 1)
    out["meets_target"] = out["search_after_write"]["p50_ms"] <= out["target_ms"]
    return out


def report(result: dict) -> str:
    from benchmarks.common import write_table

    def code_label(name: str) -> str:
        return f"{name} ({result['codes'][name]['commit']})"

    header = ["memory", "passages", "code", "warm p50 (p90)", "write p50 (p90)", "search after write p50 (p90)",
              "after that p50 (p90)", "target 2 x warm + 10", "RSS MB (peak)"]
    rows = []
    for size in result["sizes"]:
        for code, spaces in result["summary"].items():
            s = spaces.get(size["space"])
            if s is None:
                continue
            rows.append([size["space"], f"{size['passages']:,}", code_label(code),
                         f"{s['warm']['p50_ms']} ({s['warm']['p90_ms']})",
                         f"{s['write']['p50_ms']:.0f} ({s['write']['p90_ms']:.0f})",
                         f"**{s['search_after_write']['p50_ms']}** ({s['search_after_write']['p90_ms']})",
                         f"{s['after_that']['p50_ms']} ({s['after_that']['p90_ms']})",
                         f"{s['target_ms']} {'met' if s['meets_target'] else 'missed'}",
                         f"{s['rss_mb']:.0f} ({s['peak_rss_mb']:.0f})"])
    stage_rows = [[size["space"], code_label(code), which,
                   ", ".join(f"{k} {v}" for k, v in s[f"{key}_stages_p50_ms"].items())]
                  for size in result["sizes"] for code, spaces in result["summary"].items()
                  if (s := spaces.get(size["space"])) is not None
                  for which, key in (("warm", "warm"), ("search after write", "search_after_write"))]
    codes = "; ".join(f"{name}: {tree['commit']} ({tree.get('ref', tree['tree'])})"
                      for name, tree in result["codes"].items())
    load = f"load average {result['load_before'][0]:.1f} before, {result['load_after'][0]:.1f} after"
    text = (f"# Read after write ({result['method']}, top {result['top_k']}; {result['rounds']} rounds x "
            f"{result['repeats']} per code and size, {result['warm']} warm searches)\n\n"
            f"Codes: {codes}. {result['cpus']} cores, {load}. Times in ms; RSS of the Python process after the "
            f"rounds (peak).\n\n"
            + write_table(None, header, rows)
            + "\nStage medians (`timings_ms`):\n\n" + write_table(None, ["memory", "code", "search", "stages p50 ms"],
                                                                 stage_rows))
    return text


def plot(result: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for code, spaces in result["summary"].items():
        points = sorted((s["passages"], s["search_after_write"]["p50_ms"]) for s in spaces.values())
        ax.plot([p for p, _ in points], [ms for _, ms in points], marker="o",
                label=f"{code} ({result['codes'][code]['commit']}): search after write p50")
    ours = result["summary"].get("current") or next(iter(result["summary"].values()))
    target = sorted((s["passages"], s["target_ms"]) for s in ours.values())
    ax.plot([p for p, _ in target], [ms for _, ms in target], linestyle="--", color="grey",
            label="target: 2 x warm p50 + 10 ms (current)")
    ax.set_yscale("log")
    ax.set_xlabel("memory size (passages)")
    ax.set_ylabel("ms (log)")
    ax.set_title(f"search right after a one-message write ({result['method']})", fontsize=10)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


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
    parser.add_argument("--top-k", type=int, default=5)
    parser.add_argument("--prefix", default=PREFIX, help="space names: PREFIX (x1), PREFIX_xN")
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
    result: dict = {"method": args.method, "top_k": args.top_k, "rounds": args.rounds, "warm": args.warm,
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
                result["sizes"] = [build(store, copies, args.rebuild, args.prefix) for copies in sizes]
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
