"""The small memory the framework adapters' tests read (conftest.py's `known`), built through
`MemoryGraph` with a scripted extractor (facts keyed by a marker word in the passage):

- "Ada": Ada Lovelace born in London; Ada knows Charles Babbage;
- "Newton A" and "Newton B": Isaac Newton born in Woolsthorpe, and in Cambridge: born_in is functional, the
  offline rules cannot tell which place is right, so the conflict waits for review (both facts active);
- a conversation in which Acme is based in Paris (January 2024), then moves to Berlin (June 2024): as of
  March 2024 the Paris episode is the one said by then (the two facts also wait for review).
"""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime

from marker_script import MarkerScript

from memgraph_neo4j.ingest.document import Document
from memgraph_neo4j.ingest.episodes import Conversation, Message, Session
from memgraph_neo4j.memory.ontology import load_ontology
from memgraph_neo4j.repository.documents import delete_space
from memgraph_neo4j.retrieval.projection import space_prefix

SCRIPT = {  # marker word -> (head, relation, tail, head type, tail type)
    "Lovelace": [("Ada Lovelace", "born_in", "London", "Person", "Place"),
                 ("Ada Lovelace", "knows", "Charles Babbage", "Person", "Person")],
    "Woolsthorpe": [("Isaac Newton", "born_in", "Woolsthorpe", "Person", "Place")],
    "Cambridge": [("Isaac Newton", "born_in", "Cambridge", "Person", "Place")],
    "Paris": [("Acme", "headquartered_in", "Paris", "Organization", "Place")],
    "Berlin": [("Acme", "headquartered_in", "Berlin", "Organization", "Place")],
    "Arlington": [("Grace Hopper", "lives_in", "Arlington", "Person", "Place")],
    "tea": [("Ada Lovelace", "likes", "green tea", "Person", "Thing")],
}
ADA = ("Ada Lovelace was born in London in 1815. She wrote the first published algorithm for Charles "
       "Babbage's Analytical Engine.")
DOCS = [Document(title="Ada", text=ADA, source="ada.txt"),
        Document(title="Newton A", text="Isaac Newton was born in Woolsthorpe, Lincolnshire.", source="a.txt"),
        Document(title="Newton B", text="Isaac Newton was born in Cambridge, says a second source.",
                 source="b.txt")]
CHAT = Conversation("acme-chat", title="Ana and Bo", sessions=[
    Session("1", [Message("Ana", "Our company Acme is based in Paris.")], time=datetime(2024, 1, 10, 9, tzinfo=UTC)),
    Session("2", [Message("Ana", "Big news: Acme moved its headquarters to Berlin.")],
            time=datetime(2024, 6, 1, 9, tzinfo=UTC)),
])


class Script(MarkerScript):
    """Facts by marker word (SCRIPT): deterministic, no model."""

    def __init__(self) -> None:
        super().__init__(SCRIPT)


def ontology():
    base = load_ontology()  # every schema stable at once: the scripted facts are active
    return base.model_copy(update={"promotion": base.promotion.model_copy(update={"threshold": 1, "percentile": None})})


def memory_options(embedder) -> dict:
    """What a MemoryGraph of these tests is built with (the LangGraph store passes them on)."""
    return {"ontology": ontology(), "embedder": embedder, "extractor": Script()}


def new_space(prefix: str = "t_adapt") -> str:
    return f"{prefix}_{uuid.uuid4().hex[:8]}"


def drop_space(store, space: str) -> None:
    delete_space(store, space, re.escape(space_prefix(space)) + r"\d+_p.*")
