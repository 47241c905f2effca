"""Passages for judging an extractor by hand, chosen by a seeded hash so nobody picks them.

Four sources of the shared benchmark data (``../shared/data``), each turned into passages the way
ingest turns it into passages, so a fixture judges what ingest extracts from:

- ``musique``, ``hotpotqa``: one passage per corpus record (``single_passage``);
- ``novel``: the GraphRAG-Bench novels, split by ingest's chunker with the ontology's token windows
  (``ingest.pipeline.passage_rows``); titled ``<corpus_name> #<passage index>``;
- ``locomo``: one message per passage, extracted from ``"speaker: text"`` with the speaker and date as
  its title (``ingest.episodes``); titled ``<conversation>/<turn>``.

Per source, passages are ranked by ``sha256(seed, source, title, text)`` and the first ``count`` are
taken: adding a source or raising a count keeps every passage sampled before.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from memgraph_neo4j.contracts import ExtractionInput, NoGuide
from memgraph_neo4j.evaluation.datasets import load_dataset
from memgraph_neo4j.evaluation.locomo import load_locomo
from memgraph_neo4j.ingest.episodes import build_episodes
from memgraph_neo4j.ingest.episodes import extraction_inputs as extraction_inputs_of
from memgraph_neo4j.ingest.pipeline import passage_rows
from memgraph_neo4j.ingest.readers import read_hotpotqa_corpus, read_musique_corpus
from memgraph_neo4j.memory.ontology import Ontology, load_ontology

__all__ = ["SOURCES", "SampledPassage", "extraction_inputs", "offline_triples", "sample", "sha256"]


@dataclass(frozen=True)
class SampledPassage:
    dataset: str
    title: str  # the reference a fixture keeps (with sha256), never the text
    text: str  # what the extractor reads
    input_title: str | None  # the title the extractor is given
    speaker: str | None = None  # a chat turn's: who said it, and who else takes part (ingest/episodes.py)
    listeners: tuple[str, ...] = ()

    @property
    def sha256(self) -> str:
        return sha256(self.text)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _corpus(read: Callable, folder: str) -> Callable[[Path, Ontology], list[SampledPassage]]:
    def passages(shared: Path, _: Ontology) -> list[SampledPassage]:
        return [SampledPassage("", d.title, d.text, d.title) for d in read(shared / folder)]
    return passages


def _novel(shared: Path, ontology: Ontology) -> list[SampledPassage]:
    docs = load_dataset(shared / "graphrag_bench_novel").corpus
    rows = passage_rows(docs, ontology.chunking.tokens, ontology.chunking.overlap)
    titles = {d.id: d.title for d in docs}
    return [SampledPassage("", f"{titles[r.doc_id]} #{r.index}", r.text, r.title) for r in rows]


def _locomo(shared: Path, _: Ontology) -> list[SampledPassage]:
    batch = build_episodes(load_locomo(shared / "locomo" / "locomo10.zip").conversations)
    rows = {r.id: r for r in batch.passages}  # the inputs exactly as conversation ingest builds them
    return [SampledPassage("", f"{e.conversation}/{e.turn}", i.text, i.title, i.speaker, tuple(i.listeners))
            for e, i in zip(batch.episodes, extraction_inputs_of(batch, [rows[e.id] for e in batch.episodes]),
                            strict=True)]


SOURCES: dict[str, tuple[Callable[[Path, Ontology], list[SampledPassage]], str]] = {
    "musique": (_corpus(read_musique_corpus, "musique_train"), "musique_train/corpus.json"),
    "hotpotqa": (_corpus(read_hotpotqa_corpus, "hotpotqa_train"), "hotpotqa_train/corpus.json"),
    "novel": (_novel, "graphrag_bench_novel/novel.parquet"),
    "locomo": (_locomo, "locomo/locomo10.zip"),
}


def sample(shared: Path, counts: dict[str, int], seed: str, ontology: Ontology | None = None,
           skip: int = 0) -> list[SampledPassage]:
    """The first ``counts[source]`` passages of each source in seeded-hash order (after ``skip`` of them:
    ``skip=counts`` gives a disjoint sample of the same size, to check rules outside a fixture)."""
    ontology = ontology or load_ontology()
    out: list[SampledPassage] = []
    for dataset, count in counts.items():
        read, _ = SOURCES[dataset]
        ranked = sorted(read(shared, ontology), key=lambda p: sha256(f"{seed}\n{dataset}\n{p.title}\n{p.text}"))
        out += [SampledPassage(dataset, p.title, p.text, p.input_title, p.speaker, p.listeners)
                for p in ranked[skip : skip + count]]
    return out


def extraction_inputs(passages: list[SampledPassage]) -> list[ExtractionInput]:
    return [ExtractionInput(passage_id=str(i), doc_id=str(i), text=p.text, title=p.input_title, speaker=p.speaker,
                            listeners=list(p.listeners)) for i, p in enumerate(passages)]


def offline_triples(items: list[ExtractionInput]) -> list[list[tuple[str, str, str]]]:
    """(head, relation, tail) of every fact the offline extractor (spaCy) gives each input: what the
    hand-labelled fixtures judge. Every input must extract."""
    from memgraph_neo4j.extractors.offline import OfflineExtractor

    outcomes = OfflineExtractor(load_ontology(), ner="spacy").extract(items, NoGuide())
    assert all(o.ok for o in outcomes), [o.error for o in outcomes if not o.ok]
    return [[(f.head, f.relation, f.tail) for f in o.extraction.facts] for o in outcomes]
