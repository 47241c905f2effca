"""The request bodies of the service's endpoints (their JSON schemas are the OpenAPI's)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from memgraph_neo4j.retrieval import SEARCH_METHODS
from memgraph_neo4j.retrieval.answer import Answer
from memgraph_neo4j.retrieval.base import RetrievalResult

Method = Literal[SEARCH_METHODS]


class SearchRequest(BaseModel):
    query: str = Field(min_length=1, description="A question or keywords")
    method: Method = "memgraphrag"
    top_k: Annotated[int, Field(ge=1, le=100, description="Passages to return")] = 5
    top_m: Annotated[int, Field(ge=1, le=100, description="Entities to return")] = 10
    as_of: str | None = Field(None, description="A date or time: the facts valid then (hybrid methods and dual)")
    mode: Literal["dual", "system1"] | None = Field(None, description="Conversation memory's routes (overrides "
                                                                      "method)")


class AskRequest(BaseModel):
    question: str = Field(min_length=1)
    method: Method = "memgraphrag"
    top_k: Annotated[int, Field(ge=1, le=100, description="Passages in the context")] = 5


class TextRequest(BaseModel):
    text: str = Field(min_length=1, description="A note, a document, a message")
    title: str | None = None


class Turn(BaseModel):
    """One record of the chat format (ingest/episodes.py), stored as an Episode."""

    speaker: str = Field(min_length=1)
    text: str = Field(min_length=1)
    time: str | None = Field(None, description="ISO 8601 or a date as written ('1:56 pm on 8 May, 2023')")
    conversation: str | None = Field(None, description="Records of several conversations: which one")
    session: str | None = None


class ConversationRequest(BaseModel):
    turns: list[Turn] = Field(min_length=1, description="The records, in order")
    title: str | None = Field(None, description="Names a single conversation instead of its speakers")


class AcceptRequest(BaseModel):
    keep: str | None = Field(None, description="The fact to keep (id or unique prefix); the others are discarded")


class RetractRequest(BaseModel):
    ids: list[str] = Field(min_length=1, description="Document ids or unique prefixes")


class SearchResponse(RetrievalResult):
    """A search's result, and each passage's label where the words asked about lie (Hit.matched(query).label()):
    what `memgraph-neo4j query` prints as the service's client without rebuilding the hits."""

    labels: list[str] = Field(default_factory=list)

    @classmethod
    def of(cls, result: RetrievalResult, query: str) -> SearchResponse:
        labels = [hit.matched(query).label() or hit.id for hit in result.passages]
        return cls.model_construct(**dict(result), labels=labels)  # the hits are valid already


class AskResponse(Answer):
    """An answer, and each evidence passage's label where the words asked about lie (as SearchResponse):
    what `memgraph-neo4j ask` prints as the service's client (the passages' sections are not sent)."""

    labels: list[str] = Field(default_factory=list)

    @classmethod
    def of(cls, answer: Answer, question: str) -> AskResponse:
        labels = [hit.matched(question).label() or hit.id for hit in answer.evidence.passages]
        return cls.model_construct(**dict(answer), labels=labels)
