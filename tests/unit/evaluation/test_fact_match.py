"""Recall matching of hand-annotated facts (evaluation/fact_match.py): ends after normalisation, relation
equal, a synonym, or the declared inverse with the ends swapped; an undeclared relation matches any real one."""

from __future__ import annotations

from memgraph_neo4j.evaluation.fact_match import Expected, entity_key, found, score
from memgraph_neo4j.memory.ontology import load_ontology

ONTOLOGY = load_ontology()


def test_entity_key_ignores_article_case_and_hyphen_spacing() -> None:
    assert entity_key("The Flower of Hawaii") == entity_key("flower of hawaii")
    assert entity_key("Frito - Lay") == entity_key("Frito-Lay")
    assert entity_key("Heinkel HD") != entity_key("Heinkel HD 23")  # a truncated name is another name


def test_relation_equal_synonym_or_inverse() -> None:
    e = Expected(("Sophie",), "child_of", ("Anna",))
    assert found(e, [("Sophie", "child_of", "Anna")], ONTOLOGY)
    assert found(e, [("Anna", "parent_of", "Sophie")], ONTOLOGY)  # the declared inverse, ends swapped
    assert not found(e, [("Anna", "child_of", "Sophie")], ONTOLOGY)  # the wrong way round
    assert not found(e, [("Sophie", "spouse_of", "Anna")], ONTOLOGY)
    assert found(Expected(("A",), "married to", ("B",)), [("B", "spouse_of", "A")], ONTOLOGY)  # synonym, symmetric
    assert not found(e, [("Sophie", "co_occurs_with", "Anna")], ONTOLOGY)


def test_undeclared_relation_matches_any_real_relation_between_the_ends() -> None:
    e = Expected(("Gorkhas", "Gurkhas"), "annexed", ("Shimla",))
    assert found(e, [("Shimla", "annex", "Gurkhas")], ONTOLOGY)
    assert not found(e, [("Gurkhas", "co_occurs_with", "Shimla")], ONTOLOGY)


def test_score_counts_only_correct_labelled_real_facts() -> None:
    passage = {"facts": [{"head": "X", "relation": "born_in", "tail": "Y", "correct": True},
                         {"head": "X", "relation": "died_in", "tail": "Z", "correct": False, "reason": "no"}],
               "expected": [{"head": "X", "relation": "born_in", "tail": "Y"},
                            {"head": "X", "relation": "died_in", "tail": "Z"},
                            {"head": "X", "relation": "likes", "tail": "W", "speaker": True}]}
    produced = [("X", "born_in", "Y"), ("X", "died_in", "Z"), ("X", "lives_in", "Q"), ("X", "co_occurs_with", "W")]
    s = score([passage], [produced], ONTOLOGY, names=[["X", "Y", "Z", "W", "Q"]])
    assert (s.real, s.correct, s.unlabelled) == (2, 1, 1)  # the unlabelled fact is reported, not judged
    assert (s.expected, s.found, s.precision) == (3, 1, 0.5)
    assert s.orphans == 1  # W only co-occurs
    assert score([passage], [produced], ONTOLOGY, speaker_facts=False).expected == 2
