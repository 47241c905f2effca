"""One ingest run for tests/integration/test_kill_resume.py, in its own process so that the test can
SIGKILL it (or the server under it).

    python kill_resume_child.py URI PASSWORD SPACE CALLS_LOG ADJUDICATOR [DELAY_S [DIE_AFTER]]

Deterministic throughout: a generated corpus, a scripted chat model that reads the facts off the
passage (and appends one line per extraction call to CALLS_LOG, the passage's hash) and, with
ADJUDICATOR "model", answers the adjudication agents' classification and resolution prompts from the
facts they show (one line per call to CALLS_LOG.adjudication, never to CALLS_LOG), and a hashing embedder
(bag of words, so names that share a word are near each other and entity resolution and bridging
have something to do). Exit code 0 when the ingest finished; prints the report as JSON. DIE_AFTER n:
the process SIGKILLs itself right after its n-th committed write transaction, wherever that falls.

Birth years plant mutual exclusions (birth_date is functional) that the agents settle: every person has
one of two years (BORN), so each clash is one pair, whatever the batches the checks fall in; the earlier
year is kept, the later discarded (its passage no longer supports birth_date).
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
# an undeclared relation ("visited" is declared since the chat turns): the percentile bar is taken over
# the undeclared schemas, so photographed beside worked_with keeps it under birth_date's support
VISITED = re.compile(rf"({NAME}) photographed ([A-Z][a-z]+)\.")
BORN = re.compile(rf"({NAME}) was born in (\d{{4}})\.")


def corpus() -> list[tuple[str, str]]:
    """(title, text) of every document; every fifth one is long enough to be several passages."""
    docs = []
    for i in range(DOCUMENTS):
        rng = random.Random(i)
        person = lambda: f"{rng.choice(FIRST)} {rng.choice(LAST)}"  # noqa: E731
        sentences = []
        for _ in range(40 if i % 5 == 0 else 3):
            kind = rng.random()
            if kind < 0.5:
                sentences.append(f"{person()} worked with {person()} at {rng.choice(ORGS)}.")
            elif kind < 0.8:  # more often than visits: birth_date's support passes the percentile's bar
                who = person()
                sentences.append(f"{who} was born in {born(who) + rng.randrange(2)}.")
            else:
                sentences.append(f"{person()} photographed {rng.choice(PLACES)}.")
        docs.append((f"Record {i}", " ".join(sentences)))
    return docs


def born(person: str) -> int:
    """The earlier of the two birth years the corpus gives a person (the other is one later)."""
    return 1900 + int(hashlib.md5(person.encode()).hexdigest()[:4], 16) % 80


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
        facts.append({"head": who, "relation": "photographed", "tail": place, "head_type": "Person",
                      "tail_type": "Place"})
    for who, year in BORN.findall(passage):
        entities.update({who: "Person", year: "Date"})
        facts.append({"head": who, "relation": "birth_date", "tail": year, "head_type": "Person", "tail_type": "Date"})
    return json.dumps({"entities": [{"name": n, "type": t} for n, t in sorted(entities.items())], "facts": facts})


SHOWN = re.compile(r"^(NEW|C\d+|F\d+): (.*?) \[relation (\w+)", re.M)  # prompts/adjudication.py's fact lines


def classification(user: str) -> str:
    """Two birth years of one person are a mutual exclusion; nothing else is a conflict."""
    shown = {label: (text, relation) for label, text, relation in SHOWN.findall(user)}
    new_text, new_relation = shown.pop("NEW")

    def clash(text: str, relation: str) -> bool:
        return relation == new_relation == "birth_date" and text.split(" birth date ")[0] == \
            new_text.split(" birth date ")[0]
    return json.dumps({"pairs": [{"candidate": label, "type": "mutual_exclusion" if clash(*seen) else "none",
                                  "confidence": 0.95, "reason": "two birth years" if clash(*seen) else "unrelated"}
                                 for label, seen in sorted(shown.items())]})


def resolution(user: str) -> str:
    """The earliest birth year is kept, the others discarded."""
    shown = {label: text for label, text, _ in SHOWN.findall(user)}
    first = min(shown.values(), key=lambda text: text.rsplit(" ", 1)[-1])
    return json.dumps({"verdicts": [{"fact": label, "verdict": "keep" if text == first else "discard"}
                                    for label, text in sorted(shown.items())],
                       "confidence": 0.9, "rationale": "the earlier year"})


class ScriptedChat(BaseChatModel):
    """Reads the facts off the passage and logs every extraction call (the passage's hash) to `log`;
    answers the adjudication agents' prompts from the facts they show, logged to `log`.adjudication."""

    log: str
    delay: float = 0.0

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                  **kw: Any) -> ChatResult:
        system, user = str(messages[0].content), str(messages[-1].content)
        agent = "classify" if '{"pairs"' in system else "resolve" if '{"verdicts"' in system else None
        if agent is not None:  # prompts/adjudication.py: CLASSIFY_SYSTEM, RESOLVE_SYSTEM
            with open(self.log + ".adjudication", "a") as f:
                f.write(f"{agent} {hashlib.sha256(user.encode()).hexdigest()[:16]}\n")
            reply = classification(user) if agent == "classify" else resolution(user)
            return ChatResult(generations=[ChatGeneration(message=AIMessage(content=reply))])
        passage = passage_of(user)
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


def memory(store, space: str, log: str, adjudicator: str = "rules", delay: float = 0.0):
    from memgraph_neo4j.api import MemoryGraph, make_extractor
    from memgraph_neo4j.config import MemoryConfig
    from memgraph_neo4j.memory.ontology import load_ontology

    ontology = load_ontology()
    extractor = make_extractor("langchain", ontology, chat_model=ScriptedChat(log=log, delay=delay), concurrency=1)
    # "rules" or "model": the agents over the same scripted chat (the default with a chat model)
    return MemoryGraph(space=space, store=store, ontology=ontology, embedder=HashEmbedder(), extractor=extractor,
                       config=MemoryConfig(merge_threshold=MERGE, bridge_threshold=BRIDGE), adjudicator=adjudicator)


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
    uri, password, space, log, adjudicator = sys.argv[1:6]
    delay = float(sys.argv[6]) if len(sys.argv) > 6 else 0.0
    if len(sys.argv) > 7:
        die_after(int(sys.argv[7]))
    from neo4j import GraphDatabase

    from memgraph_neo4j.store import GraphStore

    driver = GraphDatabase.driver(uri, auth=("neo4j", password), max_transaction_retry_time=5.0)
    with GraphStore(driver, uri=uri) as store:
        report = memory(store, space, log, adjudicator, delay).ingest(documents(), batch_size=BATCH, progress=False)
    print(report.model_dump_json())


if __name__ == "__main__":
    main()
