"""Consistency maintenance of the global memory (paper §4.2.2, Algorithm 1 stage III).

    adjudicator = make_adjudicator(store, space, ontology)          # offline rules
    adjudicator = make_adjudicator(store, space, ontology, chat)     # detection and resolution agents
    adjudicator.run()                                                 # newly active facts only

Which one ingest uses (`MemoryGraph(adjudicator=...)`, `ingest --adjudicator`): `adjudication_chat`.
"""

from __future__ import annotations

from memgraph_neo4j.adjudication.adjudicator import Adjudicator, summary
from memgraph_neo4j.adjudication.agents import ChatClassifier, ChatResolver
from memgraph_neo4j.adjudication.review import ConflictError, ConflictReview
from memgraph_neo4j.adjudication.rules import RuleClassifier, RuleResolver
from memgraph_neo4j.config import AdjudicationConfig, Settings
from memgraph_neo4j.llm.chat import ChatClient
from memgraph_neo4j.memory.neighbours import SpaceVectors
from memgraph_neo4j.memory.ontology import Ontology
from memgraph_neo4j.memory.promotion import promotion_bar
from memgraph_neo4j.repository.conflicts import ConflictRepository
from memgraph_neo4j.store import GraphStore
from memgraph_neo4j.validation import ADJUDICATORS, check_adjudicator

__all__ = ["ADJUDICATORS", "Adjudicator", "ConflictError", "ConflictReview", "adjudication_chat", "agent_config",
           "make_adjudicator", "summary"]

def adjudication_chat(mode: str, chat: ChatClient | None, extractor: object | None) -> ChatClient | None:
    """The chat model of the detection and resolution agents (paper §4.2.2), None for the offline rules.
    `rules`: none. `model`: `chat`, else the extractor's own (an LLM extractor's), else a ValueError saying
    what to pass. `auto` (the default): the same as `model` whenever there is a chat model, else none: an
    ingest with a chat model adjudicates as the paper does, one without runs the rules."""
    check_adjudicator(mode)
    if mode == "rules":
        return None
    found = chat or getattr(extractor, "chat", None)
    if found is None and mode == "model":
        raise ValueError("adjudicator 'model' needs a chat model: pass adjudication_chat=, or an LLM extractor "
                         "(--extractor openai or langchain)")
    return found


def agent_config(adjudication: AdjudicationConfig | bool, settings: Settings) -> AdjudicationConfig | None:
    """`MemoryGraph(adjudication=...)`'s configuration when it is one, else the agents' retries the settings
    choose (MEMGRAPH_LLM_RETRIES, `ingest --llm-retries`); None: the defaults."""
    if isinstance(adjudication, AdjudicationConfig):
        return adjudication
    return AdjudicationConfig(max_retries=settings.llm_retries) if settings.llm_retries is not None else None


def make_adjudicator(store: GraphStore, space: str, ontology: Ontology, chat: ChatClient | None = None,
                     config: AdjudicationConfig | None = None, fact_vectors: SpaceVectors | None = None) -> Adjudicator:
    """The chat model's agents when one is given, else the deterministic rules. `fact_vectors`: the
    writer's copy of the space's fact vectors (MemoryWriter.fact_vectors)."""
    config = config or AdjudicationConfig()
    threshold, percentile = promotion_bar(ontology)
    repository = ConflictRepository(store, space, threshold, percentile, open_world=ontology.mode == "open")
    if chat is None:
        return Adjudicator(repository, ontology, RuleClassifier(ontology.consistency_rules()), RuleResolver(), config,
                           fact_vectors)
    return Adjudicator(repository, ontology, ChatClassifier(chat, config.max_retries, config.backoff),
                       ChatResolver(chat, config.max_retries, config.backoff), config, fact_vectors)
