"""Offline extractor and offline entity typing: no LLM, no network, no Neo4j."""

from __future__ import annotations

import numpy as np
import pytest

from memgraph_neo4j.contracts import Extraction, ExtractionInput, Extractor, NoGuide
from memgraph_neo4j.embeddings.base import Embedder
from memgraph_neo4j.extractors.offline import CO_OCCURS, OfflineExtractor, load_spacy
from memgraph_neo4j.extractors.typing import TypeAssigner, rule_type
from memgraph_neo4j.memory.ontology import load_ontology

ONTOLOGY = load_ontology()
RELATIONS = {r.name for r in ONTOLOGY.relations}

TEXT = (
    "Barack Obama was born in Honolulu on August 4, 1961. He was the 44th president of the United States. "
    "Obama married Michelle Robinson in 1992. Paris is the capital of France. "
    "Microsoft was founded by Bill Gates and Paul Allen in 1975. "
    "Jaws is a 1975 American thriller film directed by Steven Spielberg. "
    "Albert Einstein (14 March 1879 – 18 April 1955) was a theoretical physicist. Einstein died in Princeton. "
    "Springfield is a city in Illinois. The University of Copenhagen is a member of the International Alliance "
    "of Research Universities. Ajax has a population of 126,666."
)


@pytest.fixture(scope="module")
def heuristic() -> OfflineExtractor:
    return OfflineExtractor(ONTOLOGY, ner="heuristic")


def triples(ex: Extraction) -> set[tuple[str, str, str]]:
    return {(f.head, f.relation, f.tail) for f in ex.facts}


def test_pattern_facts_have_right_direction_and_ontology_names(heuristic: OfflineExtractor) -> None:
    got = triples(heuristic.extract_text(TEXT))
    expected = {
        ("Barack Obama", "born_in", "Honolulu"),
        ("Barack Obama", "president_of", "United States"),  # "He" = the chunk's first named entity
        ("Obama", "spouse_of", "Michelle Robinson"),
        ("Paris", "capital_of", "France"),
        ("Microsoft", "founded_by", "Bill Gates"),
        ("Jaws", "directed_by", "Steven Spielberg"),
        ("Albert Einstein", "birth_date", "14 March 1879"),
        ("Albert Einstein", "date_of_death", "18 April 1955"),
        ("Einstein", "died_in", "Princeton"),
        ("Springfield", "located_in", "Illinois"),
        ("University of Copenhagen", "member_of", "International Alliance of Research Universities"),
        ("Ajax", "population", "126,666"),
        ("Jaws", "instance_of", "American thriller film"),
    }
    assert expected <= got, expected - got
    assert ("Honolulu", "born_in", "Barack Obama") not in got
    assert {r for _, r, _ in got} <= RELATIONS | {CO_OCCURS}


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Marie Curie was born in Warsaw.", ("Marie Curie", "born_in", "Warsaw")),
        ("Marie Curie, who was born in Warsaw, studied physics.", ("Marie Curie", "born_in", "Warsaw")),
        ("Hans Edler (born in Stockholm on 23 March 1945) is a singer.", ("Hans Edler", "born_in", "Stockholm")),
        ("Kim Young-chul (born June 30, 1976) is a footballer.", ("Kim Young-chul", "birth_date", "June 30, 1976")),
        ("Nadia Boulanger was born on 16 September 1887 in Paris.", ("Nadia Boulanger", "born_in", "Paris")),
        ("In 1975, Bill Gates founded Microsoft.", ("Microsoft", "founded_by", "Bill Gates")),
        ("Martin Scorsese directed Taxi Driver.", ("Taxi Driver", "directed_by", "Martin Scorsese")),
        ("Dracula is a novel written by Bram Stoker.", ("Dracula", "created_by", "Bram Stoker")),
        ("Canberra is the capital city of Australia.", ("Canberra", "capital_of", "Australia")),
        ("The Eiffel Tower is located in Paris.", ("Eiffel Tower", "located_in", "Paris")),
        ("Wales is part of the United Kingdom.", ("Wales", "part_of", "United Kingdom")),
        ("Prince Henry was the son of King John.", ("Prince Henry", "child_of", "King John")),
        ("Butterfly Pond, also known as Aldrich Brook, is a lake.",
         ("Butterfly Pond", "also_known_as", "Aldrich Brook")),
    ],
)
def test_born_in_style_sentences(heuristic: OfflineExtractor, text: str, fact: tuple[str, str, str]) -> None:
    assert fact in triples(heuristic.extract_text(text))


