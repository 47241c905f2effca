"""The lexical route's spans (retrieval/question_entities.py): which words may name an entity."""

from __future__ import annotations

from memgraph_neo4j.memory.normalize import normalize_entity_name
from memgraph_neo4j.retrieval.question_entities import candidate_spans, longest_matches
from memgraph_neo4j.retrieval.seeds import named_entity_seeds


def keys(question: str) -> set[str]:
    return {s.key for s in candidate_spans(question)}


def test_spans_need_a_capitalised_word_after_the_first_or_a_digit():
    found = keys("What county shares a border with Johnnycake, West Virginia in 1999?")
    assert {"johnnycake, west virginia", "west virginia", "johnnycake", "1999"} <= found
    assert "county" not in found and "border" not in found and "what" not in found
    assert keys("who was the first president of the association?") == set()


def test_keys_are_the_alias_keys_of_the_memory():
    for span in candidate_spans("Is \u201cThe Who\u201d from London?"):
        assert span.key == normalize_entity_name(span.key)
    assert "the who" in keys("Is \u201cThe Who\u201d from London?")  # the quotes go, the article stays


def test_overlapping_matches_keep_the_longest():
    spans = candidate_spans("Where is Johnnycake, West Virginia and Ohio?")
    assert longest_matches(spans, {"johnnycake, west virginia", "west virginia", "ohio"}) == [
        "johnnycake, west virginia", "ohio"]
    assert longest_matches(spans, {"west virginia"}) == ["west virginia"]
    assert longest_matches(spans, set()) == []


def test_stop_words_and_short_words_alone_are_not_names():
    assert "the" not in keys("Was it The Hague or The Netherlands?")
    assert "the hague" in keys("Was it The Hague or The Netherlands?")
    assert "it" not in keys("Was It a film?")


def test_named_entities_seed_like_a_perfect_fact_over_their_passages():
    assert named_entity_seeds(["a", "b", "c"], {"a": 4, "b": 1}, weight=1.0) == {"a": 0.25, "b": 1.0, "c": 1.0}
    assert named_entity_seeds(["a"], {"a": 2}, weight=0.5) == {"a": 0.25}
