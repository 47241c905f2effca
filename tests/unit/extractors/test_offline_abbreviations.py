"""An abbreviation in brackets after a name the NER cut at "of the" (names.abbreviations): the abbreviation's
letters join the two parts back. One sentence of our own."""

from __future__ import annotations

from rule_sentences import facts, needs_spacy

from memgraph_neo4j.extractors.offline import OfflineExtractor

pytestmark = needs_spacy


def test_the_abbreviation_joins_a_name_cut_at_of_the(ex: OfflineExtractor) -> None:
    got = facts(ex, "In 1979 it split from the Communist Party of the Basque Country (PCEH) and joined the "
                    "Workers' League of the Galician Country (LOPG).")
    assert ("Communist Party of the Basque Country", "also_known_as", "PCEH") in got
