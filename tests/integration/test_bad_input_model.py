"""Bad input, model and store side: model replies that are not JSON, of the wrong shape, made up or enormous;
names carrying Cypher; an embedder of the wrong dimension; a 100 KB query; unicode end to end; an unknown
space; and the transient faults (model down: breaker; Neo4j down, wrong password, no GDS). Each asserts the
exact outcome and that the kept space (test_bad_input.py) is unchanged."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import numpy as np
import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from test_bad_input import SEED, kept_space, memory_of, snapshot
from test_memory import ScriptedExtractor

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.cli.output import missing_space, space_names
from memgraph_neo4j.config import Connection
from memgraph_neo4j.extractors.llm import LLMExtractor
from memgraph_neo4j.ingest.document import Document
from memgraph_neo4j.llm import LangChainChat
from memgraph_neo4j.llm.resilience import CircuitBreaker, CircuitOpenError
from memgraph_neo4j.memory.ontology import load_ontology
from memgraph_neo4j.store import GraphStore, StoreError

kept = pytest.fixture(scope="module", name="kept")(kept_space)
PASSAGE = "MODEL Marie Curie was born in Warsaw in 1867."


def reply(*facts: tuple[str, str, str]) -> str:
    names = sorted({n for h, _, t in facts for n in (h, t)})
    return json.dumps({"entities": [{"name": n, "type": "Thing"} for n in names],
                       "facts": [{"head": h, "relation": r, "tail": t} for h, r, t in facts]})


def ingest_with_model(store, test_store, space, *responses: str):
    chat = LangChainChat(FakeListChatModel(responses=list(responses)))
    extractor = LLMExtractor(chat, load_ontology(), backoff=0, max_retries=1, concurrency=1)
    with memory_of(store, space, extractor=extractor) as memory:
        report = memory.ingest(PASSAGE, progress=False)
        failed = memory.stats()["failed_chunks"]
    facts = sorted((f["head"], f["relation"], f["tail"]) for f in test_store.read("facts_by_relation", space=space))
    return report, failed, facts


@pytest.mark.parametrize(("output", "error"), [
    ("Sorry, I cannot help with that.", "invalid model output: no parsable JSON object (after 2 attempts)"),
    ('{"facts": "Marie Curie"}', "invalid model output: 'facts' is not a list (after 2 attempts)"),
    ("[1, 2, 3]", "invalid model output: no object with 'entities' or 'facts' in: '[1, 2, 3]' (after 2 attempts)"),
    ('{"entities": [{"name": ""}], "facts": [{"head": 1}]}',
     "invalid model output: none of the 1 entities is valid (after 2 attempts)"),
])
def test_unusable_model_output_fails_the_chunk_only(store, test_store, kept, space, output, error):
    report, failed, facts = ingest_with_model(store, test_store, space, output)
    assert (report.passages_new, report.failed, report.facts, facts) == (1, 1, 0, [])
    assert [row["error"] for row in failed] == [error]  # listed by `stats`, retried by the next ingest
    assert snapshot(test_store, kept[0]) == kept[1]


def test_model_output_naming_an_entity_absent_from_the_passage(store, test_store, kept, space):
    made_up = reply(("Marie Curie", "born_in", "Warsaw"), ("Napoleon Bonaparte", "born_in", "Corsica"),
                    ("Marie Curie", "spouse", "Albert Einstein"))
    report, failed, facts = ingest_with_model(store, test_store, space, made_up)
    assert (report.failed, failed) == (0, [])
    assert facts == [("Marie Curie", "born_in", "Warsaw")]  # the two facts the passage does not state: dropped
    assert snapshot(test_store, space)["node:Entity"][0] == 2  # no Napoleon, Corsica or Einstein
    assert snapshot(test_store, kept[0]) == kept[1]


def test_an_enormous_model_output_is_refused(store, test_store, kept, space):
    huge = reply(("Marie Curie", "born_in", "Warsaw"))[:-1] + ', "notes": "' + "x" * 300_000 + '"}'
    report, failed, facts = ingest_with_model(store, test_store, space, huge)
    assert (report.failed, facts) == (1, [])
    assert failed[0]["error"] == (f"invalid model output: a reply of {len(huge):,} characters, over 200,000 "
                                  "(after 2 attempts)")
    assert snapshot(test_store, kept[0]) == kept[1]


def test_a_model_output_repeating_one_fact_thousands_of_times(store, test_store, kept, space):
    many = reply(*[("Marie Curie", "born_in", "Warsaw")] * 2500)
    assert 150_000 < len(many) < 200_000
    report, failed, facts = ingest_with_model(store, test_store, space, many)
    assert (report.failed, report.facts, facts) == (0, 1, [("Marie Curie", "born_in", "Warsaw")])
    assert snapshot(test_store, kept[0]) == kept[1]


CYPHER_NAMES = {"INJECT": [
    ("Robert'}) MATCH (n) DETACH DELETE n //", "born_in`]->() DETACH DELETE n //", "London\"; DROP INDEX x",
     "Person", "Place"),
    ("Ada $space {x: 1}", "knows}]-(m) SET m.space = 'x' WITH 1 AS one MATCH (n", "Bob`) CALL db.clearQueryCaches()",
     "Person", "Person")]}


def test_relation_and_entity_names_carrying_cypher(store, test_store, kept, space):
    with memory_of(store, space, extractor=ScriptedExtractor(CYPHER_NAMES)) as memory:
        report = memory.ingest("INJECT a passage whose extraction carries Cypher.", progress=False)
        ids = memory.entity_ids(["Robert'}) MATCH (n) DETACH DELETE n //", "Bob`) CALL db.clearQueryCaches()"])
    assert report.facts == 2 and all(ids.values())  # stored as the data they are, names verbatim
    relations = sorted(f["relation"] for f in test_store.read("facts_by_relation", space=space))
    assert relations == ["born_in_detach_delete_n", "knows_m_set_m_space_x_with_1_as_one_match_n"]
    assert snapshot(test_store, kept[0]) == kept[1]  # nothing deleted, nothing moved to another space


def test_a_space_name_carrying_cypher(store, test_store, kept):
    message = "space \"x'}) DETACH DELETE n\": use letters, digits, '-' and '_' only"
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        MemoryGraph(space="x'}) DETACH DELETE n", store=store, embedder=None)
    assert snapshot(test_store, kept[0]) == kept[1]


LONG_NAME = "Zorblax " + " ".join(f"w{i}" for i in range(2500))  # 13,897 characters, past an index entry's 8,167 bytes
LONG_TYPE = "Zq " * 6000


def test_names_and_types_past_an_index_entry(store, test_store, kept, space):
    """An entity or type name over the ~8 KB a range index entry holds (a model can return one) failed its whole
    batch with "Property value is too large to index" (alias_key, type_key). Its key is now its start and a hash of
    the whole: the entity keeps its name, the same names ingested again find it, and entity_ids resolves it."""
    script = {"LONG": [(LONG_NAME, "works for", "Analytical Society", LONG_TYPE, "Organization")]}
    with memory_of(store, space, extractor=ScriptedExtractor(script)) as memory:
        first = memory.ingest("LONG a passage whose model named an entity at length.", progress=False)
        before = snapshot(test_store, space)
        again = memory.ingest("LONG the same names in another passage.", progress=False)
        ids = memory.entity_ids([LONG_NAME, LONG_NAME.upper()])
    assert (first.failed, first.facts, again.failed, again.entities_new) == (0, 1, 0, 0)
    after = snapshot(test_store, space)
    assert after["node:Entity"] == before["node:Entity"] and after.get("node:Alias") == before.get("node:Alias")
    assert ids[LONG_NAME] is not None and ids[LONG_NAME] == ids[LONG_NAME.upper()]  # one key per name, as before
    [head] = [f["head"] for f in test_store.read("facts_by_relation", space=space)]
    assert head == LONG_NAME  # stored whole; only its key is bounded
    assert snapshot(test_store, kept[0]) == kept[1]


def test_ids_and_space_names_past_an_index_entry(store, test_store, kept):
    with pytest.raises(ValueError, match=r"document id of 9,000 bytes: at most 7,500 \(an index key\); give a "
                                         r"shorter id, or none to use the content hash"):
        Document(id="d" * 9000, text="A document whose caller gave it a long id.")
    with pytest.raises(ValueError, match="^space name of 256 characters: at most 255; choose a shorter name$"):
        MemoryGraph(space="s" * 256, store=store, embedder=None)
    assert snapshot(test_store, kept[0]) == kept[1]


class TenDimensions:
    """An embedder whose vectors do not fit the database's 384-dimensional indexes."""

    dimension = 10

    def embed_documents(self, texts, show_progress=False):
        return np.full((len(texts), 10), 10 ** -0.5, dtype=np.float32)

    def embed_query(self, text):
        return np.full(10, 10 ** -0.5, dtype=np.float32)


