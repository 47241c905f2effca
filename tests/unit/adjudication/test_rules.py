"""The offline adjudication rules and the grouping of conflicting facts: pure, no Neo4j."""

from __future__ import annotations

from memgraph_neo4j.adjudication.groups import connected_groups
from memgraph_neo4j.adjudication.model import Group, PairJudgement
from memgraph_neo4j.adjudication.rules import RuleClassifier, RuleResolver, is_duplicate, time_span
from memgraph_neo4j.contracts import ConflictType, Verdict
from memgraph_neo4j.memory.ontology import load_ontology
from memgraph_neo4j.repository.conflicts import Candidate, EvidencePassage, FactEvidence

RULES = load_ontology().consistency_rules()


def fact(id_: str, head: str, relation: str, tail: str, time: str | None = None, passages: int = 1,
         tail_type: str = "Place") -> FactEvidence:
    return FactEvidence(id_, f"{head} {relation} {tail}", relation, time, "active", f"h:{head}", head, f"t:{tail}",
                        tail, "Person", tail_type, None, None,
                        tuple(EvidencePassage(f"p{i}", None, "...") for i in range(passages)))


def judge(a: FactEvidence, b: FactEvidence, rule: str, **kw) -> PairJudgement:
    [pair] = RuleClassifier(RULES).classify(a, [(Candidate(a.id, b.id, rule, **kw), b)])
    return pair


def test_time_spans():
    assert time_span("2017-2021") == ("2017", "2021")
    assert time_span("from 1998 to 2004") == ("1998", "2004")
    assert time_span("1643") == ("1643", None)
    assert time_span("until 2001") == (None, "2001") and time_span("between 1990 and 2005") == ("1990", "2005")
    assert time_span("spring") == ("spring", None) and time_span(None) == (None, None)


def test_classification_by_rule():
    a, b = fact("a", "Yao", "born_in", "Shanghai"), fact("b", "Yao", "born_in", "China")
    assert judge(a, b, "functional", granularity=True, finer="a").type == ConflictType.GRANULARITY
    assert judge(a, b, "functional").type == ConflictType.MUTUAL_EXCLUSION
    assert judge(a, b, "similar").type == ConflictType.NONE
    # open extraction files a birth year and a birthplace under one relation: two attributes, no clash
    year = fact("y", "Yao", "born_in", "1980", tail_type="Date")
    assert judge(year, b, "functional").type == ConflictType.NONE
    assert judge(fact("t", "Yao", "born_in", "Somewhere", tail_type="Thing"), b, "functional").type == \
        ConflictType.MUTUAL_EXCLUSION  # an untyped value may still clash
    dated = fact("c", "Biden", "president_of", "USA", "2021"), fact("d", "Trump", "president_of", "USA", "2017")
    assert judge(*dated, "inverse_functional").type == ConflictType.TEMPORAL
    undated = fact("e", "Biden", "president_of", "USA"), fact("f", "Trump", "president_of", "USA", "2017")
    assert judge(*undated, "inverse_functional").type == ConflictType.MUTUAL_EXCLUSION


def test_duplicates_need_same_names_relation_and_compatible_times():
    curie = fact("a", "Marie Curie", "born_in", "Warsaw")
    assert is_duplicate(curie, fact("b", "marie  curie", "born_in", "Warsaw", "1867"))
    assert not is_duplicate(fact("c", "Marie Curie", "born_in", "Warsaw", "1866"),
                            fact("d", "Marie Curie", "born_in", "Warsaw", "1867"))
    assert not is_duplicate(curie, fact("e", "Marie Curie", "died_in", "Warsaw"))


def test_resolution_of_each_kind():
    resolver = RuleResolver()
    a, b = fact("a", "Curie", "born_in", "Warsaw"), fact("b", "Curie", "born_in", "Warsaw", "1867")
    dup = resolver.resolve(Group([a, b], [PairJudgement("a", "b", ConflictType.DUPLICATE, 1.0, "", "similar")]))
    assert [(d.fact, d.verdict, d.into) for d in dup.decisions] == [("a", Verdict.MERGE, "b"), ("b", Verdict.KEEP, None)]
    fine, coarse = fact("f", "Yao", "born_in", "Shanghai"), fact("c", "Yao", "born_in", "China")
    pair = PairJudgement("f", "c", ConflictType.GRANULARITY, 1.0, "", "functional")
    refined = resolver.resolve(Group([fine, coarse], [pair], {("f", "c"): Candidate("f", "c", "functional", True, "f")}))
    assert [(d.verdict, d.relation) for d in refined.decisions] == [(Verdict.KEEP, None),
                                                                     (Verdict.REFINE, "born_in_broader")]
    unknown = resolver.resolve(Group([fine, coarse], [pair], {("f", "c"): Candidate("f", "c", "functional", True)}))
    assert unknown.decisions == []
    t1, t2 = fact("x", "Biden", "president_of", "USA", "2021-2025"), fact("y", "Trump", "president_of", "USA", "2017")
    timed = resolver.resolve(Group([t1, t2], [PairJudgement("x", "y", ConflictType.TEMPORAL, 1.0, "", "functional")]))
    assert [(d.verdict, d.valid_from, d.valid_to) for d in timed.decisions] == [
        (Verdict.QUALIFY, "2021", "2025"), (Verdict.QUALIFY, "2017", None)]
    clash = resolver.resolve(Group([t1, t2], [PairJudgement("x", "y", ConflictType.MUTUAL_EXCLUSION, 1.0, "", "f")]))
    assert clash.decisions == [] and "review" in clash.rationale


def test_groups_are_connected_components():
    pairs = [PairJudgement(a, b, ConflictType.MUTUAL_EXCLUSION, 1.0, "", "functional")
             for a, b in (("y", "x"), ("a", "b"), ("c", "b"))]
    groups = connected_groups(pairs)
    assert [ids for ids, _ in groups] == [["a", "b", "c"], ["x", "y"]]
    assert [len(inside) for _, inside in groups] == [2, 1]
