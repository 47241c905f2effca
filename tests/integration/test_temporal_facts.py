"""One temporal model for every fact, on the demo memory (offline extractor, with and without spaCy):
document facts get valid_at / invalid_at from their time qualifiers at ingest, and `facts(as_of=)`,
`search(as_of=)` and the temporal adjudication verdict agree: Microsoft in Albuquerque as of 1977, in
Bellevue as of 1982, in Redmond as of 1990, whether or not the conflict verdicts ran."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime

import pytest

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.demo.scenario import corpus_files
from memgraph_neo4j.extractors.offline import OfflineExtractor
from memgraph_neo4j.memory.ontology import load_ontology
from memgraph_neo4j.repository.layers import LayerRepository
from memgraph_neo4j.retrieval.projection import space_prefix


@pytest.fixture(params=["heuristic", "spacy"])
def memory(request, store, space, minilm, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    try:
        extractor = OfflineExtractor(load_ontology(), minilm, ner=request.param)
    except RuntimeError as exc:  # ner="spacy" without the nlp extra
        pytest.skip(str(exc))
    # no checks on ingest: the verdicts run later, on request, so the test sees both sides of them
    m = MemoryGraph(space=space, store=store, embedder=minilm, extractor=extractor, adjudication=False)
    m.ingest(corpus_files(), progress=False)
    yield m
    for graph in LayerRepository(store, space).state(space_prefix(space)).graphs:
        store.write("admin/drop_graph", name=graph)


def y(year: int) -> datetime:
    return datetime(year, 1, 1, tzinfo=UTC)


def microsoft(memory: MemoryGraph, as_of) -> list[tuple[str, datetime | None, datetime | None]]:
    return [(f.tail, f.valid_at, f.invalid_at) for f in memory.facts(as_of=as_of, relation="headquartered_in")
            if f.head == "Microsoft"]


def test_as_of_on_the_demo_memory(memory):
    albuquerque, bellevue, redmond = ("Albuquerque", y(1975), y(1980)), ("Bellevue", y(1979), y(1987)), \
        ("Redmond", y(1986), None)
    for verdicts in (False, True):
        if verdicts:
            report = memory.adjudicate()  # the temporal verdict qualifies the three facts with their years
            assert report.by_type.get("temporal") == 1
        assert microsoft(memory, "1977") == [albuquerque]
        assert microsoft(memory, "1982") == [bellevue]
        assert microsoft(memory, "1990") == [redmond]
        assert microsoft(memory, "June 1979") == [albuquerque, bellevue]  # the end year is inclusive
        assert microsoft(memory, "1970") == []
        assert microsoft(memory, None) == [redmond]  # now
    # facts without a time stay valid at every time
    assert "Cupertino" in {f.tail for f in memory.facts(as_of="1977", relation="headquartered_in")}
    with pytest.raises(ValueError, match="'the old days'"):
        memory.facts(as_of="the old days")


def test_search_as_of_on_documents(memory):
    question = "Where was Microsoft headquartered?"
    then = [f.text for f in memory.search(question, method="hybrid", top_k=3, as_of="1977").facts]
    assert "Microsoft headquartered in Albuquerque (1975 to 1979)" in then
    assert not any(t.startswith(("Microsoft headquartered in Bellevue", "Microsoft headquartered in Redmond"))
                   for t in then)
    later = [f.text for f in memory.search(question, method="hybrid", top_k=3, as_of="1990").facts]
    assert "Microsoft headquartered in Redmond (1986)" in later and not any("Albuquerque" in t for t in later)
    # the passage rankers do not read validity: a clear error, never a silently ignored as_of
    for method in ("dense", "bm25", "memgraphrag"):
        with pytest.raises(ValueError, match="as_of"):
            memory.search(question, method=method, as_of="1977")
    with pytest.raises(ValueError, match="'someday'"):
        memory.search(question, method="hybrid", as_of="someday")


def _cli(connection, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, NEO4J_URI=connection.uri, NEO4J_USERNAME=connection.username,
               NEO4J_PASSWORD=connection.password, NEO4J_DATABASE=connection.database,
               COLUMNS="200")  # the table's rows on one line each
    return subprocess.run([sys.executable, "-m", "memgraph_neo4j.cli.main", *args], capture_output=True, text=True,
                          env=env, timeout=600)


def test_the_command_lists_facts_and_queries_as_of(memory, neo4j_connection, space):
    listed = _cli(neo4j_connection, "facts", "--space", space, "--as-of", "1977", "--relation", "headquartered_in",
                  "--json")
    assert listed.returncode == 0, listed.stderr
    rows = [r for r in json.loads(listed.stdout) if r["head"] == "Microsoft"]
    assert [(r["tail"], r["valid_at"], r["invalid_at"]) for r in rows] == [
        ("Albuquerque", "1975-01-01 00:00:00+00:00", "1980-01-01 00:00:00+00:00")]
    table = _cli(neo4j_connection, "facts", "--space", space, "--as-of", "1982", "--relation", "headquartered_in")
    assert table.returncode == 0 and "Microsoft headquartered in Bellevue (1979 to 1986)" in table.stdout
    assert "Albuquerque" not in table.stdout and "Microsoft headquartered in Redmond" not in table.stdout
    bad = _cli(neo4j_connection, "facts", "--space", space, "--as-of", "someday")
    assert bad.returncode == 1 and "as_of 'someday': not a date or time" in bad.stderr
    assert "Traceback" not in bad.stderr

    asked = _cli(neo4j_connection, "query", "Where was Microsoft headquartered?", "--space", space,
                 "--method", "hybrid", "--as-of", "1990", "--json")
    assert asked.returncode == 0, asked.stderr
    seeds = [f["text"] for f in json.loads(asked.stdout)["facts"]]
    assert "Microsoft headquartered in Redmond (1986)" in seeds and not any("Albuquerque" in t for t in seeds)
    wrong = _cli(neo4j_connection, "query", "Where?", "--space", space, "--method", "dense", "--as-of", "1990")
    assert wrong.returncode == 1 and "as_of needs a hybrid or dual method" in wrong.stderr


class UntilScript:
    """Scripted facts of a conversation (said in 2024): Acme in Lisbon "until 1980", in Rome "from 1990
    until 2001", then in Oslo."""

    name, uses_guide = "scripted", False

    def extract(self, items, guide):
        from memgraph_neo4j.contracts import ExtractedEntity, ExtractedFact, Extraction, ExtractionOutcome

        out = []
        for item in items:
            facts = [ExtractedFact(head="Acme", relation="headquartered_in", tail=city, head_type="Organization",
                                   tail_type="Place", time=time)
                     for city, time in (("Lisbon", "until 1980"), ("Rome", "from 1990 until 2001"), ("Oslo", None))
                     if city in item.text]
            entities = [ExtractedEntity(name=n, type=t) for f in facts for n, t in ((f.head, "Organization"),
                                                                                     (f.tail, "Place"))]
            out.append(ExtractionOutcome(passage_id=item.passage_id, doc_id=item.doc_id, extractor=self.name,
                                         extraction=Extraction(entities=entities, facts=facts), model="script"))
        return out

    def estimate(self, items, guide):
        from memgraph_neo4j.contracts import Usage

        return Usage()


