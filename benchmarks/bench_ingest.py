"""Write-path throughput on MuSiQue-train: passages per second into Neo4j, embeddings excluded.

The extractor is scripted: the REAL gpt-3.5 OpenIE triples, typed once up front (not timed), are
replayed per passage, so the timing is the memory write path alone (passages, entity resolution,
facts, schemas, mentions, promotion after each batch). Baseline in the same run: the same
pipeline with one chunk per batch (promotion and one transaction per statement for every chunk),
on a subset, against ours on the same subset.

    python benchmarks/bench_ingest.py [--runs 3] [--subset 300]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memgraph_neo4j.api import MemoryGraph  # noqa: E402
from memgraph_neo4j.contracts import ExtractionInput, ExtractionOutcome  # noqa: E402
from memgraph_neo4j.embeddings import make_embedder  # noqa: E402
from memgraph_neo4j.extractors.openie import OpenIEExtractor, load_openie  # noqa: E402
from memgraph_neo4j.extractors.typing import TypeAssigner  # noqa: E402
from memgraph_neo4j.ingest.pipeline import passage_rows  # noqa: E402
from memgraph_neo4j.ingest.readers import read_musique_corpus  # noqa: E402
from memgraph_neo4j.memory.ontology import load_ontology  # noqa: E402
from memgraph_neo4j.server.connection import open_store  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "musique_train"


class Replay:
    """Scripted extractor: returns precomputed outcomes by passage id."""

    name = "openie"

    def __init__(self, outcomes: dict[str, ExtractionOutcome]) -> None:
        self.outcomes = outcomes

    def extract(self, items, guide):
        return [self.outcomes[i.passage_id] for i in items]


def timed_ingest(store, ontology, docs, extractor, space: str, batch_size: int) -> float:
    store.run_implicit("admin/delete_space", space=space)
    memory = MemoryGraph(space=space, store=store, ontology=ontology, embedder=None, extractor=extractor)
    began = time.perf_counter()
    memory.ingest(docs, batch_size=batch_size, progress=False)
    seconds = time.perf_counter() - began
    store.run_implicit("admin/delete_space", space=space)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--subset", type=int, default=300, help="passages for the batched-vs-unbatched ratio")
    parser.add_argument("--batch-size", type=int, default=256)
    args = parser.parse_args()

    ontology = load_ontology()
    docs = read_musique_corpus(DATA / "corpus.json")
    rows = passage_rows(docs, ontology.chunking.tokens, ontology.chunking.overlap)
    began = time.perf_counter()
    extractor = OpenIEExtractor(load_openie(DATA / "openie_gpt-3.5-turbo-1106.json"),
                                TypeAssigner(ontology, make_embedder("minilm")))
    inputs = [ExtractionInput(passage_id=r.id, doc_id=r.doc_id, text=r.text, title=r.title) for r in rows]
    outcomes = {o.passage_id: o for o in extractor.extract(inputs, None)}
    prep = time.perf_counter() - began
    replay = Replay(outcomes)

    with open_store() as store:
        store.init_schema(384)
        full = [timed_ingest(store, ontology, docs, replay, f"bench_write_{i}", args.batch_size)
                for i in range(args.runs)]
        subset = docs[: args.subset]
        ours = [timed_ingest(store, ontology, subset, replay, f"bench_sub_{i}", args.batch_size)
                for i in range(args.runs)]
        naive = [timed_ingest(store, ontology, subset, replay, f"bench_naive_{i}", 1) for i in range(args.runs)]

    result = {
        "passages": len(docs),
        "typing_and_replay_prep_s": round(prep, 1),
        "write_path_runs_s": [round(s, 2) for s in full],
        "write_path_median_passages_per_s": round(len(docs) / statistics.median(full), 1),
        "subset": len(subset),
        "subset_batched_median_s": round(statistics.median(ours), 2),
        "subset_one_chunk_per_batch_median_s": round(statistics.median(naive), 2),
        "speedup_vs_one_chunk_per_batch": round(statistics.median(naive) / statistics.median(ours), 2),
    }
    out = ROOT / "benchmarks" / "results"
    out.mkdir(exist_ok=True)
    (out / "ingest.json").write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
