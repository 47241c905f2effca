"""A group's members listed after "members" (members.py). One sentence of our own per case."""

from __future__ import annotations

from rule_sentences import facts, needs_spacy

from memgraph_neo4j.extractors.offline import OfflineExtractor

pytestmark = needs_spacy


def test_its_members_were_a_b_and_c_are_the_topic_groups_members(ex: OfflineExtractor) -> None:
    got = facts(ex, "Thornfield was a folk rock band which was formed in 1991 in Leeds. "
                    "Its members were Daniel Walsh (aka \"Dusty\") on vocals, Peter Hollis on guitar and "
                    "Simon Archer on drums.")
    assert {("Daniel Walsh", "member_of", "Thornfield"), ("Peter Hollis", "member_of", "Thornfield"),
            ("Simon Archer", "member_of", "Thornfield")} <= got
    assert not any(h == "Dusty" for h, r, _ in got if r == "member_of")  # the bracket's alias is no member


def test_members_of_a_person_topic_are_not_read(ex: OfflineExtractor) -> None:
    got = facts(ex, "Daniel Walsh is an English singer. Notable former members include Peter Hollis and Simon Archer.")
    assert not any(r == "member_of" for _, r, _ in got)
