"""Memory spaces are isolated: what other spaces hold changes neither a build nor a ranking.

All spaces share one database and its vector and fulltext indexes. One corpus is built into space A;
then a copy into space C and a near-copy (other first names and missions: look-alike entities) into
space D; then the corpus again into space B. B must be the graph A is (entities, facts, states,
SIMILAR bridges, counts), and every method must rank B, and A again, exactly as it ranked A when A
was alone.
"""

from __future__ import annotations

import uuid

import pytest
from test_retrieval import drop_graphs

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.ingest.readers import Document
from memgraph_neo4j.repository.search import SearchRepository
from memgraph_neo4j.retrieval import bm25_index

UNIVERSITIES = ["Manchester", "Edinburgh", "Glasgow", "Leeds", "Bristol", "Oxford", "Cambridge", "London",
                "Warsaw", "Vienna", "Zurich", "Leiden"]
PEOPLE = [("Ada Lovelace", "London"), ("Alan Turing", "London"), ("Marie Curie", "Warsaw"),
          ("Lise Meitner", "Vienna"), ("Albert Einstein", "Ulm"), ("Niels Bohr", "Copenhagen"),
          ("Max Born", "Breslau"), ("Paul Dirac", "Bristol"), ("James Maxwell", "Edinburgh"),
          ("Rosalind Franklin", "London"), ("Dorothy Hodgkin", "Cairo"), ("Erwin Schrodinger", "Vienna"),
          ("Emmy Noether", "Erlangen"), ("Enrico Fermi", "Rome"), ("Werner Heisenberg", "Wurzburg"),
          ("Hedy Lamarr", "Vienna"), ("Grace Hopper", "New York"), ("John Napier", "Edinburgh"),
          ("Mary Somerville", "Jedburgh"), ("Charles Babbage", "London"), ("Michael Faraday", "Newington"),
          ("Ernest Rutherford", "Brightwater"), ("Srinivasa Ramanujan", "Erode"), ("Kurt Godel", "Brno")]
# a cluster of look-alike names: every "Apollo <n>" is at cosine >= 0.8 of every other (MiniLM), so each
# has more neighbours than bridging keeps (10), and copies in other spaces compete for those places
ASTRONAUTS = ["Neil Armstrong", "Pete Conrad", "Jim Lovell", "Alan Shepard", "David Scott", "John Young",
              "Gene Cernan", "Wally Schirra", "Frank Borman", "Tom Stafford", "Buzz Aldrin", "Mike Collins",
              "Dick Gordon", "Fred Haise", "Stuart Roosa", "Ed Mitchell", "Jim Irwin", "Al Worden",
              "Ken Mattingly", "Charlie Duke"]
CITIES = ["Wapakoneta", "Philadelphia", "Cleveland", "Derry", "San Antonio", "San Francisco", "Chicago",
          "Hackensack", "Gary", "Weatherford", "Glen Ridge", "Rome", "Seattle", "Biloxi", "Durango", "Hereford",
          "Pittsburgh", "Jackson", "Greenwich", "Charlotte"]
COUNTRIES = {"London": "England", "Warsaw": "Poland", "Vienna": "Austria", "Ulm": "Germany",
             "Copenhagen": "Denmark", "Edinburgh": "Scotland", "Rome": "Italy", "Brno": "Moravia",
             "Cairo": "Egypt", "Erlangen": "Bavaria"}
# the near-copy: the same passages with other first names and other missions (look-alikes of the originals)
OTHER_FIRST = {"Ada": "Ida", "Alan": "Allan", "Marie": "Maria", "Lise": "Lisa", "Albert": "Alberta",
               "Niels": "Nils", "Max": "Maxim", "Paul": "Paula", "James": "Jamie", "Rosalind": "Rosaline",
               "Dorothy": "Dorothea", "Erwin": "Irwin", "Emmy": "Emma", "Enrico": "Enrica",
               "Werner": "Warner", "Hedy": "Heidi", "Grace": "Gracie", "John": "Jon", "Mary": "Marie",
               "Charles": "Carl", "Michael": "Mikhail", "Ernest": "Ernesto", "Srinivasa": "Srinivas",
               "Kurt": "Curt", "Neil": "Neal", "Pete": "Peter", "Jim": "Jimmy", "David": "Dave", "Gene": "Eugene",
               "Wally": "Walter", "Frank": "Francis", "Tom": "Thomas", "Buzz": "Edwin", "Mike": "Michael",
               "Dick": "Richard", "Fred": "Alfred", "Stuart": "Stewart", "Ed": "Edgar", "Al": "Alfred",
               "Ken": "Kenneth", "Charlie": "Charles"}
QUESTIONS = ["Where was Ada Lovelace born?", "Who worked at the University of Vienna?",
             "Which scientists studied at the University of Edinburgh?", "In which country is Warsaw?",
             "Who flew on Apollo 11?", "Which astronaut was born in Cleveland?",
             "Who was born in the capital of Austria?", "Who studied at the University of Cambridge?"]
METHODS = ("dense", "bm25", "hipporag2", "memgraphrag")


