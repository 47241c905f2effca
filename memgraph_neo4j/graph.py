"""`MemoryGraph`: the Python entry point to one memory space in Neo4j."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from memgraph_neo4j.agents.base import Extractor
from memgraph_neo4j.ingest.pipeline import IngestReport, ingest_documents
from memgraph_neo4j.ingest.readers import Document, read_path
from memgraph_neo4j.memory.ontology import Ontology, load_ontology
from memgraph_neo4j.memory.writer import MemoryConfig, MemoryWriter
from memgraph_neo4j.settings import Settings
from memgraph_neo4j.store import GraphStore

EXTRACTORS = ("offline", "openai", "langchain", "openie")


def _documents(sources: Iterable[str | Path | Document] | str | Path | Document) -> list[Document]:
    if isinstance(sources, (str, Path, Document)):
        sources = [sources]
    docs: list[Document] = []
    for source in sources:
        if isinstance(source, Document):
            docs.append(source)
        elif isinstance(source, Path) or (isinstance(source, str) and "\n" not in source and Path(source).exists()):
            docs.extend(read_path(source))
        elif isinstance(source, str):
            docs.append(Document(text=source, source="text"))
        else:
            raise TypeError(f"cannot ingest {type(source).__name__}: give paths, texts or Document objects")
    return docs


class MemoryGraph:
    """One memory space: ingest, promote, stats (retrieval lands in `search` / `ask`)."""

    def __init__(self, space: str = "default", store: GraphStore | None = None,
                 ontology: Ontology | str | Path | None = None, embedder: Any = "minilm",
                 extractor: Extractor | str = "offline", config: MemoryConfig | None = None,
                 settings: Settings | None = None, retrieval: Any = None, **extractor_options: Any) -> None:
        if not space or not space.replace("_", "").replace("-", "").isalnum():
            raise ValueError(f"space {space!r}: use letters, digits, '-' and '_' only")
        self.settings = settings or Settings()
        self.space = space
        self._own_store = store is None
        self.store = store or GraphStore.connect(settings=self.settings)
        self.ontology = ontology if isinstance(ontology, Ontology) else load_ontology(ontology)
        if isinstance(embedder, str):
            from memgraph_neo4j.embeddings import make_embedder

            embedder = make_embedder(embedder)
        self.embedder = embedder
        self.extractor = extractor if not isinstance(extractor, str) else \
            make_extractor(extractor, self.ontology, self.embedder, **extractor_options)
        self.writer = MemoryWriter(self.store, space, self.ontology, self.embedder, config)
        self._schema_ready = False
        self.retrieval_config = retrieval
        self._retriever = None

    def close(self) -> None:
        if self._own_store:
            self.store.close()

    def __enter__(self) -> MemoryGraph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def init(self) -> None:
        if not self._schema_ready:
            dimension = getattr(self.embedder, "dimension", self.settings.embedding_dimension)
            self.store.init_schema(dimension)
            self._schema_ready = True

    def ingest(self, sources, extractor: Extractor | None = None, batch_size: int = 64, guided: bool = True,
               dry_run: bool = False, progress: bool = True) -> IngestReport:
        """Files, folders, texts or Documents -> passages, facts, entities; promotion after every batch."""
        self.init()
        return ingest_documents(self.writer, _documents(sources), extractor or self.extractor,
                                batch_size=batch_size, guided=guided, dry_run=dry_run, progress=progress)

    @property
    def retriever(self):
        if self._retriever is None:
            from memgraph_neo4j.retrieval.engine import RetrievalConfig, Retriever

            config = self.retrieval_config or RetrievalConfig(ppr_engine=self.settings.ppr_engine,
                                                              layer_search=self.settings.layer_search)
            self._retriever = Retriever(self.store, self.space, self.embedder, config)
        return self._retriever

    def search(self, question: str, method: str = "memgraphrag", top_k: int = 5, top_m: int = 10):
        """Top-k passages (and top-m entities, seeding facts and schemas) with per-stage timings."""
        return self.retriever.search(question, method=method, top_k=top_k, top_m=top_m)

    def ask(self, question: str, chat=None, method: str = "memgraphrag", top_k: int = 5):
        """Answer from the retrieved passages and the top entities' active facts, with citations.
        `chat`: an llm.ChatClient (OpenAIChat, LangChainChat); default: OpenAIChat from the environment."""
        from memgraph_neo4j.retrieval.answer import ask

        if chat is None:
            from memgraph_neo4j.llm.chat import OpenAIChat

            chat = OpenAIChat(model=self.settings.llm_model)
        return ask(self.retriever, chat, question, method=method, top_k=top_k)

    def promote(self) -> tuple[int, int]:
        return self.writer.promote()

    def stats(self) -> dict:
        from memgraph_neo4j.memory.stats import memory_stats

        return memory_stats(self.store, self.space)


def make_extractor(name: str, ontology: Ontology, embedder=None, **options: Any) -> Extractor:
    """offline | openai | langchain (pass chat_model=...) | openie (pass openie=PATH)."""
    if name == "offline":
        from memgraph_neo4j.agents.offline import OfflineExtractor

        return OfflineExtractor(ontology, embedder=embedder)
    if name == "openie":
        from memgraph_neo4j.agents.typing import TypeAssigner
        from memgraph_neo4j.ingest.openie import OpenIEExtractor, load_openie

        path = options.get("openie")
        if not path:
            raise ValueError("the openie extractor needs the triples file: --openie FILE (HippoRAG OpenIE JSON)")
        if embedder is None:
            raise ValueError("typing imported entities needs an embedder (the default MiniLM)")
        return OpenIEExtractor(load_openie(path), TypeAssigner(ontology, embedder))
    if name in ("openai", "langchain"):
        from memgraph_neo4j.agents.extract import LLMExtractor
        from memgraph_neo4j.llm.chat import LangChainChat, OpenAIChat

        if name == "langchain":
            model = options.get("chat_model")
            if model is None:
                raise ValueError("the langchain extractor needs chat_model=<a langchain-core BaseChatModel>")
            chat = LangChainChat(model)
        else:
            chat = OpenAIChat(**{k: v for k, v in options.items() if k in ("model", "base_url", "api_key", "price")})
        llm_options = {k: v for k, v in options.items() if k in ("concurrency", "max_retries", "budget_tokens",
                                                                 "budget_cost", "timeout")}
        return LLMExtractor(chat, ontology, **llm_options)
    raise ValueError(f"unknown extractor {name!r}: choose one of {', '.join(EXTRACTORS)}")