def test_an_embedding_of_the_wrong_dimension(store, test_store, kept, space):
    with memory_of(store, space, embedder=TenDimensions()) as memory, pytest.raises(StoreError) as caught:
        memory.ingest("Grace Hopper worked for the US Navy.", progress=False)
    message = str(caught.value)
    assert "\n" not in message and message.startswith("vector index '")
    assert ("holds 384-dimensional vectors, but the embedder makes 10: every space of a database shares these "
            "indexes, so use an embedder of 384 dimensions (MiniLM: 384) or another database") in message
    assert test_store.read("space_node_count", space=space) == [{"nodes": 0}]  # refused before any write
    assert snapshot(test_store, kept[0]) == kept[1]


@pytest.fixture(scope="module")
def searchable(store, minilm):
    import uuid

    name = f"t_search_{uuid.uuid4().hex[:8]}"
    texts = [SEED, "Marie Curie was born in Warsaw.", "東京は日本の首都です。 Tokyo is the capital of Japan.",
             "עברית: ירושלים היא עיר. Jerusalem is a city.", "Emoji party 🎉🐍 in Paris 🇫🇷 with Ada."]
    with MemoryGraph(space=name, store=store, embedder=minilm) as memory:  # the offline extractor
        memory.ingest(texts, progress=False)
    yield name, texts
    store.run_implicit("admin/delete_space", space=name)


