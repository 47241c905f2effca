"""Retrieval methods behind one interface: dense, bm25, hipporag2, memgraphrag (paper §4.3).

memgraphrag: embed the query once; top-K schemas, facts and passages from the vector indexes;
seeds from eq. 6-8 (retrieval/seeds.py); GDS personalised PageRank on a named projection of the
space that is rebuilt only when the memory's version changed.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from pydantic import BaseModel, Field

from memgraph_neo4j.retrieval import seeds as S
from memgraph_neo4j.store import GraphStore

METHODS = ("dense", "bm25", "hipporag2", "memgraphrag")


class Hit(BaseModel):
    id: str
    name: str | None = None
    score: float
    text: str | None = None


class RetrievalResult(BaseModel):
    method: str
    passages: list[Hit]
    entities: list[Hit] = Field(default_factory=list)
    facts: list[Hit] = Field(default_factory=list)  # the facts that seeded PPR
    schemas: list[Hit] = Field(default_factory=list)  # the schemas that seeded PPR
    fallback: bool = False  # no fact/schema passed the thresholds: dense passages were returned
    timings_ms: dict[str, float] = Field(default_factory=dict)


@dataclass
class RetrievalConfig:
    top_k_facts: int = 5
    top_k_schemas: int = 10
    top_n_passages: int = 50  # dense passage scores used as passage seeds
    damping: float = 0.5  # probability of following an edge: restart probability 0.5 (eq. 20, λ = 0.5)
    iterations: int = 20  # with restart 0.5 the residual after 20 steps is ~0.5^20 = 1e-6
    tolerance: float = 1e-7
    concurrency: int = 1  # measured fastest per query on 2 cores (the open edition allows <= 4)
    # edge weight of pending facts in the projection; None: 0 with the schema filter, else 1
    pending_weight: float | None = None
    type_weight: float = 1.0  # entity-type edges
    seeds: S.SeedConfig = field(default_factory=S.SeedConfig)


class _Timer:
    def __init__(self) -> None:
        self.laps: dict[str, float] = {}
        self._t = time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps[name] = self.laps.get(name, 0.0) + (now - self._t) * 1000
        self._t = now


def bm25_query(text: str) -> str:
    """A Lucene query from words only: nothing of the user's text is parsed as syntax."""
    words = "".join(c if c.isalnum() else " " for c in text).split()
    return " OR ".join(words[:64]) or "*"


