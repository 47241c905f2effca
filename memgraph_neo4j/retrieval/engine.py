"""Retrieval methods behind one interface: dense, bm25, hipporag2, memgraphrag (paper §4.3).

memgraphrag: embed the query once; top-K schemas, facts and passages from the vector indexes;
seeds from eq. 6-8 (retrieval/seeds.py); GDS personalised PageRank on a named projection of the
space that is rebuilt only when the memory's version changed.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field

from memgraph_neo4j.memory import states
from memgraph_neo4j.retrieval import ppr_engines as E
from memgraph_neo4j.retrieval import seeds as S
from memgraph_neo4j.retrieval.layers_local import LayerSnapshot
from memgraph_neo4j.retrieval.seeds import SeedStatistics
from memgraph_neo4j.retrieval.statistics import StatisticsSnapshot, from_query_rows
from memgraph_neo4j.store import GraphStore

METHODS = ("dense", "bm25", "hipporag2", "memgraphrag")
PPR_ENGINES = ("gds", "local", "client")
LAYER_SEARCHES = ("index", "local")
MAX_FETCH = 4096  # most vector hits asked for one layer; a space that small a share of the index gets fewer


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
    # "gds": gds.pageRank.stream on the named projection (the reference). "local": the same
    # iteration in process on a copy of that projection, exported once per memory version.
    # "client": through a graphdatascience client (see retrieval/ppr_engines.py).
    ppr_engine: str = "gds"
    # "index": top-K facts, schemas and passages from the Neo4j vector indexes (HNSW, approximate).
    # "local": exact cosine top-K in process over the space's vectors, read once per memory version
    # (retrieval/layers_local.py); spaces with more than snapshot_max_vectors use the indexes.
    layer_search: str = "index"
    snapshot_max_vectors: int = 200_000  # ~1.6 KB each held with MiniLM (384 float32 + ids, texts)
    over_fetch: int = 3  # vector hits asked per result wanted, before filtering by space and state
    # vector hits asked per layer at least: the HNSW search is approximate and searches wider for a
    # larger k; with 30 instead of 100, 17 of 100 MuSiQue questions got a different top-10 of schemas
    min_fetch: int = 100
    ppr_candidates: int = 300  # best-scored nodes resolved per GDS call; more only if they hold too few
    # seed statistics are held in memory per memory version up to this many passage mentions
    # (measured 120 bytes each held, 220 at peak); beyond, each query reads those of its hits
    # (~10 ms more per query on MuSiQue)
    snapshot_max_mentions: int = 1_000_000
    # edge weight of pending facts in the projection; None: 0 with the schema filter, else 1
    pending_weight: float | None = None
    type_weight: float = 1.0  # entity-type edges
    # False: the "no adjudication" ablation, facts with a verdict (discarded, superseded, ...) are used
    adjudication: bool = True
    seeds: S.SeedConfig = field(default_factory=S.SeedConfig)

    def __post_init__(self) -> None:
        if self.ppr_engine not in PPR_ENGINES:
            raise ValueError(f"ppr_engine must be one of {', '.join(PPR_ENGINES)}, not {self.ppr_engine!r}")
        if self.layer_search not in LAYER_SEARCHES:
            raise ValueError(f"layer_search must be one of {', '.join(LAYER_SEARCHES)}, not {self.layer_search!r}")
        if not 0 < self.damping < 1:
            raise ValueError(f"damping must be in (0, 1), not {self.damping}")
        for name in ("ppr_candidates", "over_fetch", "min_fetch", "iterations"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, not {getattr(self, name)}")


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
    def __init__(self, store: GraphStore, space: str, embedder, config: RetrievalConfig | None = None,
                 gds: Any = None) -> None:
        """`gds`: a graphdatascience client for the "client" engine (default: one on the store's driver)."""
        self.store, self.space, self.embedder = store, space, embedder
        self.config = config or RetrievalConfig()
        self.projection_builds = 0  # observable: tests assert reuse and rebuild
        self._statistics: tuple[int, StatisticsSnapshot | None] | None = None
        self._layers: tuple[int, LayerSnapshot | None] | None = None
        self.layer_exports = 0  # observable: tests assert one export per memory version
        engine = self.config.ppr_engine
        self.engine: E.PprEngine = (E.GdsEngine(store, space, self.config) if engine == "gds"
                                    else E.LocalEngine(store, space, self.config) if engine == "local"
                                    else E.ClientEngine(store, space, self.config, gds))

    # ----- projection ----------------------------------------------------------------------------
    @property
    def local_exports(self) -> int:
        return getattr(self.engine, "exports", 0)

    @property
    def pending_weight(self) -> float:
        if self.config.pending_weight is not None:
            return self.config.pending_weight
        return 0.0 if self.config.seeds.schema_filter else 1.0

    @property
    def fact_states(self) -> list[str]:
        return states.fact_states(self.config.seeds.schema_filter, self.config.adjudication)

    def _name_parts(self) -> tuple[str, str]:
        verdicts = "" if self.config.adjudication else "_a0"
        return f"mg_{self.space}_v", f"_p{self.pending_weight:g}_t{self.config.type_weight:g}{verdicts}"

    def graph_name(self, version: int) -> str:
        prefix, suffix = self._name_parts()
        return f"{prefix}{version}{suffix}"

    def ensure_projection(self, version: int | None = None, exists: bool | None = None) -> str:
        """The projection's name for the memory's current version, built if missing.

        Callers that already read the version and existence (the multi-layer query does) pass them.
        Projections of older versions are dropped; other configurations of this version are kept,
        so retrievers with different settings do not rebuild each other's graphs.
        """
        prefix, suffix = self._name_parts()
        if version is None or exists is None:
            state = self.store.read("retrieval/projection_state", space=self.space, prefix=prefix, suffix=suffix)[0]
            version, exists = state["version"], state["exists"]
        name = self.graph_name(version)
        if self.engine.projection_exists(name, exists):
            return name
        # ours: this space's projections of any version ("mg_a_v" is also a prefix of space "a_v2"'s)
        ours = re.compile(re.escape(prefix) + r"(\d+)_p.*")
        for graph in self.engine.graphs(prefix):
            match = ours.fullmatch(graph)
            if match and int(match.group(1)) != version:
                self.engine.drop(graph)
        self.engine.project(name, {"space": self.space, "fact_states": self.fact_states,
                                   "pending_weight": self.pending_weight, "type_weight": self.config.type_weight})
        self.projection_builds += 1
        return name

    def seed_statistics(self, version: int, entity_ids: list[str], type_ids: list[str],
                        passage_ids: list[str]) -> SeedStatistics:
        """From a snapshot of the space read once per memory version; for spaces with more mentions
        than `snapshot_max_mentions`, read per query (a snapshot would not fit in memory)."""
        if self._statistics is None or self._statistics[0] != version:
            mentions = self.store.read("retrieval/mention_count")[0]["mentions"]
            snapshot = None
            if mentions <= self.config.snapshot_max_mentions:
                snapshot = StatisticsSnapshot(self.store.read("retrieval/export_statistics", space=self.space)[0])
            self._statistics = (version, snapshot)
        snapshot = self._statistics[1]
        if snapshot is not None:
            return snapshot.lookup(entity_ids, type_ids, passage_ids)
        row = self.store.read("retrieval/seed_statistics", space=self.space, entity_ids=entity_ids,
                              type_ids=type_ids, passage_ids=passage_ids)[0]
        return from_query_rows(row, passage_ids)

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
                                                score=r["score"], text=r["text"]) for r in rows]), timer)
        vector = self.embedder.embed_query(question).tolist()
        timer.lap("embed")
        if method == "dense":
            rows = self.store.read("retrieval/passage_vector", space=self.space, vector=vector, k=top_k,
                                   fetch=top_k * 20)
            timer.lap("vector")
            return self._finish(RetrievalResult(method=method, passages=[
                Hit(id=r["id"], name=r["title"], score=r["score"], text=r["text"]) for r in rows]), timer)
        return self._graph_search(method, vector, top_k, top_m, timer)

    def _graph_search(self, method: str, vector: list[float], top_k: int, top_m: int,
                      timer: _Timer) -> RetrievalResult:
        cfg, c = self.config.seeds, self.config
        # memgraphrag keeps at most cfg.top_k_facts facts above the threshold (None: all, read 50)
        k_facts = c.top_k_facts if method == "hipporag2" else cfg.top_k_facts or 50
        layers = self._memory_layers(vector, k_facts=k_facts, k_schemas=0 if method == "hipporag2" else c.top_k_schemas)
        facts, schemas = layers["facts"], layers["schemas"]
        dense = [Hit(id=r["id"], name=r["title"], score=r["score"], text=r["text"]) for r in layers["passages"]]
        timer.lap("vector")
        fact_hits = [S.FactHit(r["id"], r["score"], r["head_id"], r["tail_id"]) for r in facts]
        schema_hits = [S.SchemaHit(r["id"], r["score"], r["head_type"], r["tail_type"]) for r in schemas]
        passage_hits = [S.PassageHit(h.id, h.score) for h in dense]
        entity_ids = sorted({i for f in fact_hits for i in (f.head_id, f.tail_id)})
        type_ids = sorted({t for s in schema_hits for t in (s.head_type, s.tail_type)})
        passage_ids = [p.passage_id for p in passage_hits]
        stats = self.seed_statistics(layers["version"], entity_ids, type_ids, passage_ids)
        if method == "hipporag2":
            weights = S.hipporag2_seeds(fact_hits, passage_hits, entity_passage_count=stats.entity_passages,
                                        alpha=cfg.alpha, top_k_facts=self.config.top_k_facts)
            used_facts = fact_hits[: self.config.top_k_facts]
        else:
            weights = S.memgraphrag_seeds(fact_hits, schema_hits, passage_hits, stats, cfg)
            used_facts = S.select_facts(fact_hits, cfg.fact_threshold, cfg.top_k_facts)
        timer.lap("seeding")
        kinds = {"entity": set(entity_ids), "type": set(type_ids)}
        seeds = E.Seeds(
            entity=[[k, w] for k, w in weights.items() if k in kinds["entity"]],
            # without entity-type edges the Type nodes are not in the projection: they cannot seed
            type=[[k, w] for k, w in weights.items() if k in kinds["type"]] if self.config.type_weight > 0 else [],
            passage=[[k, w] for k, w in weights.items() if k not in kinds["entity"] and k not in kinds["type"]])
        if not seeds.entity and not seeds.type:  # nothing from the memory: plain dense retrieval
            return self._finish(RetrievalResult(method=method, passages=dense[:top_k], fallback=True), timer)
        graph = self.ensure_projection(layers["version"], layers["exists"])
        self.engine.prepare(graph)  # e.g. the local engine's export, once per projection
        timer.lap("projection")
        ranked = self.engine.rank(graph, seeds, top_k, top_m)
        timer.lap("ppr")
        fact_text = {r["id"]: r["text"] for r in facts}
        return self._finish(RetrievalResult(
            method=method,
            passages=[Hit(**h) for h in ranked.get("passage", [])],
            entities=[Hit(**h) for h in ranked.get("entity", [])],
            facts=[Hit(id=f.fact_id, score=f.score, text=fact_text.get(f.fact_id)) for f in used_facts],
            schemas=[Hit(id=r["id"], score=r["score"], text=f"{r['head_type']} -{r['relation']}-> {r['tail_type']}")
                     for r in schemas if r["score"] > cfg.schema_threshold],
        ), timer, known=dense)

    def layer_snapshot(self, version: int) -> LayerSnapshot | None:
        """The space's vector layers at `version` (read once per version), or None when the space holds
        more than `snapshot_max_vectors` vectors (the indexes are searched instead)."""
        if self._layers is None or self._layers[0] != version:
            self._layers = None  # the old copy can go before the new one is read
            vectors = self.store.read("retrieval/layer_count", space=self.space)[0]["vectors"]
            snapshot = None
            if vectors <= self.config.snapshot_max_vectors:
                snapshot = LayerSnapshot(self.store.read("retrieval/export_layers", space=self.space),
                                         self.embedder.dimension)
                self.layer_exports += 1
            self._layers = (version, snapshot)
        return self._layers[1]

    def _memory_layers(self, vector: list[float], k_facts: int, k_schemas: int) -> dict:
        """Top facts, schemas and passages of this space, with the memory version and whether its
        projection exists: exact in process (layer_search "local") or from the vector indexes."""
        c, schema_filter = self.config, self.config.seeds.schema_filter
        if c.layer_search != "local":
            return self._index_layers(vector, k_facts, k_schemas)
        if self._layers is not None and self._layers[1] is None:
            # too large for a copy at the last version seen: the index query reads the version itself
            layers = self._index_layers(vector, k_facts, k_schemas)
            if layers["version"] == self._layers[0]:
                return layers
            state = {"version": layers["version"], "exists": layers["exists"]}
        else:
            prefix, suffix = self._name_parts()
            state = self.store.read("retrieval/projection_state", space=self.space, prefix=prefix, suffix=suffix)[0]
        snapshot = self.layer_snapshot(state["version"])
        if snapshot is None:
            return self._index_layers(vector, k_facts, k_schemas)
        return {**state, **snapshot.search(vector, self.fact_states, k_facts, states.schema_states(schema_filter),
                                           k_schemas, c.top_n_passages)}

    def _index_layers(self, vector: list[float], k_facts: int, k_schemas: int) -> dict:
        """The layers from the shared vector indexes; asks them for more hits only when filtering by
        space and state left a layer short and the index may hold more."""
        c, schema_filter = self.config, self.config.seeds.schema_filter
        want = {"facts": k_facts, "schemas": k_schemas, "passages": c.top_n_passages}
        fetch = {layer: max(c.over_fetch * k, c.min_fetch if k else 1) for layer, k in want.items()}
        prefix, suffix = self._name_parts()
        while True:
            layers = self.store.read(
                "retrieval/memory_layers", space=self.space, vector=vector, graph_prefix=prefix, graph_suffix=suffix,
                fact_states=self.fact_states, k_facts=k_facts, fetch_facts=fetch["facts"],
                schema_states=states.schema_states(schema_filter), k_schemas=k_schemas, fetch_schemas=fetch["schemas"],
                k_passages=c.top_n_passages, fetch_passages=fetch["passages"])[0]
            short = [layer for layer, k in want.items() if len(layers[layer]) < k
                     and layers[f"{layer}_scanned"] >= fetch[layer] and fetch[layer] < MAX_FETCH]
            if not short:
                return layers
            for layer in short:
                fetch[layer] = min(fetch[layer] * 8, MAX_FETCH)

    def _finish(self, result: RetrievalResult, timer: _Timer, known: list[Hit] = ()) -> RetrievalResult:
        """Passage texts: from hits that already carry them (`known`), the rest in one read."""
        texts = {h.id: h.text for h in known if h.text is not None}
        for hit in result.passages:
            hit.text = hit.text if hit.text is not None else texts.get(hit.id)
        missing = [h.id for h in result.passages if h.text is None]
        if missing:
            rows = {r["id"]: r["text"]
                    for r in self.store.read("retrieval/passage_texts", space=self.space, ids=missing)}
            for hit in result.passages:
                if hit.text is None:
                    hit.text = rows.get(hit.id)
        timer.lap("fetch")
        result.timings_ms = {k: round(v, 2) for k, v in timer.laps.items()}
        return result
