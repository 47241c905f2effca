"""Passage title keys (memory/title_keys.py): the memory_state_names index seek finds exactly the passages
that matching every title of the space finds, and memories written without the keys get them."""

from __future__ import annotations

from test_memory import ScriptedExtractor

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.ingest.readers import Document
from memgraph_neo4j.memory.title_keys import backfill_title_keys
from memgraph_neo4j.repository.changes import ChangeRepository
from memgraph_neo4j.repository.passages import PassageRepository
from memgraph_neo4j.repository.search import SearchRepository
from memgraph_neo4j.retrieval import RetrievalContext, make_retriever
from memgraph_neo4j.retrieval.changes import ChangeFeed
from memgraph_neo4j.retrieval.question_entities import TitleIndex, candidate_spans, titled_passages

# titles that normalise alike ("Christopher Nolan" twice), accents, punctuation, a number, one without
# a word (key ""), and a passage without a title (title "")
TITLES = ["Christopher Nolan", "CHRISTOPHER  NOLAN.", "São Paulo", "Johnnycake, West Virginia", "The Hobbit",
          "AC/DC", "1984", "“Warsaw”", "!!!", ""]
QUESTIONS = ["Where was Christopher Nolan born?", "Is São Paulo bigger than Johnnycake, West Virginia?",
             "Who wrote The Hobbit in 1984?", "Did AC/DC play in Warsaw?", "Which band is AC / DC?",
             "who lives in sao paulo", "What is !!!?"]


def scanned(search: SearchRepository) -> dict[str, list[str]]:
    """Passage ids by normalised title from every title of the space (the scan the key replaces)."""
    return TitleIndex(search.passage_titles, feed(search)).copy.at(0).by_key


def question_names(search: SearchRepository, title_keys: list[str]):
    return search.state_and_names("mg_none_v", [], title_keys)[1]


def feed(search) -> ChangeFeed:
    return ChangeFeed(ChangeRepository(search.store, search.space), lambda: 0)


def found_by_key(search: SearchRepository, spans) -> tuple[bool, list[str]]:
    names = question_names(search, sorted({s.key for s in spans}))
    return names.keyed, titled_passages(spans, names.titles)


def test_title_keys_find_what_the_title_scan_finds(store, space, minilm, test_store):
    memory = MemoryGraph(space=space, store=store, embedder=minilm, extractor=ScriptedExtractor({}))
    memory.ingest([Document(title=t, text=f"Passage number {i} of the title test.") for i, t in enumerate(TITLES)],
                  progress=False)
    search = SearchRepository(store, space)
    by_title = scanned(search)
    assert len(by_title["christopher nolan"]) == 2 and "" not in by_title  # one title key, two passages
    # every key the scan knows, sought through the index: the same passages, in the same order
    names = question_names(search, sorted(by_title))
    assert names.keyed and names.titles == by_title
    for question in QUESTIONS:
        spans = candidate_spans(question)
        assert found_by_key(search, spans) == (True, TitleIndex(search.passage_titles, feed(search)).passages(spans, 0))
    spans = candidate_spans(QUESTIONS[1])
    assert len(found_by_key(search, spans)[1]) == 2  # São Paulo, Johnnycake

    # a memory written without the keys: nothing is sought by key, retrieval reads the titles instead ...
    context = RetrievalContext(store, space, minilm, RetrievalConfig())
    retriever, version = make_retriever("memgraphrag", context), context.layers.repository.version()
    expected = [retriever.names(q, version) for q in QUESTIONS]
    assert any(titled for _, titled in expected)
    assert test_store.write("forget_title_keys", space=space)[0]["passages"] == len(TITLES)
    assert found_by_key(search, spans) == (False, [])
    version = context.layers.repository.version()
    assert [retriever.names(q, version) for q in QUESTIONS] == expected
    PassageRepository(store, space).bump_version()  # a write of this code does not mark them complete
    assert not question_names(search, ["sao paulo"]).keyed
    # ... until the backfill stores them: the same keys as the writer's, complete again
    assert backfill_title_keys(store, space) == (len(TITLES) - 1, 1)
    assert backfill_title_keys(store, space) == (0, 0)
    names = question_names(search, sorted(by_title))
    assert names.keyed and names.titles == by_title
    version = context.layers.repository.version()
    assert [retriever.names(q, version) for q in QUESTIONS] == expected
