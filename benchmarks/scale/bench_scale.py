"""Scale run: the GraphRAG-Bench novels with the offline extractor, then a space of >= 100k passages.

    python benchmarks/scale/bench_scale.py novels              # 20 novels, 4.8 M characters
    python benchmarks/scale/bench_scale.py replicated --copies 53   # 53 x 1,890 = 100,170 passages

`novels`: the whole offline ingest (chunking, offline extractor, typing, MiniLM embeddings of
passages, entities, facts and schemas, resolution, writes, promotion, adjudication, bridging).
`replicated`: MuSiQue-train with renamed entities (see replicate.py): the REAL gpt-3.5 OpenIE
triples replayed, vectors derived from the originals' MiniLM vectors, so the run measures the
memory's write path and search at size, not the embedder.

Reported: wall time, passages/s per slice of 1k passages (with a PNG), peak RSS of this Python
process and of the Neo4j server, final counts, and search p50/p95 (warm, long-lived MemoryGraph)
over the dataset's questions. Results: benchmarks/results/scale/<part>.{json,md,png}.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from replicate import CopyEmbedder, copy_outcome, replicate  # noqa: E402

from memgraph_neo4j.api import MemoryGraph  # noqa: E402
from memgraph_neo4j.config import Settings  # noqa: E402
from memgraph_neo4j.contracts import ExtractionInput  # noqa: E402
from memgraph_neo4j.embeddings import make_embedder  # noqa: E402
from memgraph_neo4j.evaluation.datasets import load_dataset  # noqa: E402
from memgraph_neo4j.evaluation.metrics import percentile  # noqa: E402
from memgraph_neo4j.extractors.factory import make_extractor  # noqa: E402
from memgraph_neo4j.extractors.openie import OpenIEExtractor, load_openie  # noqa: E402
from memgraph_neo4j.extractors.typing import TypeAssigner  # noqa: E402
from memgraph_neo4j.ingest.pipeline import passage_rows  # noqa: E402
from memgraph_neo4j.ingest.readers import read_musique_corpus  # noqa: E402
from memgraph_neo4j.memory.ontology import load_ontology  # noqa: E402
from memgraph_neo4j.server.connection import open_store  # noqa: E402
from memgraph_neo4j.server.launcher import LocalNeo4j  # noqa: E402

DATA = Path(os.environ.get("MEMGRAPH_SHARED_DATA") or ROOT.parent / "shared" / "data")
OUT = ROOT / "benchmarks" / "results" / "scale"
SLICE = 1000


class Slices:
    """on_batch hook: passages/s of every slice of ~SLICE passages."""

    def __init__(self, offset: int = 0) -> None:
        self.rows: list[dict] = []
        self._mark, self._t, self.offset = 0, time.monotonic(), offset

    def __call__(self, report, done: int) -> None:
        if done - self._mark >= SLICE:
            now = time.monotonic()
            self.rows.append({"until": self.offset + done, "passages": done - self._mark,
                              "seconds": round(now - self._t, 2),
                              "passages_per_s": round((done - self._mark) / (now - self._t), 1)})
            self._mark, self._t = done, now

    def close(self, done: int) -> None:
        if done > self._mark:
            self(None, self._mark + SLICE if done - self._mark < SLICE else done)
            self.rows[-1]["until"] = self.offset + done
        self.offset += done
        self._mark, self._t = 0, time.monotonic()


def neo4j_peak_mb() -> float | None:
    pid = LocalNeo4j(Settings()).running_pid()
    if pid is None:
        return None
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return None


def search_latency(memory: MemoryGraph, questions: list[str], methods: list[str]) -> dict[str, dict]:
    out = {}
    for method in methods:
        memory.search(questions[0], method=method)  # warm: projection, caches
        ms = []
        for q in questions:
            began = time.perf_counter()
            memory.search(q, method=method, top_k=5)
            ms.append((time.perf_counter() - began) * 1000)
        out[method] = {"p50_ms": round(statistics.median(ms), 1), "p95_ms": round(percentile(ms, 0.95), 1)}
    return out


class Replay:
    """Outcomes of renamed copies, made on demand from the original's (memory stays flat)."""

    name = "openie"
    uses_guide = False

    def __init__(self) -> None:
        self.index: dict[str, tuple] = {}

    def add(self, passage_id: str, doc_id: str, original, copy: int) -> None:
        self.index[passage_id] = (doc_id, original, copy)

    def extract(self, items, guide):
        out = []
        for item in items:
            doc_id, original, copy = self.index[item.passage_id]
            out.append(copy_outcome(original, copy, item.passage_id, doc_id))
        return out

    def estimate(self, items, guide):
        from memgraph_neo4j.contracts import Usage

        return Usage()


