"""Every setting in one place, built once and passed down.

`Settings` come from the environment (prefix MEMGRAPH_); `Connection` says where Neo4j is
(server/connection.py resolves it: NEO4J_URI/USERNAME/PASSWORD, else the local launcher's server);
`MemoryConfig`, `SeedConfig` and `RetrievalConfig` switch the memory and retrieval parts.
"""

from __future__ import annotations

import os
import typing
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any, Literal

import platformdirs

from memgraph_neo4j.config.values import SettingsError as SettingsError  # where callers have always found it
from memgraph_neo4j.config.values import check, convert

ENV_PREFIX = "MEMGRAPH_"


def _default_home() -> Path:
    return platformdirs.user_data_path("memgraph-neo4j", appauthor=False)


def default_copies_dir() -> Path | None:
    """Where searches keep their copies between processes (retrieval/persisted.py): MEMGRAPH_COPIES_DIR,
    "off" (or empty) for nowhere, else the user cache dir."""
    chosen = os.environ.get(ENV_PREFIX + "COPIES_DIR")
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "off", "none", "0") else Path(chosen).expanduser()
    return platformdirs.user_cache_path("memgraph-neo4j", appauthor=False) / "copies"


@dataclass(init=False)
class Settings:
    """Keyword arguments, else the environment's MEMGRAPH_<FIELD> (any case), else the defaults below.

    A plain dataclass, not pydantic-settings' BaseSettings: importing that and building one cost the
    one-shot CLI ~90 ms more than pydantic's BaseModel alone.
    """

    # Local Neo4j launcher
    home: Path = field(default_factory=_default_home)  # per-user data dir: assembled Neo4j, data, logs
    instance: Path | None = None  # instance dir (conf, data, logs); default home/instance
    bolt_port: int = 7687
    http_port: int = 7474
    # 2g: with 1g the JVM stopped with OutOfMemoryError (exit code 3, -XX:+ExitOnOutOfMemoryError)
    # while GDS built a projection beside ~20 others held in its catalog (3 memories x the evaluation's
    # configurations, or a test session's spaces); 2g + 512m page cache is still ~3 GB of this 24 GB machine
    heap: str = "2g"
    pagecache: str = "512m"
    start_timeout: float = 180.0
    # Maven assembles the server: "auto" = `mvn` on PATH, else Apache Maven fetched from the repository
    # below into home/dist; "fetch" = always the fetched one
    maven: Literal["auto", "fetch"] = "auto"
    maven_repository: str = "https://repo1.maven.org/maven2"  # Maven Central or a mirror of it
    # Connection (NEO4J_* environment variables take precedence, see connection())
    database: str = "neo4j"
    # Embeddings
    embedding_dimension: int = 384
    # Chat model for `ask` and the openai extractor (OPENAI_API_KEY / OPENAI_BASE_URL as usual)
    llm_model: str = "gpt-4o-mini"
    # its seconds per call and retries after a failed one, in ingest's agents (None: 60 s; 3, adjudication 2)
    llm_timeout: float | None = None
    llm_retries: int | None = None
    # Personalised PageRank: "local" (in process on an exported copy of the projection; pays ~1 s per
    # memory version, then ~7 ms per query), "gds" (gds.pageRank.stream, the reference; no export,
    # what one-shot commands use) or "client" (through the graphdatascience client)
    ppr_engine: Literal["local", "gds", "client"] = "local"
    # Top-K facts, schemas, passages and BM25: "local" (exact, in process; reads the space once per
    # memory version, then ~3 ms per query) or "index" (the Neo4j vector and fulltext indexes)
    layer_search: Literal["local", "index"] = "local"
    # The memory service (`memgraph-neo4j serve`, service/): where it listens; its job spool (uploads and job
    # states, what a restart resumes; default home/service); the largest upload and JSON body it takes
    service_host: str = "127.0.0.1"
    service_port: int = 8770
    service_dir: Path | None = None
    service_max_upload_mb: int = 256
    service_max_body_mb: int = 16
    # The CLI as the service's client: query, ask, ingest, conflicts and documents go to this URL when set
    # (http://127.0.0.1:8770), sending MEMGRAPH_SERVICE_TOKEN as the bearer token
    service_url: str | None = None
    service_token: str | None = None

    def __init__(self, **values: Any) -> None:
        kinds = typing.get_type_hints(Settings)
        unknown = values.keys() - kinds.keys()
        if unknown:
            raise TypeError(f"Settings() got unknown settings: {', '.join(sorted(unknown))}")
        # case-insensitive, as pydantic-settings matched (case_sensitive=False lowers the names)
        env = {key.lower(): value for key, value in os.environ.items()}
        explicit = {name for name in kinds if name in values or (ENV_PREFIX + name).lower() in env}
        for f in fields(self):
            if f.name in values:
                value = convert(f.name, values[f.name], kinds[f.name])
                if value is not None:
                    check(f.name, f.name, value, values[f.name])
            elif f.name in explicit:
                variable = ENV_PREFIX + f.name.upper()
                value = convert(variable, env[variable.lower()], kinds[f.name])
                check(f.name, variable, value, env[variable.lower()])
            else:
                value = f.default if f.default_factory is MISSING else f.default_factory()
            setattr(self, f.name, value)
        # the fields a keyword argument or the environment set (pydantic's model_fields_set)
        self.explicit: frozenset[str] = frozenset(explicit)

    def retrieval_config(self, **overrides: Any) -> RetrievalConfig:
        """The retrieval configuration these settings select; `None` overrides are ignored."""
        chosen = {"ppr_engine": self.ppr_engine, "layer_search": self.layer_search}
        chosen.update({k: v for k, v in overrides.items() if v is not None})
        return RetrievalConfig(**chosen)


