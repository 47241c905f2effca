"""English stop words for the fulltext legs of System-1 (retrieval/hybrid.py): pure, no I/O.

The list is NLTK's English list (the one bm25s ships as "en"), so the conversation BM25 ranks as the
reference LoCoMo setup does (retrieval-calibration notes: bm25s with English stop words). They are
dropped from the question only: the in-process index and Lucene's standard analyzer keep them in the
documents, where they barely move BM25 (low IDF, a slightly longer document).
"""

from __future__ import annotations

from memgraph_neo4j.retrieval.bm25_index import words

STOP_WORDS = frozenset("""
a about above after again against ain all am an and any are aren aren't as at be because been before being
below between both but by can couldn couldn't d did didn didn't do does doesn doesn't doing don don't down
during each few for from further had hadn hadn't has hasn hasn't have haven haven't having he her here hers
herself him himself his how i if in into is isn isn't it it's its itself just ll m ma me mightn mightn't more
most mustn mustn't my myself needn needn't no nor not now o of off on once only or other our ours ourselves
out over own re s same shan shan't she she's should should've shouldn shouldn't so some such t than that
that'll the their theirs them themselves then there these they this those through to too under until up ve
very was wasn wasn't we were weren weren't what when where which while who whom why will with won won't
wouldn wouldn't y you you'd you'll you're you've your yours yourself yourselves
""".split())


# The question's function words (articles, prepositions, conjunctions, question words, auxiliaries,
# pronouns): the words the question's names are never taken from (retrieval/question_entities.py) and
# the fusion's BM25 leaves out.
# Shorter than NLTK's list, which also drops "own", "few", "over", "most", ...: as the fusion's list NLTK's
# cost MuSiQue 0.8 points of R@5 more (benchmarks/results/tuning/fusion-eval.md)
FUNCTION_WORDS = frozenset("""a an the of in on at to for from by with and or is was were are be been who what which
when where why how did does do whose whom that this these those it its his her their he she they as than
also into about after before during between same both other not no yes""".split())


def content_words(text: str, stop: frozenset[str] = STOP_WORDS) -> list[str]:
    """The question's words without stop words; all of them when every word is one."""
    found = words(text)
    kept = [w for w in found if w not in stop]
    return kept or found


def without_stop_words(text: str) -> str:
    return " ".join(content_words(text))


def without_function_words(text: str) -> str:
    return " ".join(content_words(text, FUNCTION_WORDS))