def test_a_conversation_fact_keeps_its_stated_end(store, space, minilm):
    from memgraph_neo4j.ingest.episodes import Conversation, Message, Session

    base = load_ontology()  # every schema stable at once: the scripted facts are active
    ontology = base.model_copy(update={"promotion": base.promotion.model_copy(update={"threshold": 1,
                                                                                      "percentile": None})})
    chat = Conversation("acme", sessions=[
        Session("1", [Message("Ana", "Acme was in Lisbon until 1980, then in Rome from 1990 until 2001.")],
                time=datetime(2024, 1, 10, tzinfo=UTC)),
        Session("2", [Message("Ana", "Acme is in Oslo.")], time=datetime(2024, 6, 1, tzinfo=UTC))])
    with MemoryGraph(space=space, store=store, embedder=minilm, extractor=UntilScript(), ontology=ontology,
                     adjudication=False) as memory:
        memory.ingest_conversations([chat])

        def where(as_of):
            return [(f.tail, f.valid_at, f.invalid_at) for f in memory.facts(as_of=as_of, relation="headquartered_in")]

        # "until 1980" names an end, not a start: valid since always, not from the message's time
        assert where("1970") == [("Lisbon", None, y(1981))]
        # the text's end (2001, inclusive) is earlier than the later message's value: it stays the end
        assert where("1995") == [("Rome", y(1990), y(2002))]
        assert where("1985") == [] and where("2010") == []
        assert where(None) == [("Oslo", datetime(2024, 6, 1, tzinfo=UTC), None)]
