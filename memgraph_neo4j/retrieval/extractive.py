"""An answer without a chat model: the sentences of the retrieved passages that best support the question.

Nothing is generated. Each sentence of the top passages is scored by
- its MiniLM cosine to the question (the embedder that retrieval already loaded),
- the share of the question's content words it contains (a prefix match: "headquartered" ~ "headquarters"),
- whether it names a top-ranked entity that the question does not name: such a sentence holds a
  candidate answer ("Marie Curie was born in Poland" for "In which country was Marie Curie born?"),
- a little of its passage's retrieval score, so ties go to the better-ranked passage.
The best sentence is kept, then others scoring at least `keep_ratio` of it, up to `max_sentences`; each is
quoted with the label of its passage ([P1] ...), and those passages are the answer's citations.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memgraph_neo4j.embeddings.base import Embedder
from memgraph_neo4j.retrieval.answer import Answer, FactsOf, Quote
from memgraph_neo4j.retrieval.base import Hit, RetrievalResult, Retriever

__all__ = ["ScoredSentence", "answer_extractive", "content_terms", "extractive_answer", "score_sentences", "select",
           "sentences"]

WEIGHTS = {"similarity": 0.5, "overlap": 0.3, "answer_entity": 0.15, "rank": 0.05}
_STOP = frozenset(
    "a an the of in on at to for by with from and or but not is was were are be been being has have had do does "
    "did which what who whom whose when where why how that this these those it its his her their he she they "
    "them as into than then there here also any some all one many much more most can could would should will".split()
)
_WORD = re.compile(r"\w+")
# a sentence ends at . ! ? after two lower-case letters or digits ("Warsaw.", "1912."; not the initial in
# "Alan M. Turing" nor "Dr. Smith"), then a space and a capital, digit or quote; or after a closing quote
_SENTENCE_END = re.compile(r"(?<=[a-z0-9]{2}[.!?])\s+(?=[\"'\u201c(]?[A-Z0-9])|(?<=[.!?][\"'\u201d)])\s+")
_MIN_PREFIX = 4  # "sail" ~ "sailed"; shorter words must match exactly


@dataclass(frozen=True)
class ScoredSentence:
    passage: int  # index into the retrieval result's passages
    text: str
    score: float


def sentences(text: str) -> list[str]:
    """The sentences of a passage; Markdown heading lines ("# Title") are not sentences."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        out += [s.strip() for s in _SENTENCE_END.split(line) if s.strip()]
    return out


def content_terms(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 1]


def _matches(term: str, words: set[str]) -> bool:
    if term in words:
        return True
    if len(term) < _MIN_PREFIX:
        return False
    return any(len(w) >= _MIN_PREFIX and (w.startswith(term) or term.startswith(w)) for w in words)


def _names(text: str, name: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name.lower())}(?!\w)", text.lower()) is not None


def score_sentences(question: str, passages: list[Hit], entity_names: list[str],
                    embedder: Embedder) -> list[ScoredSentence]:
    """Every sentence of the passages with its support score, best first."""
    found = [(i, s) for i, hit in enumerate(passages) for s in sentences(hit.text or "")]
    if not found:
        return []
    cosine = embedder.embed_documents([s for _, s in found]) @ embedder.embed_query(question)
    terms = set(content_terms(question))
    answers = [n for n in entity_names if n and not _names(question, n)]
    top = max((hit.score for hit in passages), default=0.0) or 1.0
    scored = []
    for (i, text), cos in zip(found, cosine, strict=True):
        words = set(content_terms(text))
        overlap = sum(_matches(t, words) for t in terms) / len(terms) if terms else 0.0
        answer = 1.0 if any(_names(text, n) for n in answers) else 0.0
        score = (WEIGHTS["similarity"] * float(cos) + WEIGHTS["overlap"] * overlap
                 + WEIGHTS["answer_entity"] * answer + WEIGHTS["rank"] * max(passages[i].score, 0.0) / top)
        scored.append(ScoredSentence(i, text, score))
    return sorted(scored, key=lambda s: (-s.score, s.passage, s.text))


def select(scored: list[ScoredSentence], max_sentences: int = 3, keep_ratio: float = 0.85) -> list[ScoredSentence]:
    """The best sentence, then those scoring at least keep_ratio of it (distinct texts), at most max_sentences."""
    chosen: list[ScoredSentence] = []
    for s in scored:
        if len(chosen) == max_sentences or (chosen and s.score < keep_ratio * chosen[0].score):
            break
        if all(s.text != c.text for c in chosen):
            chosen.append(s)
    return chosen


def extractive_answer(question: str, result: RetrievalResult, embedder: Embedder, facts: list[str] | None = None,
                      max_sentences: int = 3, keep_ratio: float = 0.85) -> Answer:
    """The answer made of the best-supporting sentences of `result`'s passages, each citing its passage."""
    names = [e.name for e in result.entities if e.name]
    chosen = select(score_sentences(question, result.passages, names, embedder), max_sentences, keep_ratio)
    quotes = [Quote(passage_id=result.passages[s.passage].id, label=f"P{s.passage + 1}", text=s.text,
                    score=round(s.score, 4), source=result.passages[s.passage].at(s.text).label()) for s in chosen]
    cited = list(dict.fromkeys(q.passage_id for q in quotes))
    text = " ".join(f"{q.text} [{q.label}]" for q in quotes) or "The memory holds no passage about this question."
    return Answer(question=question, answer=text, cited_passage_ids=cited, evidence=result, facts=facts or [],
                  extractive=True, quotes=quotes)


def answer_extractive(retriever: Retriever, embedder: Embedder, question: str, top_k: int = 5,
                      facts_of: FactsOf | None = None, max_facts: int = 30, max_sentences: int = 3) -> Answer:
    """Retrieve like `ask`, then quote instead of generating: no chat model, no network."""
    result = retriever.search(question, top_k=top_k)
    entity_ids = [e.id for e in result.entities]
    facts = facts_of(entity_ids, max_facts) if facts_of is not None and entity_ids else []
    return extractive_answer(question, result, embedder, facts, max_sentences)