@pytest.mark.parametrize("method", ["dense", "bm25", "hipporag2", "memgraphrag"])
def test_a_100_kb_query(store, test_store, minilm, searchable, method):
    name, _ = searchable
    before = snapshot(test_store, name)
    question = ("Where was Marie Curie born? " * 4000)[:100_000]
    with MemoryGraph(space=name, store=store, embedder=minilm) as memory:
        result = memory.search(question, method=method, top_k=2)
    assert result.passages and "Marie Curie was born in Warsaw." in [p.text for p in result.passages]
    assert snapshot(test_store, name) == before


def test_unicode_end_to_end(store, test_store, minilm, searchable, tmp_path):
    name, texts = searchable
    with MemoryGraph(space=name, store=store, embedder=minilm) as memory:
        stored = {p.text for q in ("東京は日本の首都です", "ירושלים", "🎉🐍 Paris")
                  for p in memory.search(q, method="dense", top_k=5).passages}
        exported = memory.export(tmp_path / "space.jsonl")
    assert set(texts[2:]) <= stored  # CJK, right-to-left and emoji back byte for byte
    lines = (tmp_path / "space.jsonl").read_text(encoding="utf-8")
    assert exported.nodes > 0 and all(json.dumps(t, ensure_ascii=False)[1:-1] in lines for t in texts[2:])
    with memory_of(store, name, embedder=minilm,
                   extractor=ScriptedExtractor({"Emoji": [("Ada 🐍", "likes", "パリ", "Person", "Place")]})) as memory:
        memory.ingest("Emoji party 🎉🐍 in Paris 🇫🇷 with Ada, again.", progress=False)
        assert all(memory.entity_ids(["Ada 🐍", "パリ"]).values())