@dataclass(frozen=True, kw_only=True)
class Connection:
    """Where the library connects: the caller says (server/connection.py reads NEO4J_URI/NEO4J_USERNAME/
    NEO4J_PASSWORD); nothing here reads the environment."""

    uri: str
    username: str = "neo4j"
    password: str = field(repr=False)  # never in a repr, a log line or a traceback's locals
    database: str = "neo4j"


@dataclass
class MemoryConfig:
    merge_threshold: float = 0.9  # cosine above which two names of compatible type are one entity
    # and only with agreeing evidence (memory/resolve.py): one value, or shared context (a document, a
    # neighbour); False merges on the embedding and the stated values alone (MuSiQue offline: 266 merged
    # entities, among them "University of Texas" with "University of North Texas")
    merge_evidence: bool = True
    resolution: str = "merge"  # "merge" | "link" (SAME_AS edges instead of merging)
    bridge_threshold: float = 0.8  # [0.8] similarity edges between entities
    bridge_k: int = 10  # nearest neighbours considered per entity
    # Resolution and bridging (and adjudication's candidates by meaning, over the facts) search a space of
    # at most this many entities (facts) exactly in process
    # (memory/neighbours.py: <1 ms per name instead of 13-14 ms per filtered HNSW search at 29k
    # entities); 0 uses the server's vector index. ~1.6 KB held per entity with MiniLM.
    exact_neighbours_max: int = 200_000
    # Larger spaces: an inverted-file copy in process (faiss IVF, approximate like the server's HNSW;
    # 0.7 ms per name at 987k entities against 14.8 ms for the exact product), or False: the server's index
    approximate_neighbours: bool = True
    # Ingest with an extractor that does not read the guide (offline, replayed triples) runs its stages
    # side by side: parsing batch n+2, embedding batch n+1, writing batch n (ingest/pipeline.py). False:
    # one stage at a time, the reference the staged run is tested against.
    overlap_stages: bool = True


EntityWeighting = Literal["mean", "hipporag"]