def test_no_fact_for_a_phrase_inside_another(heuristic: OfflineExtractor) -> None:
    # The album was released in 1998, not the band; Y did not direct X.
    got = triples(heuristic.extract_text(
        "Bad Day is an album by the band The Vandals, released in 1998. "
        "Gremlins is a remake of the film Critters directed by Joe Dante."))
    assert not any(r == "publication_date" and h == "Vandals" for h, r, _ in got)
    assert ("Gremlins", "directed_by", "Joe Dante") not in got


def test_every_fact_is_grounded_and_typed(heuristic: OfflineExtractor) -> None:
    ex = heuristic.extract_text(TEXT)
    names = {e.name for e in ex.entities}
    types = {t.name for t in ONTOLOGY.entity_types}
    for f in ex.facts:
        assert f.head in names and f.tail in names
        assert f.head in TEXT and f.tail in TEXT
        assert f.head_type in types and f.tail_type in types
    by_name = {e.name: e.type for e in ex.entities}
    assert by_name["August 4, 1961"] == "Date" and by_name["126,666"] == "Quantity"
    assert by_name["Barack Obama"] == "Person" and by_name["Honolulu"] == "Place"  # from born_in's domain/range
    assert by_name["University of Copenhagen"] == "Organization"  # head-word rule


def test_time_qualifier_for_temporal_relation(heuristic: OfflineExtractor) -> None:
    ex = heuristic.extract_text("Obama married Michelle Robinson in 1992.")
    (fact,) = [f for f in ex.facts if f.relation == "spouse_of"]
    assert fact.time == "1992"


def test_heuristic_ner_spans(heuristic: OfflineExtractor) -> None:
    ex = heuristic.extract_text(
        "The Journal of Mathematical Physics is published by the American Institute of Physics. "
        "In 1998 J. K. Rowling moved to the U.S. Army base near Fort Bragg. Born in Paris, she ran 12 km. "
        "However, Obama's speech in May was long.")
    names = [e.name for e in ex.entities]
    for expected in ("Journal of Mathematical Physics", "American Institute of Physics", "J. K. Rowling",
                     "U.S. Army", "Fort Bragg", "Paris", "1998", "12 km", "Obama"):
        assert expected in names, (expected, names)
    for junk in ("The", "In", "Born", "However", "May", "The Journal of Mathematical Physics", "Obama's"):
        assert junk not in names


def test_cooccurrence_is_a_bounded_fallback(heuristic: OfflineExtractor) -> None:
    people = ["Alan Turing", "Ada Lovelace", "Grace Hopper", "John von Neumann", "Claude Shannon", "Edsger Dijkstra",
              "Donald Knuth", "Barbara Liskov", "Tony Hoare", "Niklaus Wirth", "Dennis Ritchie", "Ken Thompson"]
    text = ("Marie Curie was born in Warsaw. Paris is the capital of France. The meeting included "
            + ", ".join(people) + ". Later, Alan Turing met Ada Lovelace.")
    facts = triples(heuristic.extract_text(text))
    co = [(h, t) for h, r, t in facts if r == CO_OCCURS]
    real = [(h, t) for h, r, t in facts if r != CO_OCCURS]
    assert {("Marie Curie", "Warsaw"), ("Paris", "France")} <= set(real)
    # only names no real fact links get a neighbour, at most one per sentence and never more than the real facts
    linked = {n for pair in real for n in pair}
    assert co and all(not {h, t} <= linked for h, t in co)
    assert len(co) <= max(heuristic.max_pairs * 2, 1) and len(co) <= len(real)
    assert ("Alan Turing", "Ada Lovelace") in co  # the nearest name, within `window`
    for h, t in co:
        assert 0 < people.index(t) - people.index(h) <= heuristic.window
    tight = OfflineExtractor(ONTOLOGY, ner="heuristic", cooccurrence_ratio=0.0)
    assert len([f for f in tight.extract_text(text).facts if f.relation == CO_OCCURS]) == 1  # at least one allowed


def test_no_cooccurrence_between_dates_only_or_across_sentences(heuristic: OfflineExtractor) -> None:
    ex = heuristic.extract_text("From 1990 to 1995 it rained. Paris is big. Rome is old.")
    assert not [f for f in ex.facts if f.relation == CO_OCCURS]


