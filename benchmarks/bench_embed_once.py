"""No text embedded twice: what reading back the vectors of stored facts and schemas saves the embedder.

Each dataset is ingested (offline extractor, default batch size) in two runs, its first half and then its
second half, the embedder's short-text cache emptied before each run as a new process would find it.
Twice per dataset, alternating: "read back" (today: stored facts and schemas keep their vectors) and
"plain" (every batch embeds its fact and schema texts, as before: `FactRepository.stored_vectors` answers
nothing). Counted: the distinct fact and schema texts of each batch (what the writer embedded before),
those read back from the space instead, and the texts that reached the model (the embedder's cache of
short texts already spared repeats within a run). Writes benchmarks/results/embed_once.{json,md}.

    .venv/bin/python benchmarks/bench_embed_once.py [--datasets musique_train,hotpotqa_train]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from collections import Counter
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import RESULTS, drop_projections, write_table  # noqa: E402
from memgraph_neo4j.api import MemoryGraph  # noqa: E402
from memgraph_neo4j.embeddings import make_embedder  # noqa: E402
from memgraph_neo4j.evaluation.datasets import load_dataset  # noqa: E402
from memgraph_neo4j.repository.documents import delete_space  # noqa: E402
from memgraph_neo4j.repository.facts import FactRepository  # noqa: E402
from memgraph_neo4j.server.connection import open_store  # noqa: E402
from memgraph_neo4j.store import GraphStore  # noqa: E402

DATA = ROOT.parent / "shared" / "data"


def build(store: GraphStore, dataset: str, mode: str) -> dict:
    corpus = load_dataset(DATA / dataset).corpus
    embedder = make_embedder("minilm")
    reached = Counter()
    # the model's inputs: MiniLM runs each distinct token sequence once (`_embed_encoded`), others `_embed`
    hook = "_embed_encoded" if hasattr(embedder, "_embed_encoded") else "_embed"
    inner = getattr(embedder, hook)

    def counting(texts, *rest):
        reached["texts"] += len(texts)
        return inner(texts, *rest)

    space = f"bench_embed_once_{uuid.uuid4().hex[:8]}"
    counts, began = Counter(), time.perf_counter()
    patch = (mock.patch.object(FactRepository, "stored_vectors", lambda self, f, s: ({}, {}))
             if mode == "plain" else mock.patch.object(FactRepository, "_dummy", None, create=True))
    try:
        with patch, mock.patch.object(embedder, hook, counting):
            for half in (corpus[: len(corpus) // 2], corpus[len(corpus) // 2:]):
                embedder.clear_cache()  # a new process starts with empty caches
                with MemoryGraph(space=space, store=store, embedder=embedder, extractor="offline") as memory:
                    memory.ingest(half, progress=False)
                    counts.update(memory.writer.embedding_counts)
    finally:
        drop_projections(store, space)
        delete_space(store, space)
    asked = counts["facts"] + counts["schemas"]
    return {"dataset": dataset, "mode": mode, "passages": len(corpus), "wall_s": round(time.perf_counter() - began, 1),
            "fact_texts": counts["facts"], "schema_texts": counts["schemas"], "read_back": counts["reused"],
            "read_back_share": round(counts["reused"] / asked, 4) if asked else 0.0,
            "sent_to_embedder": counts["embedded"], "reached_model": reached["texts"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="musique_train,hotpotqa_train")
    parser.add_argument("--out", type=Path, default=RESULTS / "embed_once")
    args = parser.parse_args()
    rows = []
    with open_store() as store:
        for dataset in args.datasets.split(","):
            for mode in ("read back", "plain"):
                rows.append(build(store, dataset, mode))
                print(json.dumps(rows[-1]), flush=True)
    for row in rows:  # the model's work saved, against the plain build of the same dataset
        plain = next(r for r in rows if r["dataset"] == row["dataset"] and r["mode"] == "plain")
        row["model_texts_saved"] = round(1 - row["reached_model"] / plain["reached_model"], 4)
    args.out.with_suffix(".json").write_text(json.dumps(rows, indent=2) + "\n")
    header = ["dataset", "mode", "passages", "fact texts", "schema texts", "read back (share)", "sent to embedder",
              "reached the model", "model texts saved", "wall s"]
    table = write_table(None, header, [[r["dataset"], r["mode"], r["passages"], r["fact_texts"], r["schema_texts"],
                                        f"{r['read_back']} ({r['read_back_share']:.1%})", r["sent_to_embedder"],
                                        r["reached_model"], f"{r['model_texts_saved']:.1%}", r["wall_s"]]
                                       for r in rows])
    args.out.with_suffix(".md").write_text("# No text embedded twice\n\nTwo runs per build (each half of the corpus, "
                                           "the short-text cache emptied before each); offline extractor.\n\n"
                                           + table)
    print(table)


if __name__ == "__main__":
    main()