def corpus(rename: dict[str, str] | None = None, missions: int = 1) -> list[Document]:
    """Passages about people, astronauts and places; `rename` changes first names, `missions` is the
    number of the first Apollo mission."""
    def name(person: str) -> str:
        first, last = person.split(" ", 1)
        return f"{(rename or {}).get(first, first)} {last}"

    docs = []
    for i, (person, city) in enumerate(PEOPLE):
        work, study = UNIVERSITIES[i % len(UNIVERSITIES)], UNIVERSITIES[(i * 5 + 3) % len(UNIVERSITIES)]
        who = name(person)
        docs.append(Document(title=who, text=f"{who} was born in {city}. {who} worked at the University of "
                             f"{work}. {who} studied at the University of {study}."))
    for i, (person, city) in enumerate(zip(ASTRONAUTS, CITIES, strict=True)):
        who = name(person)
        docs.append(Document(title=who, text=f"{who} was born in {city}. {who} flew on Apollo {missions + i}."))
    for city, country in COUNTRIES.items():
        text = f"{city} is located in {country}."
        if city in UNIVERSITIES:
            text += f" The University of {city} is located in {city}."
        docs.append(Document(title=city, text=text))
    return docs


def build(store, space: str, minilm, documents: list[Document]) -> MemoryGraph:
    memory = MemoryGraph(space=space, store=store, embedder=minilm, extractor="offline",
                         retrieval=RetrievalConfig())
    memory.ingest(documents, batch_size=8, progress=False)  # several batches: resolution reads the index
    return memory


def rankings(memory: MemoryGraph) -> dict[tuple[str, str], list[str]]:
    return {(method, q): [h.id for h in memory.search(q, method=method, top_k=5).passages]
            for method in METHODS for q in QUESTIONS}


def graph(memory: MemoryGraph, test_store) -> dict:
    space, stats = memory.space, memory.stats()
    return {"nodes": stats["nodes"], "relationships": stats["relationships"],
            "entities": [tuple(sorted(r["aliases"] or [])) + (r["id"], r["name"], r["type"])
                         for r in test_store.read("isolation_entities", space=space)],
            "facts": [tuple(r.values()) for r in test_store.read("isolation_facts", space=space)],
            "similar": {(r["a"], r["b"]): round(r["weight"], 5) for r in test_store.read("isolation_similar",
                                                                                        space=space)}}


@pytest.fixture
def spaces(store):
    names = {key: f"t_iso{key}_{uuid.uuid4().hex[:8]}" for key in "abcd"}
    yield names
    for name in names.values():
        store.run_implicit("admin/delete_space", space=name)
        drop_graphs(store, name)


def test_other_spaces_change_neither_the_build_nor_the_rankings(store, test_store, minilm, spaces):
    a = build(store, spaces["a"], minilm, corpus())
    alone = rankings(a)
    a_graph = graph(a, test_store)
    assert a_graph["similar"] and a_graph["facts"] and len(a_graph["entities"]) > 50  # a graph worth comparing

    build(store, spaces["c"], minilm, corpus())
    build(store, spaces["d"], minilm, corpus(OTHER_FIRST, missions=21))
    b = build(store, spaces["b"], minilm, corpus())

    b_graph = graph(b, test_store)
    for key in ("nodes", "relationships", "entities", "facts", "similar"):
        assert b_graph[key] == a_graph[key], key
    assert rankings(b) == alone
    assert rankings(MemoryGraph(space=spaces["a"], store=store, embedder=minilm, extractor="offline",
                                retrieval=RetrievalConfig())) == alone


def test_lucene_bm25_widens_until_it_has_k_of_the_space(store, test_store, minilm, spaces, monkeypatch):
    # spaces above the in-process cap use the shared Lucene index: another space's better hits fill
    # its first `fetch` places, and the search asks again until it has k of this one
    rows = [{"id": f"p{i}", "title": f"Volcano {i}", "text": "Etna is a volcano on Sicily.", "embedding": None}
            for i in range(3)]
    crowd = [{"id": f"c{i}", "title": f"Etna {i}", "text": "Etna volcano Etna volcano Etna Sicily volcano.",
              "embedding": None} for i in range(40)]
    test_store.write("passages_write", space=spaces["a"], rows=rows)
    test_store.write("passages_write", space=spaces["c"], rows=crowd)
    store.run_implicit("admin/await_indexes", timeout=120)
    hits = SearchRepository(store, spaces["a"]).fulltext("Etna OR volcano OR Sicily", k=3, fetch=2)
    assert sorted(h.id for h in hits) == ["p0", "p1", "p2"]

    monkeypatch.setattr(bm25_index, "MAX_IN_PROCESS_PASSAGES", 2)  # too large for the in-process ranking
    memory = MemoryGraph(space=spaces["a"], store=store, embedder=minilm, extractor="offline")
    retriever = memory.retriever("bm25")
    assert sorted(h.id for h in memory.search("Etna volcano", method="bm25", top_k=3).passages) == ["p0", "p1", "p2"]
    assert retriever.builds == 0
