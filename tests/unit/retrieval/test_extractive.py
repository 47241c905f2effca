"""The extractive answer (retrieval/extractive.py): quoted sentences with citations, no chat model.
Pure, no Neo4j; the real MiniLM embedder scores the sentences."""

from __future__ import annotations

from memgraph_neo4j.retrieval.base import Hit, RetrievalResult
from memgraph_neo4j.retrieval.extractive import (
    ScoredSentence,
    content_terms,
    extractive_answer,
    score_sentences,
    select,
    sentences,
)

CURIE = Hit(id="p-curie", name="Marie Curie", score=0.06,
            text="# Marie Curie\n\nMarie Curie was a physicist and chemist. Marie Curie was born in 1867 in Warsaw.\n"
                 "She won the Nobel Prize in Physics in 1903.")
POLAND = Hit(id="p-poland", name="Scientists from Poland", score=0.02,
             text="# Scientists from Poland\n\nNicolaus Copernicus was born in 1473 in Torun. "
                  "Marie Curie was born in Poland, and she won two Nobel Prizes.")
MICROSOFT = Hit(id="p-ms", name="Microsoft", score=0.04,
                text="Microsoft is an American technology company. Microsoft has its headquarters in Redmond. "
                     "Bill Gates led Microsoft until 2000.")
ENTITIES = [Hit(id="e1", name="Marie Curie", score=0.3), Hit(id="e2", name="Poland", score=0.2),
            Hit(id="e3", name="Warsaw", score=0.1)]


def test_sentences_skip_headings_and_keep_initials_whole():
    assert sentences(CURIE.text or "") == ["Marie Curie was a physicist and chemist.",
                                           "Marie Curie was born in 1867 in Warsaw.",
                                           "She won the Nobel Prize in Physics in 1903."]
    assert sentences("Alan M. Turing met Dr. Smith in 1936. He left.") == ["Alan M. Turing met Dr. Smith in 1936.",
                                                                        "He left."]
    assert sentences("# Only a title\n\n") == []


def test_content_terms_drop_function_words():
    assert content_terms("In which country was Marie Curie born?") == ["country", "marie", "curie", "born"]


def test_the_answer_quotes_the_birth_sentences_and_cites_their_passages(minilm):
    result = RetrievalResult(method="memgraphrag", passages=[CURIE, POLAND, MICROSOFT], entities=ENTITIES)
    answer = extractive_answer("In which country was Marie Curie born?", result, minilm)
    quoted = [q.text for q in answer.quotes]
    assert set(quoted[:2]) == {"Marie Curie was born in 1867 in Warsaw.",
                               "Marie Curie was born in Poland, and she won two Nobel Prizes."}
    assert "Microsoft" not in answer.answer and "Copernicus" not in answer.answer
    assert answer.extractive and answer.model is None and answer.usage.prompt_tokens == 0
    assert answer.cited_passage_ids[:2] in (["p-curie", "p-poland"], ["p-poland", "p-curie"])
    labels = {"p-curie": "P1", "p-poland": "P2", "p-ms": "P3"}
    for quote in answer.quotes:  # every quote is a sentence of the passage it cites, under that label
        hit = next(h for h in result.passages if h.id == quote.passage_id)
        assert quote.text in sentences(hit.text or "") and quote.label == labels[hit.id]
        assert f"{quote.text} [{quote.label}]" in answer.answer


def test_prefix_matching_finds_headquarters_for_headquartered(minilm):
    result = RetrievalResult(method="dense", passages=[CURIE, MICROSOFT])
    best = score_sentences("Where is Microsoft headquartered?", result.passages, [], minilm)[0]
    assert best == ScoredSentence(1, "Microsoft has its headquarters in Redmond.", best.score)


def test_selection_keeps_close_seconds_only():
    scored = [ScoredSentence(0, "a", 1.0), ScoredSentence(1, "a", 0.99), ScoredSentence(0, "b", 0.9),
              ScoredSentence(1, "c", 0.8)]
    assert [s.text for s in select(scored, max_sentences=3, keep_ratio=0.85)] == ["a", "b"]
    assert [s.text for s in select(scored, max_sentences=1)] == ["a"]


def test_no_passage_no_citation(minilm):
    answer = extractive_answer("Who?", RetrievalResult(method="dense", passages=[]), minilm)
    assert answer.cited_passage_ids == [] and answer.quotes == [] and "no passage" in answer.answer