class Retriever:
    def __init__(self, store: GraphStore, space: str, embedder, config: RetrievalConfig | None = None) -> None:
        self.store, self.space, self.embedder = store, space, embedder
        self.config = config or RetrievalConfig()
        self.projection_builds = 0  # observable: tests assert reuse and rebuild

    # ----- projection ----------------------------------------------------------------------------
    @property
    def pending_weight(self) -> float:
        if self.config.pending_weight is not None:
            return self.config.pending_weight
        return 0.0 if self.config.seeds.schema_filter else 1.0

    def _name_parts(self) -> tuple[str, str]:
        return f"mg_{self.space}_v", f"_p{self.pending_weight:g}_t{self.config.type_weight:g}"

    def graph_name(self, version: int) -> str:
        prefix, suffix = self._name_parts()
        return f"{prefix}{version}{suffix}"

    def ensure_projection(self) -> str:
        prefix, suffix = self._name_parts()
        state = self.store.read("retrieval/projection_state", space=self.space, prefix=prefix, suffix=suffix)[0]
        name = self.graph_name(state["version"])
        if state["exists"]:
            return name
        for row in self.store.read("retrieval/list_graphs", prefix=f"mg_{self.space}_v"):
            self.store.write("admin/drop_graph", name=row["graph"])
        self.store.write("retrieval/project_graph", space=self.space, graph=name,
                         pending_weight=self.pending_weight, type_weight=self.config.type_weight)
        self.projection_builds += 1
        return name

    # ----- methods -------------------------------------------------------------------------------
    def search(self, question: str, method: str = "memgraphrag", top_k: int = 5, top_m: int = 10) -> RetrievalResult:
        if method not in METHODS:
            raise ValueError(f"unknown method {method!r}: choose one of {', '.join(METHODS)}")
        timer = _Timer()
        if method == "bm25":
            rows = self.store.read("retrieval/passage_fulltext", space=self.space, query=bm25_query(question),
                                   k=top_k, fetch=top_k * 20)
            timer.lap("search")
            return self._finish(RetrievalResult(method=method, passages=[Hit(id=r["id"], name=r["title"],
                                                score=r["score"]) for r in rows]), timer)
        vector = self.embedder.embed_query(question).tolist()
        timer.lap("embed")
        if method == "dense":
            rows = self.store.read("retrieval/passage_vector", space=self.space, vector=vector, k=top_k,
                                   fetch=top_k * 20)
            timer.lap("vector")
            return self._finish(RetrievalResult(method=method, passages=[
                Hit(id=r["id"], name=r["title"], score=r["score"]) for r in rows]), timer)
        return self._graph_search(method, vector, top_k, top_m, timer)

    def _graph_search(self, method: str, vector: list[float], top_k: int, top_m: int,
                      timer: _Timer) -> RetrievalResult:
        cfg, c = self.config.seeds, self.config
        layers = self.store.read(
            "retrieval/memory_layers", space=self.space, vector=vector,
            fact_states=["active"] if cfg.schema_filter else ["active", "pending"],
            k_facts=c.top_k_facts if method == "hipporag2" else max(c.top_k_facts, 20), fetch_facts=200,
            schema_states=["stable"] if cfg.schema_filter else ["stable", "candidate"],
            k_schemas=0 if method == "hipporag2" else c.top_k_schemas, fetch_schemas=100,
            k_passages=c.top_n_passages, fetch_passages=c.top_n_passages * 4)[0]
        facts, schemas = layers["facts"], layers["schemas"]
        dense = [Hit(id=r["id"], name=r["title"], score=r["score"]) for r in layers["passages"]]
        timer.lap("vector")
        fact_hits = [S.FactHit(r["id"], r["score"], r["head_id"], r["tail_id"]) for r in facts]
        schema_hits = [S.SchemaHit(r["id"], r["score"], r["head_type"], r["tail_type"]) for r in schemas]
        passage_hits = [S.PassageHit(h.id, h.score) for h in dense]
        entity_ids = sorted({i for f in fact_hits for i in (f.head_id, f.tail_id)})
        type_ids = sorted({t for s in schema_hits for t in (s.head_type, s.tail_type)})
        stats = self.store.read("retrieval/seed_statistics", space=self.space, entity_ids=entity_ids,
                                type_ids=type_ids, passage_ids=[p.passage_id for p in passage_hits])[0]
        entity_passages = {i: n for i, n in stats["entity_passages"]}
        type_degree = {i: n for i, n in stats["type_degree"]}
        passage_entities: dict[str, list[str]] = {p.passage_id: [] for p in passage_hits}
        idf_map: dict[str, float] = {}
        total = max(stats["passages"], 1)
        for pid, eid, df in stats["passage_mentions"]:
            if eid is not None:
                passage_entities[pid].append(eid)
                idf_map[eid] = math.log(total / max(df, 1))
        if method == "hipporag2":
            weights = S.hipporag2_seeds(fact_hits, passage_hits, entity_passage_count=entity_passages,
                                        alpha=cfg.alpha, top_k_facts=self.config.top_k_facts)
            used_facts = fact_hits[: self.config.top_k_facts]
        else:
            weights = S.memgraphrag_seeds(fact_hits, schema_hits, passage_hits, entity_passage_count=entity_passages,
                                          type_degree=type_degree, passage_entities=passage_entities,
                                          idf_map=idf_map, config=cfg)
            used_facts = S.select_facts(fact_hits, cfg.fact_threshold, cfg.top_k_facts)
        timer.lap("seeding")
        kinds = {"entity": set(entity_ids), "type": set(type_ids)}
        entity_seeds = [[k, w] for k, w in weights.items() if k in kinds["entity"]]
        # without entity-type edges the Type nodes are not in the projection: they cannot seed
        type_seeds = [[k, w] for k, w in weights.items() if k in kinds["type"]] if self.config.type_weight > 0 else []
        passage_seeds = [[k, w] for k, w in weights.items() if k not in kinds["entity"] and k not in kinds["type"]]
        if not entity_seeds and not type_seeds:  # nothing from the memory: plain dense retrieval
            return self._finish(RetrievalResult(method=method, passages=dense[:top_k], fallback=True), timer)
        graph = self.ensure_projection()
        timer.lap("projection")
        ranked = {r["kind"]: r["top"] for r in self.store.read(
            "retrieval/ppr", space=self.space, graph=graph, entity_seeds=entity_seeds, type_seeds=type_seeds,
            passage_seeds=passage_seeds, damping=self.config.damping, iterations=self.config.iterations,
            tolerance=self.config.tolerance, concurrency=self.config.concurrency, top_k=top_k, top_m=top_m)}
        timer.lap("ppr")
        fact_text = {r["id"]: r["text"] for r in facts}
        return self._finish(RetrievalResult(
            method=method,
            passages=[Hit(**h) for h in ranked.get("passage", [])],
            entities=[Hit(**h) for h in ranked.get("entity", [])],
            facts=[Hit(id=f.fact_id, score=f.score, text=fact_text.get(f.fact_id)) for f in used_facts],
            schemas=[Hit(id=r["id"], score=r["score"], text=f"{r['head_type']} -{r['relation']}-> {r['tail_type']}")
                     for r in schemas if r["score"] > cfg.schema_threshold],
        ), timer)

    def _finish(self, result: RetrievalResult, timer: _Timer) -> RetrievalResult:
        if result.passages and result.passages[0].text is None:
            texts = {r["id"]: r for r in self.store.read("retrieval/passage_texts", space=self.space,
                                                         ids=[h.id for h in result.passages])}
            for hit in result.passages:
                hit.text = texts.get(hit.id, {}).get("text")
        timer.lap("fetch")
        result.timings_ms = {k: round(v, 2) for k, v in timer.laps.items()}
        return result