@dataclass(frozen=True)
class SeedConfig:
    """Switches for the PageRank seeds (retrieval/seeds.py); defaults = best measured on MuSiQue.

    Calibration (shared/notes/retrieval-calibration.md, MuSiQue): the HippoRAG-2 entity weighting beat
    eq. 6 by 3.6 pts R@5, the schema filter cost 8-10 pts on encyclopaedic text, and hub suppression /
    density changed no top-5 result at alpha = 0.05. `SeedConfig.paper()` is the paper as written.
    schema_filter decides which facts and schemas are fetched (active facts / stable schemas only);
    seeds of the same hits do not depend on it.
    """

    schema_filter: bool = False
    hub_suppression: bool = True  # eq. 7's 1/log(deg+1); False -> factor 1
    density: bool = True  # eq. 8's sigma term; False -> sim x alpha
    entity_weighting: EntityWeighting = "hipporag"  # "mean" = eq. 6
    alpha: float = 0.05  # passage seed scale
    fact_threshold: float = 0.6  # tau_q: facts with similarity <= tau_q are dropped (memgraphrag)
    schema_threshold: float = 0.0  # schemas with relevance <= this are dropped (not calibrated yet)
    # strongest facts kept (after the threshold, for memgraphrag); None = all of the FACTS_READ read
    top_k_facts: int | None = 5
    normalise_passage_scores: bool = False  # True -> min-max the passage sims first (HippoRAG 2)
    # entities the question names (retrieval/question_entities.py) seed like the entity of a fact
    # that matched perfectly: weight x 1/#passages. 0 = no lexical route (the paper has none).
    # +5.3 R@5 / +4.1 R@2 on MuSiQue, +4.4 / +1.5 on MuSiQue with the offline extractor, +1.5 / +5.5
    # on HotpotQA (benchmarks/results/tuning)
    named_entity_weight: float = 1.0
    # passages whose title the question names seed with this weight (a title names one passage: 1/1).
    # 0 = off. +7.0 R@2 / +2.5 R@5 on HotpotQA, +3.0 / +1.5 on MuSiQue offline, -0.1 / +0.7 on MuSiQue
    title_weight: float = 1.0

    def __post_init__(self) -> None:
        if self.entity_weighting not in ("mean", "hipporag"):
            raise ValueError(f"entity_weighting must be 'mean' or 'hipporag', not {self.entity_weighting!r}")
        if self.alpha < 0:
            raise ValueError(f"alpha must be >= 0, not {self.alpha}")
        for name in ("named_entity_weight", "title_weight"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, not {getattr(self, name)}")
        if self.top_k_facts is not None and self.top_k_facts < 1:
            raise ValueError(f"top_k_facts must be >= 1 or None, not {self.top_k_facts}")

    @classmethod
    def paper(cls) -> SeedConfig:
        """Paper-faithful: eq. 6 mean entity weights and the schema filter on, no names from the question."""
        return cls(schema_filter=True, entity_weighting="mean", named_entity_weight=0.0, title_weight=0.0)


PPR_ENGINES = ("gds", "local", "client")
LAYER_SEARCHES = ("index", "local")
FUSIONS = ("shares", "none")
FUSION_STOP_WORDS = ("function", "nltk", None)


@dataclass
class RetrievalConfig:
    top_k_schemas: int = 10
    top_n_passages: int = 50  # dense passage scores used as passage seeds
    damping: float = 0.5  # probability of following an edge: restart probability 0.5 (eq. 20, λ = 0.5)
    iterations: int = 20  # with restart 0.5 the residual after 20 steps is ~0.5^20 = 1e-6
    tolerance: float = 1e-7
    concurrency: int = 1  # measured fastest per query on 2 cores (the open edition allows <= 4)
    # "gds": gds.pageRank.stream on the named projection (the reference). "local": the same
    # iteration in process on a copy of that projection, exported once per memory version.
    # "client": through a graphdatascience client (see retrieval/ppr/).
    # The default is "local": a long-lived MemoryGraph answers in ~20 ms instead of ~90 (one export per
    # memory version, ~1 s on MuSiQue); one-shot processes (the CLI's `query`) choose "gds".
    ppr_engine: str = "local"
    # the local engine on projections of at least this many relationship entries pushes instead of
    # iterating (retrieval/ppr/push.py): one iteration step costs ~3 ms per 1M entries, so 20 steps
    # pass a 30 ms budget from ~0.5M; at 6.5M (100k passages) 372 ms against ~35 ms pushed
    push_min_relationships: int = 1_000_000
    # push stops where each node's residual is below push_epsilon·(seed mass)·(its weighted degree): a
    # passage of 50 mentions ends within 5e-7 of the fixed point per unit of seed mass, as the
    # 20-step iteration does
    push_epsilon: float = 1e-8
    # "index": top-K facts, schemas and passages from the Neo4j vector indexes (HNSW, approximate), and
    # BM25 from the Lucene fulltext index. "local": exact cosine top-K in process over the space's
    # vectors and BM25 with the space's own statistics, read once per memory version
    # (retrieval/layers.py, retrieval/bm25_index.py); spaces with more than snapshot_max_vectors use
    # the indexes.
    layer_search: str = "local"
    # memgraphrag's last step (retrieval/fusion.py): "shares" adds each route's (PageRank, BM25)
    # share of its own evidence; "none" returns the PageRank order (the paper)
    fusion: str = "shares"
    # words the fusion's BM25 drops from the question (retrieval/stopwords.py): "function" (articles,
    # prepositions, question words, auxiliaries, pronouns), "nltk" (NLTK's English list) or None (none).
    # Function words match nearly every passage: they add to BM25's total without telling passages apart
    # and dilute its shares, and they hide how sure BM25 is of its best passages (fusion_confidence_top)
    fusion_stop_words: str | None = "function"
    # n > 0: each route's shares weighted per question by the share of its total its n best passages hold
    # (retrieval/fusion.py); 0: equal weights. With both switches the novel went 0.315 / 0.416 -> 0.325 /
    # 0.439 (BM25 0.315 / 0.435), the other three memories within 0.5 points (tuning/fusion-eval.md)
    fusion_confidence_top: int = 5
    snapshot_max_vectors: int = 200_000  # ~1.6 KB each held with MiniLM (384 float32 + ids, texts)
    over_fetch: int = 3  # vector hits asked per result wanted, before filtering by space and state
    # vector hits asked per layer at least: the HNSW search is approximate and searches wider for a
    # larger k; with 30 instead of 100, 17 of 100 MuSiQue questions got a different top-10 of schemas
    min_fetch: int = 100
    ppr_candidates: int = 300  # best-scored nodes resolved per GDS call; more only if they hold too few
    # seed statistics are held in memory per memory version up to this many passage mentions
    # (measured 120 bytes each held, 220 at peak); beyond, each query reads those of its hits
    # (~10 ms more per query on MuSiQue, 22 ms at 100k passages / 1.35M mentions against 1.7 ms held)
    snapshot_max_mentions: int = 3_000_000
    # edge weight of pending facts in the projection; None: 0 with the schema filter, else 1
    pending_weight: float | None = None
    type_weight: float = 1.0  # entity-type edges
    # edge weight of a `co_occurs_with` fact (two names in one sentence, no relation found): the offline
    # extractor's fallback edge must not count as much as a stated relation
    co_occurrence_weight: float = 0.5
    # False: the "no adjudication" ablation, facts with a verdict (discarded, superseded, ...) are used
    adjudication: bool = True
    # True: what a graph search reads without the query vector (memory version, the question's names, the
    # fusion's BM25) runs on a reader thread while the question is embedded (ONNX Runtime releases the
    # GIL); False: one after the other, in the caller's thread. Same results either way (retrieval/context.py)
    concurrent_reads: bool = True
    # the copies above kept on disk, so that a new process loads them and reads only what changed since
    # (retrieval/persisted.py): first search at 18.9k passages ~60 s read from Neo4j; None: not kept
    copies_dir: Path | None = field(default_factory=default_copies_dir)
    # a copy is written after a whole read only when that read took this long (small spaces read faster
    # than a file is worth keeping); after catch-ups, when the process closes its MemoryGraph
    persist_min_build_s: float = 1.0
    seeds: SeedConfig = field(default_factory=SeedConfig)

    def __post_init__(self) -> None:
        if self.ppr_engine not in PPR_ENGINES:
            raise ValueError(f"ppr_engine must be one of {', '.join(PPR_ENGINES)}, not {self.ppr_engine!r}")
        if self.fusion not in FUSIONS:
            raise ValueError(f"fusion must be one of {', '.join(FUSIONS)}, not {self.fusion!r}")
        if self.layer_search not in LAYER_SEARCHES:
            raise ValueError(f"layer_search must be one of {', '.join(LAYER_SEARCHES)}, not {self.layer_search!r}")
        if not 0 < self.push_epsilon < 1:
            raise ValueError(f"push_epsilon must be in (0, 1), not {self.push_epsilon}")
        if self.push_min_relationships < 0:
            raise ValueError(f"push_min_relationships must be >= 0, not {self.push_min_relationships}")
        if not 0 < self.damping < 1:
            raise ValueError(f"damping must be in (0, 1), not {self.damping}")
        if not 0 <= self.co_occurrence_weight <= 1:
            raise ValueError(f"co_occurrence_weight must be in [0, 1], not {self.co_occurrence_weight}")
        if self.fusion_stop_words not in FUSION_STOP_WORDS:
            raise ValueError(f"fusion_stop_words must be one of {FUSION_STOP_WORDS}, not {self.fusion_stop_words!r}")
        if self.fusion_confidence_top < 0:
            raise ValueError(f"fusion_confidence_top must be >= 0, not {self.fusion_confidence_top}")
        for name in ("ppr_candidates", "over_fetch", "min_fetch", "iterations"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, not {getattr(self, name)}")

    @property
    def effective_pending_weight(self) -> float:
        if self.pending_weight is not None:
            return self.pending_weight
        return 0.0 if self.seeds.schema_filter else 1.0


@dataclass(frozen=True)
class AdjudicationConfig:
    """Conflict detection and resolution (paper §4.2.2). [Brackets]: the paper authors' code defaults."""

    similarity: float = 0.9  # δ: facts this similar (cosine of fact embeddings) are candidates
    max_candidates: int = 20  # [20] candidates per newly active fact
    evidence_per_fact: int = 2  # [2] passages shown per fact
    evidence_chars: int = 1200  # [1,200] characters per passage shown
    min_confidence: float = 0.85  # [0.85] classifications below this are ignored
    max_group: int = 20  # [≤ 20] facts per resolution call; larger groups are split
    containment_hops: int = 3  # part_of / located_in steps that still make two values one answer
    max_retries: int = 2  # failed model calls and replies that fail validation are asked again, then recorded
    backoff: float = 0.5  # seconds before the first retry, doubling (the extraction's llm/resilience.with_retries)
    batch: int = 500  # newly active facts scanned per statement

    def __post_init__(self) -> None:
        if not 0 < self.similarity <= 1:
            raise ValueError(f"similarity must be in (0, 1], not {self.similarity}")
        if not 0 <= self.min_confidence <= 1:
            raise ValueError(f"min_confidence must be in [0, 1], not {self.min_confidence}")
        if self.backoff < 0:
            raise ValueError(f"backoff must be >= 0 seconds, not {self.backoff}")
        for name in ("max_candidates", "evidence_per_fact", "max_group", "containment_hops", "batch"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, not {getattr(self, name)}")
