"""The offline extractor alone over the MuSiQue / HotpotQA corpora: speed, fact counts, relation mix.

No Neo4j, no embedder (types come from rules and the NER label only, as in the precision test):

    .venv/bin/python -m benchmarks.bench_offline_extractor                 # both corpora, spaCy when installed
    .venv/bin/python -m benchmarks.bench_offline_extractor --ner heuristic --corpus musique
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter

from benchmarks.common import ROOT
from memgraph_neo4j.contracts import ExtractionInput, NoGuide
from memgraph_neo4j.extractors.offline import CO_OCCURS, OfflineExtractor
from memgraph_neo4j.ingest.readers import read_hotpotqa_corpus, read_musique_corpus
from memgraph_neo4j.memory.ontology import load_ontology

SHARED = ROOT.parent / "shared" / "data"
CORPORA = {"musique": (read_musique_corpus, SHARED / "musique_train"),
           "hotpotqa": (read_hotpotqa_corpus, SHARED / "hotpotqa_train")}


def run(corpus: str, extractor: OfflineExtractor, batch: int, limit: int | None) -> dict[str, object]:
    read, folder = CORPORA[corpus]
    docs = read(folder)[:limit]
    items = [ExtractionInput(passage_id=str(i), doc_id=str(i), text=d.text, title=d.title) for i, d in enumerate(docs)]
    began = time.perf_counter()
    outcomes = []
    for start in range(0, len(items), batch):  # the ingest pipeline's batches
        outcomes += extractor.extract(items[start : start + batch], NoGuide())
    seconds = time.perf_counter() - began
    relations = Counter(f.relation for o in outcomes if o.ok for f in o.extraction.facts)
    facts = sum(relations.values())
    ontology_names = {r.name for r in extractor.ontology.relations}
    return {
        "corpus": corpus, "ner": extractor.ner, "model": extractor.model, "passages": len(items),
        "failed": sum(not o.ok for o in outcomes), "seconds": round(seconds, 1),
        "passages_per_s": round(len(items) / seconds, 1), "facts": facts,
        "facts_per_passage": round(facts / max(len(items), 1), 2),
        "co_occurs_share": round(relations[CO_OCCURS] / max(facts, 1), 3),
        "ontology_share": round(sum(n for r, n in relations.items() if r in ontology_names) / max(facts, 1), 3),
        "distinct_relations": len(relations),
        "top_relations": relations.most_common(15),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", choices=[*CORPORA, "both"], default="both")
    parser.add_argument("--ner", choices=["auto", "spacy", "heuristic"], default="auto")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args()
    extractor = OfflineExtractor(load_ontology(), ner=args.ner)
    for corpus in CORPORA if args.corpus == "both" else [args.corpus]:
        print(json.dumps(run(corpus, extractor, args.batch, args.limit)))


if __name__ == "__main__":
    main()