def test_an_unknown_space(store, test_store, minilm, kept):
    unknown = "t_never_created_space"
    with MemoryGraph(space=unknown, store=store, embedder=minilm) as memory:
        assert not memory.exists() and memory.stats()["nodes"] == {}
        assert memory.search("Who?", method="dense").passages == []  # the API finds nothing ...
    message = missing_space(unknown, space_names(store))  # ... and every command says so, in one line
    assert message.startswith(f"memory space {unknown!r} is empty or does not exist; spaces: ")
    assert kept[0] in message or "more (memgraph-neo4j spaces list)" in message
    assert test_store.read("space_node_count", space=unknown) == [{"nodes": 0}]
    assert snapshot(test_store, kept[0]) == kept[1]


# -- transient faults -------------------------------------------------------------------------------------


class Down(FakeListChatModel):
    calls: int = 0

    def _call(self, *args, **kwargs):
        self.calls += 1
        raise ConnectionError("provider unreachable")


def test_a_model_that_is_down_opens_the_breaker(store, test_store, kept, space):
    model = Down(responses=["unused"])
    chat = LangChainChat(model, breaker=CircuitBreaker(threshold=3, cooldown=60))
    extractor = LLMExtractor(chat, load_ontology(), backoff=0, max_retries=3, concurrency=1)
    texts = [f"MODEL passage {i} about Marie Curie." for i in range(6)]
    with memory_of(store, space, extractor=extractor) as memory:
        report = memory.ingest(texts, progress=False)
        errors = [row["error"] for row in memory.stats()["failed_chunks"]]
    assert report.failed == 6 and model.calls == 3  # the breaker opened after 3 failures: no call since
    assert all(e.startswith("model call failed: CircuitOpenError: model: not called, 3 calls in a row failed "
                            "(last: ConnectionError: provider unreachable); trying again in ") for e in errors)
    assert sorted(e.rsplit("(after ", 1)[1] for e in errors) == ["1 attempts)"] * 5 + ["4 attempts)"]
    assert snapshot(test_store, kept[0]) == kept[1]


def test_circuit_breaker_half_opens_after_the_cooldown():
    now = [0.0]
    breaker = CircuitBreaker(threshold=2, cooldown=10, clock=lambda: now[0])

    def fail():
        raise TimeoutError("slow")

    for _ in range(2):
        with pytest.raises(TimeoutError):
            breaker.call(fail)
    assert breaker.state == "open"
    with pytest.raises(CircuitOpenError, match=r"^model: not called, 2 calls in a row failed .* in 10s$"):
        breaker.call(lambda: "x")
    now[0] = 10.0
    assert breaker.state == "half-open" and breaker.call(lambda: "ok") == "ok" and breaker.state == "closed"


def test_neo4j_down(neo4j_connection):
    down = Connection(uri="bolt://127.0.0.1:1", username="neo4j", password=neo4j_connection.password)
    with pytest.raises(StoreError) as caught:
        GraphStore.connect(down)
    assert str(caught.value).startswith("no Neo4j answers at bolt://127.0.0.1:1: start the local one with "
                                        "`memgraph-neo4j neo4j start`, or point NEO4J_URI at a running server (")
    assert "\n" not in str(caught.value)


def test_wrong_password(neo4j_connection):
    wrong = replace(neo4j_connection, password="not-the-password")
    with pytest.raises(StoreError) as caught:
        GraphStore.connect(wrong)
    assert str(caught.value) == (f"Neo4j at {neo4j_connection.uri} rejected user 'neo4j': wrong username or "
                                 "password. For the local server run `eval $(memgraph-neo4j neo4j env)`; otherwise "
                                 "set NEO4J_USERNAME/NEO4J_PASSWORD.")


def test_gds_missing_is_named(test_store):
    with pytest.raises(StoreError) as caught:
        test_store.read("no_such_gds_procedure")
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"Neo4j at {test_store.uri} has no Graph Data Science plugin "
                                                      "(no_such_gds_procedure needs it: ")
    assert message.endswith("install GDS 2.x, use the local server (`memgraph-neo4j neo4j start`), or a method "
                            "without PageRank (dense, bm25)")
