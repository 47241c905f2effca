"""The retrieval methods and ablations the harness can evaluate, by name.

A method is a name `search` takes (`retrieval.METHODS`, and `dual`, which selects with a chat model) with
its default configuration; an ablation switches one
part of memgraphrag off (or to the paper's form), so its effect is measured on the same memory in
the same run. The paper ablations start from `SeedConfig.paper()` as the paper's own table does.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from memgraph_neo4j.config import RetrievalConfig, SeedConfig
from memgraph_neo4j.retrieval import METHODS, SEARCH_METHODS

PAPER = SeedConfig.paper()  # eq. 6 mean entity weights, schema filter (active facts, stable schemas)
UNFUSED = (("fusion", "none"),)  # the paper ranks by PageRank alone
REFERENCE_ENGINES = (("ppr_engine", "gds"), ("layer_search", "index"))  # GDS PageRank, Neo4j indexes


@dataclass(frozen=True)
class Variant:
    key: str
    label: str
    method: str
    seeds: SeedConfig = field(default_factory=SeedConfig)
    options: tuple[tuple[str, object], ...] = ()  # RetrievalConfig fields besides the seeds

    def config(self, base: RetrievalConfig) -> RetrievalConfig:
        return dataclasses.replace(base, seeds=self.seeds, **dict(self.options))


# every method `search` takes (retrieval.SEARCH_METHODS): the retriever registry, and dual, which api.search
# builds with a chat model (retrieval/dual.py)
NEEDS_CHAT = frozenset(m for m in SEARCH_METHODS if m not in METHODS)
_SET_UP = {v.key: v for v in (
    # HippoRAG 2 has no type nodes: its graph is entities, passages and similarity edges
    Variant("hipporag2", "hipporag2", "hipporag2", options=(("type_weight", 0.0),)),
    Variant("memgraphrag", "memgraphrag default (HippoRAG-2 entity weights, question names, BM25 shares)",
            "memgraphrag"),
)}
METHOD_VARIANTS = {name: _SET_UP.get(name) or Variant(name, name, name) for name in SEARCH_METHODS}

ABLATION_VARIANTS = {v.key: v for v in (
    Variant("paper", "memgraphrag paper (eq. 6-8 + schema filter, PageRank order)", "memgraphrag", PAPER, UNFUSED),
    Variant("paper-no-schema-filter", "paper, no schema filter", "memgraphrag",
            dataclasses.replace(PAPER, schema_filter=False), UNFUSED),
    Variant("paper-no-hub-suppression", "paper, no hub suppression", "memgraphrag",
            dataclasses.replace(PAPER, hub_suppression=False), UNFUSED),
    Variant("paper-no-density", "paper, no density term", "memgraphrag",
            dataclasses.replace(PAPER, density=False), UNFUSED),
    Variant("paper-no-adjudication", "paper, no adjudication (facts with a verdict used)", "memgraphrag", PAPER,
            (*UNFUSED, ("adjudication", False))),
    Variant("no-named-entities", "default without the entities the question names", "memgraphrag",
            SeedConfig(named_entity_weight=0.0)),
    Variant("no-titles", "default without the passages whose title the question names", "memgraphrag",
            SeedConfig(title_weight=0.0)),
    Variant("no-fusion", "default ranked by PageRank alone (no BM25 shares)", "memgraphrag", options=UNFUSED),
    Variant("fusion-all-words", "default, the fusion's BM25 with every word of the question", "memgraphrag",
            options=(("fusion_stop_words", None),)),
    Variant("fusion-nltk-stop-words", "default, the fusion's BM25 without NLTK's stop words", "memgraphrag",
            options=(("fusion_stop_words", "nltk"),)),
    Variant("fusion-equal-weights", "default, the routes' shares unweighted (no per-question confidence)",
            "memgraphrag", options=(("fusion_confidence_top", 0),)),
    Variant("previous-fusion", "default with the fusion before (every word, equal weights)", "memgraphrag",
            options=(("fusion_stop_words", None), ("fusion_confidence_top", 0))),
    Variant("previous-default", "default without names and fusion (the default before issue 13)", "memgraphrag",
            SeedConfig(named_entity_weight=0.0, title_weight=0.0), UNFUSED),
    Variant("no-adjudication", "default, no adjudication (facts with a verdict used)", "memgraphrag",
            options=(("adjudication", False),)),
    Variant("no-type-edges", "default, without entity-type edges", "memgraphrag", options=(("type_weight", 0.0),)),
    Variant("co-occurrence-1", "default, co-occurrence facts at full edge weight", "memgraphrag",
            options=(("co_occurrence_weight", 1.0),)),
    Variant("co-occurrence-0.25", "default, co-occurrence facts at edge weight 0.25", "memgraphrag",
            options=(("co_occurrence_weight", 0.25),)),
    Variant("no-co-occurrence", "default, without co-occurrence edges", "memgraphrag",
            options=(("co_occurrence_weight", 0.0),)),
    Variant("reference-engines", "default, GDS PageRank over the Neo4j indexes (the reference engines)",
            "memgraphrag", options=REFERENCE_ENGINES),
    Variant("paper-reference-engines", "memgraphrag paper, GDS PageRank over the Neo4j indexes", "memgraphrag",
            PAPER, (*UNFUSED, *REFERENCE_ENGINES)),
)}

DEFAULT_METHODS = ("dense", "bm25", "hipporag2", "memgraphrag")
# conversations: the System-1 family besides the passage rankers (dual only on request: it needs a model)
CONVERSATION_METHODS = ("dense", "bm25", *(m for m in SEARCH_METHODS if m.startswith("hybrid")))


def variants(methods: list[str], ablations: list[str]) -> list[Variant]:
    """The variants named, methods first; ValueError naming an unknown one and the choices."""
    chosen = []
    for names, known, what in ((methods, METHOD_VARIANTS, "method"), (ablations, ABLATION_VARIANTS, "ablation")):
        for name in names:
            if name not in known:
                raise ValueError(f"unknown {what} {name!r}: choose from {', '.join(known)}")
            chosen.append(known[name])
    return chosen