def run_replicated(args, store, ontology) -> dict:
    docs = read_musique_corpus(DATA / "musique_train" / "corpus.json")
    base = make_embedder("minilm")
    typer = OpenIEExtractor(load_openie(DATA / "musique_train" / "openie_gpt-3.5-turbo-1106.json"),
                            TypeAssigner(ontology, base))
    rows = passage_rows(docs, ontology.chunking.tokens, ontology.chunking.overlap)
    originals = typer.extract([ExtractionInput(passage_id=r.id, doc_id=r.doc_id, text=r.text, title=r.title)
                               for r in rows], None)
    replay = Replay()
    copies = replicate(docs, originals, args.copies)
    for copy, doc, original in copies:
        row = passage_rows([doc], ontology.chunking.tokens, ontology.chunking.overlap)[0]
        replay.add(row.id, doc.id, original, copy)
    embedder = CopyEmbedder(base)
    memory = MemoryGraph(space=args.space, store=store, ontology=ontology, embedder=embedder, extractor=replay)
    docs_all = [doc for _, doc, _ in copies]
    earlier = json.loads(args.resume.read_text()) if args.resume else None
    first = earlier["passages_done"] if earlier else 0  # a resumed run: the chunks the earlier one finished
    slices = Slices(offset=first)
    began = time.monotonic() - (earlier["wall_s"] if earlier else 0.0)
    if earlier:
        slices.rows = list(earlier["slices"])
    for start in range(first, len(docs_all), SLICE * 5):  # chunks of 5k documents: bounded passage lists
        part = docs_all[start:start + SLICE * 5]
        memory.ingest(part, batch_size=args.batch_size, progress=False, on_batch=slices)
        slices.close(len(part))
        print(f"  {start + len(part)} passages, {time.monotonic() - began:.0f} s", flush=True)
        OUT.mkdir(parents=True, exist_ok=True)  # partial results survive an interrupted run
        (OUT / "replicated.partial.json").write_text(json.dumps(
            {"passages_done": start + len(part), "wall_s": round(time.monotonic() - began, 1),
             "slices": slices.rows, "neo4j_peak_rss_mb": neo4j_peak_mb(),
             "resumed_at": (earlier or {}).get("resumed_at", []) + ([first] if earlier else [])}, indent=2))
    wall = time.monotonic() - began
    questions = [q.question for q in load_dataset(DATA / "musique_train").questions]
    return {"passages": len(docs_all), "copies": args.copies, "wall_s": round(wall, 1), "slices": slices.rows,
            "resumed_at": (earlier or {}).get("resumed_at", []) + ([first] if earlier else []),
            "stats": memory.stats(),
            "search": search_latency(memory, questions, ["dense", "memgraphrag"])}


def run_novels(args, store, ontology) -> dict:
    dataset = load_dataset(DATA / "graphrag_bench_novel")
    embedder = make_embedder("minilm")
    extractor = make_extractor("offline", ontology, embedder=embedder)
    memory = MemoryGraph(space=args.space, store=store, ontology=ontology, embedder=embedder, extractor=extractor)
    slices = Slices()
    began = time.monotonic()
    report = memory.ingest(dataset.corpus, batch_size=args.batch_size, progress=True, on_batch=slices)
    slices.close(report.passages)
    wall = time.monotonic() - began
    questions = [q.question for q in dataset.questions[:200]]
    return {"documents": report.documents, "passages": report.passages, "wall_s": round(wall, 1),
            "passages_per_s": round(report.passages / wall, 1), "facts": report.facts, "slices": slices.rows,
            "stats": memory.stats(),
            "search": search_latency(memory, questions, ["dense", "memgraphrag"])}


def plot(result: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [s["until"] / 1000 for s in result["slices"]]
    ys = [s["passages_per_s"] for s in result["slices"]]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.plot(xs, ys, marker=".")
    ax.set_xlabel("passages in the space (thousands)")
    ax.set_ylabel("passages/s of the slice")
    ax.set_ylim(bottom=0)
    ax.set_title(f"scale run '{result['part']}': ingest throughput per {SLICE}-passage slice")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("part", choices=["novels", "replicated"])
    parser.add_argument("--copies", type=int, default=53, help="replicated: copies of the 1,890 MuSiQue passages")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--space", default=None)
    parser.add_argument("--keep", action="store_true", help="keep the space afterwards (default: delete it)")
    parser.add_argument("--resume", type=Path, default=None,
                        help="replicated: go on from an interrupted run's replicated.partial.json (a copy of it), "
                             "in the space it kept; its wall time and slices are carried over")
    args = parser.parse_args()
    args.space = args.space or f"scale_{args.part}"
    ontology = load_ontology()
    with open_store() as store:
        store.init_schema(384)
        if not args.resume:
            store.run_implicit("admin/delete_space", space=args.space)
        result = (run_novels if args.part == "novels" else run_replicated)(args, store, ontology)
        result["part"] = args.part
        result["python_peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
        result["neo4j_peak_rss_mb"] = neo4j_peak_mb()
        result["cpus"] = os.cpu_count()
        if not args.keep:
            store.run_implicit("admin/delete_space", space=args.space)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{args.part}.json").write_text(json.dumps(result, indent=2, default=str))
    plot(result, OUT / f"{args.part}.png")
    print(json.dumps({k: v for k, v in result.items() if k != "slices"}, indent=2, default=str))


if __name__ == "__main__":
    main()
