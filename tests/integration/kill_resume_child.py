"""One ingest run for tests/integration/test_kill_resume.py, in its own process so that the test can
SIGKILL it (or the server under it).

    python kill_resume_child.py URI PASSWORD SPACE CALLS_LOG [DELAY_S [DIE_AFTER]]

Deterministic throughout: a generated corpus, a scripted chat model that reads the facts off the
passage (and appends one line per call to CALLS_LOG, the passage's hash), and a hashing embedder
(bag of words, so names that share a word are near each other and entity resolution and bridging
have something to do). Exit code 0 when the ingest finished; prints the report as JSON. DIE_AFTER n:
the process SIGKILLs itself right after its n-th committed write transaction, wherever that falls.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import signal
import sys
import time
from typing import Any

import numpy as np
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

FIRST = ["Alice", "Bruno", "Chiara", "Dmitri", "Elena", "Farid", "Greta", "Hiroshi", "Ingrid", "Jonas"]
LAST = ["Smith", "Rossi", "Novak", "Tanaka", "Okafor", "Larsen"]
# "Acme Corporation Inc" is 0.82 from "Acme Corporation" under HashEmbedder: merged (MERGE below), in the
# order the batches meet them; people sharing a first or last name are 0.5 apart: SIMILAR bridges
ORGS = ["Acme Corporation", "Blue Harbor Institute", "Cedar Labs", "Delta Works", "Acme Corporation Inc"]
MERGE, BRIDGE = 0.8, 0.45
PLACES = ["Lisbon", "Oslo", "Kyoto", "Nairobi", "Lima"]
DOCUMENTS = 24
BATCH = 3  # passages per ingest batch: many batches, so a kill lands between or inside them

NAME = r"[A-Z][a-z]+ [A-Z][a-z]+"
WORKED = re.compile(rf"({NAME}) worked with ({NAME}) at ([A-Z][a-z]+(?: [A-Z][a-z]+)+)\.")
VISITED = re.compile(rf"({NAME}) visited ([A-Z][a-z]+)\.")


def corpus() -> list[tuple[str, str]]:
    """(title, text) of every document; every fifth one is long enough to be several passages."""
    docs = []
    for i in range(DOCUMENTS):
        rng = random.Random(i)
        person = lambda: f"{rng.choice(FIRST)} {rng.choice(LAST)}"  # noqa: E731
        sentences = []
        for _ in range(40 if i % 5 == 0 else 3):
            if rng.random() < 0.7:
                sentences.append(f"{person()} worked with {person()} at {rng.choice(ORGS)}.")
            else:
                sentences.append(f"{person()} visited {rng.choice(PLACES)}.")
        docs.append((f"Record {i}", " ".join(sentences)))
    return docs


def passage_of(prompt: str) -> str:
    return prompt.rsplit("Passage:\n", 1)[-1]


def reply_for(passage: str) -> str:
    entities, facts = {}, []
    for a, b, org in WORKED.findall(passage):
        entities.update({a: "Person", b: "Person", org: "Organization"})
        if a != b:
            facts.append({"head": a, "relation": "worked with", "tail": b, "head_type": "Person",
                          "tail_type": "Person"})
        facts.append({"head": a, "relation": "member of", "tail": org, "head_type": "Person",
                      "tail_type": "Organization"})
    for who, place in VISITED.findall(passage):
        entities.update({who: "Person", place: "Place"})
        facts.append({"head": who, "relation": "visited", "tail": place, "head_type": "Person", "tail_type": "Place"})
    return json.dumps({"entities": [{"name": n, "type": t} for n, t in sorted(entities.items())], "facts": facts})


class ScriptedChat(BaseChatModel):
    """Reads the facts off the passage; logs every call (the passage's hash) to `log`."""

    log: str
    delay: float = 0.0

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                  **kw: Any) -> ChatResult:
        passage = passage_of(str(messages[-1].content))
        with open(self.log, "a") as f:
            f.write(hashlib.sha256(passage.encode()).hexdigest()[:16] + "\n")
        time.sleep(self.delay)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=reply_for(passage)))])


class HashEmbedder:
    """Bag of hashed words, 384 dimensions, unit norm: deterministic and instant."""

    name = "hash-bow"
    dimension = 384

    def _one(self, text: str) -> np.ndarray:
        v = np.zeros(self.dimension, dtype=np.float32)
        for word in re.findall(r"\w+", text.lower()):
            v[int(hashlib.md5(word.encode()).hexdigest()[:8], 16) % self.dimension] += 1.0
        v[0] += 0.1  # no zero vector
        return v / np.linalg.norm(v)

    def embed_documents(self, texts, batch_size=None, show_progress=False) -> np.ndarray:
        return np.stack([self._one(t) for t in texts]) if texts else np.zeros((0, self.dimension), np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        return self._one(text)


def memory(store, space: str, log: str, delay: float = 0.0):
    from memgraph_neo4j.api import MemoryGraph, make_extractor
    from memgraph_neo4j.config import MemoryConfig
    from memgraph_neo4j.memory.ontology import load_ontology

    ontology = load_ontology()
    extractor = make_extractor("langchain", ontology, chat_model=ScriptedChat(log=log, delay=delay), concurrency=1)
    # the rules adjudicate: the scripted chat answers extraction prompts only (with a chat model the agents
    # would be the default, tests/integration/test_agent_adjudication.py)
    return MemoryGraph(space=space, store=store, ontology=ontology, embedder=HashEmbedder(), extractor=extractor,
                       config=MemoryConfig(merge_threshold=MERGE, bridge_threshold=BRIDGE), adjudicator="rules")


def documents():
    from memgraph_neo4j.ingest.readers import Document

    return [Document(title=title, text=text, source=f"record-{i}.txt") for i, (title, text) in enumerate(corpus())]


def die_after(writes: int) -> None:
    """SIGKILL this process right after its `writes`-th committed write transaction."""
    from neo4j import Session

    original, done = Session.execute_write, [0]

    def execute_write(self, *args, **kwargs):
        result = original(self, *args, **kwargs)
        done[0] += 1
        if done[0] >= writes:
            os.kill(os.getpid(), signal.SIGKILL)
        return result

    Session.execute_write = execute_write


def main() -> None:
    uri, password, space, log = sys.argv[1:5]
    delay = float(sys.argv[5]) if len(sys.argv) > 5 else 0.0
    if len(sys.argv) > 6:
        die_after(int(sys.argv[6]))
    from neo4j import GraphDatabase

    from memgraph_neo4j.store import GraphStore

    driver = GraphDatabase.driver(uri, auth=("neo4j", password), max_transaction_retry_time=5.0)
    with GraphStore(driver, uri=uri) as store:
        report = memory(store, space, log, delay).ingest(documents(), batch_size=BATCH, progress=False)
    print(report.model_dump_json())


if __name__ == "__main__":
    main()
