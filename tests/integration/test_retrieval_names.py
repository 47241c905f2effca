"""memgraphrag's additions over the paper (issue 13): the question's names (entities and passage
titles) as seeds, and the fusion by shares. Each switch changes only its own part."""

from __future__ import annotations

import pytest
from test_retrieval import QUESTION, Session, memory, ontology, reference, same_ranking  # noqa: F401 - fixtures

from memgraph_neo4j.config import RetrievalConfig, SeedConfig
from memgraph_neo4j.repository.projections import ProjectionRepository
from memgraph_neo4j.retrieval import make_retriever


def test_named_entities_are_found_by_alias_longest_first(memory, store, space, minilm):
    """The lexical route: capitalised spans of the question, looked up as alias keys."""
    retriever = make_retriever("memgraphrag", Session(store, space, minilm, RetrievalConfig()).context)
    version = retriever.context.layers.repository.version()
    nodes = ProjectionRepository(store, space).nodes()
    names = dict(zip(nodes.ids, nodes.names, strict=True))
    entities, titled = retriever.names("Was Marie Curie born in Warsaw, Poland?", version)
    assert [names[e] for e in entities] == ["Marie Curie", "Warsaw", "Poland"]
    # passages titled "Curie" and "Warsaw" are named too (titles match any span, not only the longest)
    assert [names[p] for p in titled] == ["Curie", "Warsaw"]
    # lower-case words are not names: "warsaw" in a question of common words seeds nothing
    assert retriever.names("was marie curie born in warsaw", version) == ([], [])
    assert make_retriever("hipporag2", retriever.context).names("Was Marie Curie born?", version) == ([], [])


def test_name_weights_change_only_the_seeds(memory, store, space, minilm):
    question = "Did Alan Turing ever visit Warsaw?"

    def run(named: float, titles: float):
        seeds = SeedConfig(named_entity_weight=named, title_weight=titles)
        return Session(store, space, minilm, reference(seeds=seeds)).search(question, top_k=3, top_m=10)

    without, named, titled = run(0.0, 0.0), run(1.0, 0.0), run(0.0, 1.0)
    for result in (named, titled):
        assert [f.id for f in result.facts] == [f.id for f in without.facts]  # same fact hits
        assert [s.id for s in result.schemas] == [s.id for s in without.schemas]
    # Warsaw is named but no retrieved fact is about it: only the named route lifts the entity ...
    assert {e.name: e.score for e in named.entities}["Warsaw"] > {e.name: e.score for e in without.entities}.get(
        "Warsaw", 0.0)
    # ... and only the title route seeds the passage titled "Warsaw" itself
    passage = {p.name: p.score for p in titled.passages}
    assert passage["Warsaw"] > {p.name: p.score for p in without.passages}.get("Warsaw", 0.0)


def test_fusion_changes_only_the_passage_order(memory, store, space, minilm):
    plain = Session(store, space, minilm, reference(layer_search="local", ppr_engine="local"))
    fused = Session(store, space, minilm, reference(layer_search="local", ppr_engine="local", fusion="shares",
                                                    fusion_confidence_top=0))
    for question in (QUESTION, "Where was Alan Turing born?", "capital of Poland"):
        a = plain.search(question, top_k=3, top_m=5)
        b = fused.search(question, top_k=3, top_m=5)
        assert [f.id for f in a.facts] == [f.id for f in b.facts]
        same_ranking(a.model_copy(update={"passages": []}), b.model_copy(update={"passages": []}), 0.0)
        assert {p.id for p in b.passages} == {p.id for p in a.passages}  # three passages: all of them
        assert sum(p.score for p in b.passages) == pytest.approx(2.0)  # each route's shares sum to 1
    # a question of words only BM25 ranks: the fused order follows the words where the walk is flat
    b = fused.search("Vistula river", top_k=1)
    assert b.passages[0].name == "Warsaw"
    # the gds engine hands the fusion the same PageRank scores and passage mass as the local one
    gds = Session(store, space, minilm, reference(layer_search="local", fusion="shares", fusion_confidence_top=0))
    for question in (QUESTION, "Where was Alan Turing born?"):
        same_ranking(gds.search(question, top_k=3, top_m=5), fused.search(question, top_k=3, top_m=5))


def test_fusion_stop_words_change_only_the_bm25_route(memory, store, space, minilm):
    """`fusion_stop_words`: the fusion's BM25 reads the question without function words; the walk is untouched."""
    def session(drop: str | None) -> Session:
        return Session(store, space, minilm, reference(layer_search="local", ppr_engine="local", fusion="shares",
                                                       fusion_stop_words=drop, fusion_confidence_top=0))

    content, every = session("function"), session(None)
    question = "Was the capital of Poland on the Vistula?"  # "was", "the", "of", "on" match other passages
    a, b = content.search(question, top_k=3, top_m=5), every.search(question, top_k=3, top_m=5)
    assert [f.id for f in a.facts] == [f.id for f in b.facts]
    same_ranking(a.model_copy(update={"passages": []}), b.model_copy(update={"passages": []}), 0.0)
    assert {p.id for p in a.passages} == {p.id for p in b.passages}
    assert sum(p.score for p in a.passages) == pytest.approx(2.0)  # still each route's shares summing to 1
    assert [p.score for p in a.passages] != pytest.approx([p.score for p in b.passages])
    # words alone decide: function words spread BM25's share over the passages they match
    warsaw = {p.name: p.score for p in a.passages}["Warsaw"]
    assert warsaw > {p.name: p.score for p in b.passages}["Warsaw"]
    # a question of stop words only keeps them all (content_words), so both read the same words
    only = "Was it in the?"
    same_ranking(content.search(only, top_k=3, top_m=5), every.search(only, top_k=3, top_m=5))
    # the same with NLTK's list ("there" is one of its stop words, not a function word)
    assert session("nltk").search("Was it there?", top_k=3).passages == every.search("Was it there?", top_k=3).passages


def test_fusion_confidence_changes_only_the_passage_scores(memory, store, space, minilm):
    """`fusion_confidence_top`: each route's shares weighted by its top passages' share; the walk is untouched."""
    def session(top: int, **options) -> Session:
        return Session(store, space, minilm, reference(layer_search="local", fusion="shares",
                                                       fusion_confidence_top=top, **options))

    equal, weighted = session(0, ppr_engine="local"), session(1, ppr_engine="local")
    for question in (QUESTION, "Was the capital of Poland on the Vistula?"):
        a, b = equal.search(question, top_k=3, top_m=5), weighted.search(question, top_k=3, top_m=5)
        assert [f.id for f in a.facts] == [f.id for f in b.facts]
        same_ranking(a.model_copy(update={"passages": []}), b.model_copy(update={"passages": []}), 0.0)
        assert {p.id for p in a.passages} == {p.id for p in b.passages}
        assert 0 < sum(p.score for p in b.passages) < 2.0  # each route's weight is its top-1 share, < 1
        # the GDS engine hands the fusion the same scores and totals: the same weights
        same_ranking(session(1).search(question, top_k=3, top_m=5), b)
