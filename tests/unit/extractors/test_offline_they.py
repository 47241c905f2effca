"""'They' as a subject stands for its scope's topic when the topic is an organisation or a group (arguments.py),
as he/she stand for a person and it for a thing. One passage of our own per case."""

from __future__ import annotations

from rule_sentences import facts, needs_spacy

from memgraph_neo4j.extractors.offline import OfflineExtractor

pytestmark = needs_spacy


def test_they_is_the_band_topic(ex: OfflineExtractor) -> None:
    got = facts(ex, "The Rolling Stones are an English rock band formed in London in 1962. "
                    "They were joined by bassist Rita Moreno and drummer Paul Kessler in 2003.")
    assert {("Rita Moreno", "member_of", "Rolling Stones"), ("Paul Kessler", "member_of", "Rolling Stones")} <= got


def test_they_is_no_person_topic(ex: OfflineExtractor) -> None:
    got = facts(ex, "Daniel Walsh is an English singer. They were joined by Rita Moreno in 2003.")
    assert not any(r == "member_of" for _, r, _ in got)