def test_extractor_protocol_usage_order_and_determinism(heuristic: OfflineExtractor) -> None:
    assert isinstance(heuristic, Extractor) and heuristic.name == "offline"
    items = [ExtractionInput(passage_id=f"p{i}", doc_id="d", text=t)
             for i, t in enumerate([TEXT, "Rome is the capital of Italy.", "   ", "Marie Curie was born in Warsaw."])]
    first = heuristic.extract(items, NoGuide())
    assert [o.passage_id for o in first] == ["p0", "p1", "p2", "p3"]
    assert all(o.ok and o.extractor == "offline" for o in first)
    assert all(o.usage.prompt_tokens == o.usage.completion_tokens == 0 and o.usage.cost == 0 for o in first)
    assert first[2].extraction is not None and first[2].extraction.facts == []
    again = OfflineExtractor(ONTOLOGY, ner="heuristic").extract(list(reversed(items)), NoGuide())
    assert [o.model_dump() for o in reversed(again)] == [o.model_dump() for o in first]


@pytest.mark.skipif(load_spacy() is None, reason="spaCy with an English model is not installed (optional extra)")
def test_spacy_ner_path() -> None:
    ex = OfflineExtractor(ONTOLOGY, ner="spacy")
    assert ex.ner == "spacy"
    result = ex.extract_text("Barack Obama was born in Honolulu on August 4, 1961. Paris is the capital of France.")
    assert {("Barack Obama", "born_in", "Honolulu"), ("Paris", "capital_of", "France")} <= triples(result)
    assert {e.name: e.type for e in result.entities}["Barack Obama"] == "Person"


# -- TypeAssigner --------------------------------------------------------------------------


class CountingEmbedder(Embedder):
    """Wraps the bundled MiniLM and counts the texts it embeds."""

    name = "counting-minilm"

    def __init__(self) -> None:
        from memgraph_neo4j.embeddings.minilm import get_minilm

        self.inner = get_minilm()
        self.texts: list[str] = []

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def _embed(self, texts: list[str], batch_size: int, show_progress: bool) -> np.ndarray:
        self.texts += texts
        return self.inner.embed_documents(texts, batch_size=batch_size)


@pytest.fixture(scope="module")
def embedder() -> CountingEmbedder:
    return CountingEmbedder()


def test_rule_types() -> None:
    for name in ("1998", "1990s", "19th century", "4 July 1776", "July 4, 1776", "January 1960", "300 BC", "1998–2001"):
        assert rule_type(name) == "Date", name
    for name in ("12 km", "$5 million", "40%", "126,666", "1.355", "5 million"):
        assert rule_type(name) == "Quantity", name
    assert rule_type("University of Copenhagen") == "Organization"
    assert rule_type("Mississippi River") == "Place"
    assert rule_type("Nobel Prize") == "Award"
    for name in ("Paris", "Barack Obama", "1998 FIFA World Cup", "Lake", ""):
        assert rule_type(name) is None, name


def test_type_assigner_nearest_type_and_cache(embedder: CountingEmbedder) -> None:
    ta = TypeAssigner(ONTOLOGY, embedder)
    embedder.texts.clear()
    names = ["Barack Obama", "Paris", "1998", "Albert Einstein", "France", "Mount Everest", "English", "paris", "12 km"]
    types = ta.assign(names)
    assert types[:3] == ["Person", "Place", "Date"]
    assert types[names.index("Albert Einstein")] == "Person"
    assert types[names.index("France")] == "Place"
    assert types[names.index("English")] == "Language"
    assert types[names.index("paris")] == "Place"
    # rules never reach the embedder; "Paris"/"paris" share one cache entry
    assert "1998" not in embedder.texts and "12 km" not in embedder.texts
    assert len(embedder.texts) == len(set(embedder.texts)) == 5
    embedder.texts.clear()
    assert ta.assign(["Paris", "Barack Obama"]) == ["Place", "Person"]
    assert embedder.texts == []  # cached
    assert ta.assign([]) == []


def test_offline_extractor_with_embedder_types(embedder: CountingEmbedder) -> None:
    ex = OfflineExtractor(ONTOLOGY, embedder, ner="heuristic")
    result = ex.extract_text("Princeton, New Jersey is home to Michelle Robinson and the Eiffel Tower.")
    types = {e.name: e.type for e in result.entities}
    assert types["Michelle Robinson"] == "Person"
    assert types["Princeton"] == types["New Jersey"] == "Place"
    assert ("Princeton", "located_in", "New Jersey") in triples(result)  # 'A, B' with both places
