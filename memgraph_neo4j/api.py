"""`MemoryGraph`: the Python entry point to one memory space in Neo4j."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memgraph_neo4j.config import AdjudicationConfig, MemoryConfig, RetrievalConfig, Settings
from memgraph_neo4j.memory.lease import leased
from memgraph_neo4j.repository.ids import IdRepository
from memgraph_neo4j.repository.stats import StatsRepository
from memgraph_neo4j.retrieval import RetrievalContext, RetrievalResult, Retriever, make_retriever
from memgraph_neo4j.server.connection import open_store
from memgraph_neo4j.store import GraphStore
from memgraph_neo4j.store.schema_state import schema_current
from memgraph_neo4j.validation import check_adjudicator, check_batch_size, check_question, check_space, check_top_k

# Imported where used, as are extractors (with the ontology's YAML), readers, the writer, answering and the
# other repositories: a one-shot `query` needs none of them (~0.25 s of imports, then ~0.1 s more of these).
if TYPE_CHECKING:
    from memgraph_neo4j.adjudication import ConflictReview
    from memgraph_neo4j.contracts import AdjudicationReport, Extractor
    from memgraph_neo4j.ingest.episodes import Conversation
    from memgraph_neo4j.ingest.pipeline import IngestReport
    from memgraph_neo4j.llm.chat import ChatClient
    from memgraph_neo4j.memory.categories import CategoryConfig, HierarchyReport
    from memgraph_neo4j.memory.ontology import Ontology
    from memgraph_neo4j.memory.retract import RetractionReport
    from memgraph_neo4j.memory.unmerge import UnmergeReport
    from memgraph_neo4j.memory.writer import MemoryWriter
    from memgraph_neo4j.repository.categories import CategoryNode
    from memgraph_neo4j.repository.conversation import TimedFact
    from memgraph_neo4j.repository.documents import DocumentSummary, SpaceSummary
    from memgraph_neo4j.repository.export import ExportReport, Format
    from memgraph_neo4j.repository.provenance import FactProvenance, PassageSource
    from memgraph_neo4j.retrieval.answer import Answer


def __getattr__(name: str) -> Any:
    """`make_extractor`, still importable from here (imported on first use)."""
    if name == "make_extractor":
        from memgraph_neo4j.extractors.factory import make_extractor

        return make_extractor
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class MemoryGraph:
    """One memory space: ingest, promote, stats, search and ask."""

    def __init__(self, space: str = "default", store: GraphStore | None = None,
                 ontology: Ontology | str | Path | None = None, embedder: Any = "minilm",
                 extractor: Extractor | str = "offline", config: MemoryConfig | None = None,
                 settings: Settings | None = None, retrieval: RetrievalConfig | None = None,
                 adjudication: AdjudicationConfig | bool = True, adjudication_chat: ChatClient | None = None,
                 adjudicator: str = "auto", **extractor_options: Any) -> None:
        """`adjudication`: check newly active facts for conflicts after every promotion (False: never;
        `adjudicate()` still runs on request); `adjudicator`: "auto" (the chat model's detection and resolution
        agents whenever there is one: `adjudication_chat`, else an LLM extractor's), "rules" or "model"."""
        check_space(space)
        check_adjudicator(adjudicator)
        self.settings = settings or Settings()
        self.space = space
        self._own_store = store is None
        self.store = store or open_store(self.settings)
        self._ontology_source = ontology  # the ontology, writer and adjudicator: built on first use (below)
        if isinstance(embedder, str):
            from memgraph_neo4j.embeddings import make_embedder

            embedder = make_embedder(embedder)
        self.embedder = embedder
        # The offline extractor loads spaCy (seconds): built on first use, so that a one-shot search never
        # pays for it. The others are built now, so that bad options fail here.
        self._extractor: Extractor | None = extractor if not isinstance(extractor, str) else None
        self._extractor_options = (extractor, extractor_options)
        if isinstance(extractor, str) and extractor != "offline":
            from memgraph_neo4j.extractors.factory import llm_options, make_extractor

            self._extractor = make_extractor(extractor, self.ontology, self.embedder,  # MEMGRAPH_LLM_* unless given
                                             **{**llm_options(self.settings, extractor), **extractor_options})
        self._memory_config, self._adjudication = config, (adjudication, adjudication_chat, adjudicator)
        self._check_on_ingest = adjudication is not False
        self._schema_ready = False
        self.retrieval_config = retrieval
        self._retrieval: RetrievalContext | None = None
        self._retrievers: dict[str, Retriever] = {}

    # A search needs none of these: a one-shot `query` does not parse the ontology or build the agents.
    @cached_property
    def ontology(self) -> Ontology:
        from memgraph_neo4j.memory.ontology import Ontology, load_ontology

        source = self._ontology_source
        return source if isinstance(source, Ontology) else load_ontology(source)

    @cached_property
    def writer(self) -> MemoryWriter:
        from memgraph_neo4j.memory.writer import MemoryWriter

        return MemoryWriter(self.store, self.space, self.ontology, self.embedder, self._memory_config)

    @cached_property
    def adjudicator(self):
        from memgraph_neo4j.adjudication import adjudication_chat, agent_config, make_adjudicator

        adjudication, chat, mode = self._adjudication
        return make_adjudicator(self.store, self.space, self.ontology, adjudication_chat(mode, chat, self._extractor),
                                agent_config(adjudication, self.settings), self.writer.fact_vectors)

    @cached_property
    def conflicts(self) -> ConflictReview:
        from memgraph_neo4j.adjudication import ConflictReview

        return ConflictReview(self.adjudicator.repository)

    @property
    def extractor(self) -> Extractor:
        if self._extractor is None:
            from memgraph_neo4j.extractors.factory import make_extractor

            name, options = self._extractor_options
            self._extractor = make_extractor(name, self.ontology, self.embedder, **options)
        return self._extractor

    @extractor.setter
    def extractor(self, extractor: Extractor) -> None:
        self._extractor = extractor

    def close(self) -> None:
        if self._retrieval is not None:
            self._retrieval.close()  # its reader threads
        if self._own_store:
            self.store.close()

    def __enter__(self) -> MemoryGraph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def init(self) -> None:
        if not self._schema_ready:
            dimension = getattr(self.embedder, "dimension", self.settings.embedding_dimension)
            # one read, not ~20 statements, when nothing is missing; it checks the vector indexes' dimension too
            if not schema_current(self.store, dimension):
                from memgraph_neo4j.memory import alias_keys, title_keys

                self.store.init_schema(dimension)
                title_keys.backfill_title_keys(self.store)  # a database made before the title key index: once
                alias_keys.fold_alias_keys(self.store)  # one made before Entity.key: own names off Alias nodes
            self._schema_ready = True

    def ingest(self, sources, extractor: Extractor | None = None, batch_size: int = 64, guided: bool = True,
               dry_run: bool = False, progress: bool = True, on_batch=None) -> IngestReport:
        """Files, folders, texts or Documents -> passages, facts, entities; promotion, `on_batch(report, chunks)`."""
        check_batch_size(batch_size)
        self.init()
        from memgraph_neo4j.ingest.pipeline import ingest_documents
        from memgraph_neo4j.ingest.sources import documents_of

        return ingest_documents(self.writer, documents_of(sources), extractor or self.extractor,
                                batch_size=batch_size, guided=guided, dry_run=dry_run, progress=progress,
                                checker=self.adjudicator if self._check_on_ingest else None, on_batch=on_batch)

    def ingest_conversations(self, conversations: Iterable[Conversation] | Iterable[dict] | str | Path,
                             batch_size: int = 64, extract: bool = True, changing_relations: Iterable[str] = (),
                             categorise: ChatClient | bool = False) -> IngestReport:
        """Conversations (or a JSON-lines chat file, or its records as dicts: ingest/episodes.py) as Episode passages
        with speaker, session and time; facts get valid_at / invalid_at. `changing_relations`: relations with one value
        per head at a time besides the ontology's functional ones ("lives_in"). `categorise`: `categorise()` after."""
        from memgraph_neo4j.ingest.episodes import conversations_of, ingest_conversations

        check_batch_size(batch_size)
        self.init()
        conversations = conversations_of(conversations)
        report = ingest_conversations(self.writer, conversations, self.extractor, batch_size=batch_size,
                                      checker=self.adjudicator if self._check_on_ingest else None, extract=extract,
                                      changing_relations=changing_relations)
        if categorise:
            hierarchy = self.categorise(chat=None if categorise is True else categorise)
            report.usage = report.usage + hierarchy.usage
        return report

    def facts(self, as_of=None, entity_ids: Iterable[str] | None = None, relation: str | None = None,
              limit: int = 1000) -> list[TimedFact]:
        """Facts (active or pending, no verdict) valid at `as_of` (a datetime or date text; default: now), from
        documents and conversations (valid_at <= as_of < invalid_at, memory/timespan.py; a temporal verdict agrees)."""
        from memgraph_neo4j.memory.validity import VALIDITY_STATES, parse_time
        from memgraph_neo4j.repository.conversation import ConversationRepository

        when = parse_time(as_of) if as_of is not None else None
        if as_of is not None and when is None:
            raise ValueError(f"as_of {as_of!r}: not a date or time")
        return ConversationRepository(self.store, self.space).facts_as_of(
            when, VALIDITY_STATES, None if entity_ids is None else list(entity_ids), relation, limit)

    def adjudicate(self, rescan_all: bool = False, progress: bool = False) -> AdjudicationReport:
        """Check the facts that became active since the last check (every active fact with `rescan_all`)
        for conflicts, resolve what the rules or the model settle, leave the rest for review (`conflicts`)."""
        return self.adjudicator.run(rescan_all=rescan_all, progress=progress)

    @property
    def retrieval(self) -> RetrievalContext:
        """What the retrieval methods of this space share (caches, projection, PPR engine)."""
        if self._retrieval is None:
            self.init()  # a database made by an older version gets the indexes retrieval searches
            config = self.retrieval_config or self.settings.retrieval_config()
            self._retrieval = RetrievalContext(self.store, self.space, self.embedder, config)
        return self._retrieval

    def retriever(self, method: str = "memgraphrag") -> Retriever:
        """The retriever of one method (dense, bm25, hipporag2, memgraphrag) on this space."""
        if method not in self._retrievers:
            self._retrievers[method] = make_retriever(method, self.retrieval)
        return self._retrievers[method]

    def search(self, question: str, method: str = "memgraphrag", top_k: int = 5, top_m: int = 10,
               as_of=None, mode: str | None = None, chat: ChatClient | None = None) -> RetrievalResult:
        """Top-k passages (and top-m entities, seeding facts and schemas) with per-stage timings.
        `as_of` (hybrid and dual; other methods raise): the facts valid then, the episodes said by then. `mode="dual"`
        (or method "dual"): System-1 hybrid search ∪ System-2 Global Selection over the category hierarchy, fused by
        RRF (retrieval/dual.py); `chat` selects (default: the adjudication model, else OpenAIChat from the env)."""
        check_question(question)
        check_top_k(top_k, top_m)
        if mode is not None and mode not in ("dual", "system1"):
            raise ValueError(f"mode must be 'dual' or 'system1', not {mode!r}")
        method = {"dual": "dual", "system1": "hybrid"}.get(mode, method)
        if method == "dual":
            from memgraph_neo4j.retrieval.dual import DualRetriever

            retriever = DualRetriever(self.retrieval, chat=self._chat(chat))
        else:
            retriever = self.retriever(method)
        if as_of is None:
            return retriever.search(question, top_k=top_k, top_m=top_m)
        from memgraph_neo4j.memory.timespan import parse_time

        if (when := parse_time(as_of)) is None:
            raise ValueError(f"as_of {as_of!r}: not a date or time")
        if not (method.startswith("hybrid") or method == "dual"):  # passage rankers read no validity
            raise ValueError(f"as_of needs a hybrid or dual method (facts valid then), not {method!r}")
        return retriever.search(question, top_k=top_k, top_m=top_m, as_of=when)

    def _chat(self, chat: ChatClient | None) -> ChatClient | None:
        if chat is not None or self._adjudication[1] is not None:
            return chat or self._adjudication[1]
        from memgraph_neo4j.llm.chat import chat_from_environment

        return chat_from_environment(self.settings.llm_model, self.settings.llm_timeout)

    @leased
    def categorise(self, chat: ChatClient | None = None, rebuild: bool = False,
                   config: CategoryConfig | None = None) -> HierarchyReport:
        """The category hierarchy over the entities (memory/categories.py): built bottom-up the first time (or with
        `rebuild`), then updated with the entities not yet in a category, their branches only. `chat`: as `search`'s."""
        model = self._chat(chat)
        if model is None:
            raise ValueError("categorising needs a chat model: pass chat=..., or set OPENAI_API_KEY or OPENAI_BASE_URL")
        from memgraph_neo4j.extractors.categories import ModelCategoriser
        from memgraph_neo4j.memory.categories import CategoryHierarchy
        from memgraph_neo4j.repository.categories import CategoryRepository

        hierarchy = CategoryHierarchy(CategoryRepository(self.store, self.space), ModelCategoriser(model), config)
        return hierarchy.build(rebuild=rebuild)

    def categories(self) -> list[CategoryNode]:
        """The category hierarchy, top layer first, with members and parents."""
        from memgraph_neo4j.repository.categories import CategoryRepository

        return CategoryRepository(self.store, self.space).hierarchy()

    def ask(self, question: str, chat: ChatClient | None = None, method: str = "memgraphrag",
            top_k: int = 5) -> Answer:
        """Answer from the retrieved passages and the top entities' active facts, with citations.
        `chat`: an llm.ChatClient (OpenAIChat, LangChainChat); default: OpenAIChat from the environment (OPENAI_API_KEY
        or OPENAI_BASE_URL, model MEMGRAPH_LLM_MODEL); else extractive (`answer_extractive`, `Answer.extractive`)."""
        check_question(question)
        check_top_k(top_k)
        if chat is None:
            from memgraph_neo4j.llm.chat import chat_from_environment

            chat = chat_from_environment(self.settings.llm_model, self.settings.llm_timeout)
            if chat is None:
                return self.answer_extractive(question, method=method, top_k=top_k)
        from memgraph_neo4j.retrieval.answer import ask

        return ask(self.retriever(method), chat, question, top_k=top_k, facts_of=self.retrieval.search.facts_of)

    def answer_extractive(self, question: str, method: str = "memgraphrag", top_k: int = 5,
                          max_sentences: int = 3) -> Answer:
        """Answer without a chat model: the sentences of the retrieved passages that best support the
        question (MiniLM similarity, shared words, top entities), each citing its passage."""
        check_question(question)
        check_top_k(top_k)
        from memgraph_neo4j.retrieval.extractive import answer_extractive

        return answer_extractive(self.retriever(method), self.embedder, question, top_k=top_k,
                                 facts_of=self.retrieval.search.facts_of, max_sentences=max_sentences)

    @leased
    def promote(self) -> tuple[int, int]:
        """Recount every schema's support, promote, activate: (schemas promoted, facts activated)."""
        return self.writer.promote(full=True)

    def entity_ids(self, names: Iterable[str]) -> dict[str, str | None]:
        """The entity each name resolved to (by its normalised form, as ingest resolves it), None if unknown:
        two names with one id were merged by entity resolution."""
        from memgraph_neo4j.memory.normalize import normalize_entity_name
        from memgraph_neo4j.repository.entities import EntityRepository

        keys = {name: normalize_entity_name(name) for name in names}
        found = {hit.key: hit.entity_id for hit in EntityRepository(self.store, self.space).lookup_aliases(
            sorted(set(keys.values())))}
        return {name: found.get(key) for name, key in keys.items()}

    def exists(self) -> bool:
        return StatsRepository(self.store, self.space).exists()  # whether this space holds anything yet

    def stats(self) -> dict:  # counts per label and state, conflicts by status, failed chunks, usage
        return StatsRepository(self.store, self.space).memory_stats().model_dump()

    def provenance(self, fact_id: str, passages: int = 20) -> FactProvenance:
        """Where a fact (its id or a unique prefix, repository/ids.py) comes from: evidence passages (text, title,
        document), schema, state, lineage, conflicts. At most `passages` passages; `evidence_count` has them all."""
        fact_id = IdRepository(self.store, self.space).resolve("fact", fact_id)
        return self.provenances([fact_id], passages)[fact_id]  # it exists: facts are never deleted, only spaces

    def provenances(self, fact_ids: Iterable[str], passages: int = 3, chars: int = 2000) -> dict[str, FactProvenance]:
        """`provenance` of several facts at once, by id (ids not in the space are left out)."""
        from memgraph_neo4j.repository.provenance import ProvenanceRepository

        return ProvenanceRepository(self.store, self.space).facts(list(fact_ids), passages, chars)

    def passage_sources(self, passage_ids: Iterable[str], facts: int = 0) -> dict[str, PassageSource]:
        """The document of each passage, by passage id; with `facts`, up to that many facts it evidences (any state,
        active first) with their conflicts: the verdicts proposed or applied, the other facts (PassageFact)."""
        from memgraph_neo4j.repository.provenance import ProvenanceRepository

        return ProvenanceRepository(self.store, self.space).passages(list(passage_ids), facts)

    # ----- documents, spaces, export ---------------------------------------------------------
    def documents(self, limit: int | None = None, skip: int = 0, source: str | None = None) -> list[DocumentSummary]:
        """The space's documents in ingest order: id, title, source, passages, facts, when ingested. With `source`: only
        those whose source starts with it, each with the metadata it was ingested with (SourcedDocument)."""
        from memgraph_neo4j.repository.documents import DocumentRepository

        return DocumentRepository(self.store, self.space).list(limit, skip, source)[1]

    @leased
    def retract(self, doc_ids: str | Iterable[str]) -> RetractionReport:
        """Forget documents (ids or unique prefixes, memory/retract.py), then check conflicts again, under the space's
        lease; ingesting them restores them. An unknown id raises a ValueError first; rerun one that died half-way."""
        return self._checked(self.writer.retract([doc_ids] if isinstance(doc_ids, str) else list(doc_ids)))

    @leased
    def unmerge(self, name: str) -> UnmergeReport:
        """Undo a name's similarity merge (memory/unmerge.py), then check conflicts; ValueError if none is recorded."""
        return self._checked(self.writer.unmerge(name))

    def _checked(self, report):  # the conflict check after a retraction or an unmerge (adjudication on)
        report.adjudication = self.adjudicate() if self._check_on_ingest else None
        return report

    def delete(self) -> list[str]:
        """Delete this space and its PPR projections (returns their names) under its ingest lease: waits for
        a running ingest, an ingest started meanwhile waits for it; rerun one that died (memory/lease.py)."""
        from memgraph_neo4j.memory.lease import delete_space
        from memgraph_neo4j.retrieval.projection import space_graphs

        dropped = delete_space(self.store, self.space, space_graphs(self.space)).dropped
        for cached in ("writer", "adjudicator", "conflicts"):  # their copies of the space's vectors went too
            self.__dict__.pop(cached, None)
        if self._retrieval is not None:
            self._retrieval.close(persist=False)  # its copies (and their files) are of the space deleted
        self._retrieval, self._retrievers = None, {}
        return dropped

    def spaces(self) -> list[SpaceSummary]:
        """Every memory space of the database (not only this one), with its counts."""
        from memgraph_neo4j.repository.documents import list_spaces

        return list_spaces(self.store)

    def export(self, path: str | Path, format: Format = "jsonl", with_embeddings: bool = False) -> ExportReport:
        """Write the space's nodes and relationships to `path` as JSON lines or GraphML, streamed
        (repository/export.py); embedding vectors only with `with_embeddings`."""
        from memgraph_neo4j.repository.export import ExportRepository

        return ExportRepository(self.store, self.space).export(path, format, with_embeddings)

    def analytics(self, name: str, limit: int = 50) -> list[dict]:
        """One query of the Cypher analytics pack (cypher/analytics/, `repository.analytics.QUERIES`: schema_frequency,
        promotion_history, entity_degree, entity_pagerank, facts_per_passage, conflict_statistics, entity_merges,
        facts_without_evidence) as dicts, at most `limit` rows where it applies."""
        from memgraph_neo4j.repository.analytics import AnalyticsRepository

        return AnalyticsRepository(self.store, self.space).run(name, limit)
