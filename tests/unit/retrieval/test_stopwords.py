from memgraph_neo4j.retrieval.bm25_index import bm25_query
from memgraph_neo4j.retrieval.stopwords import content_words, without_stop_words


def test_stop_words_leave_the_content_words():
    assert content_words("When did Caroline go to the LGBTQ support group?") == [
        "caroline", "go", "lgbtq", "support", "group"]
    assert bm25_query(without_stop_words("What is it?")) == "what OR is OR it"  # nothing but stop words: all kept
    assert without_stop_words("") == ""


def test_function_words_are_a_shorter_list_than_nltk_stop_words():
    from memgraph_neo4j.retrieval.stopwords import FUNCTION_WORDS, STOP_WORDS, without_function_words

    question = "Which film has the director who is older than the other, and who owns most of it?"
    assert without_function_words(question) == "film has director older owns most"  # "has", "most" stay
    assert without_stop_words(question) == "film director older owns"
    assert without_function_words("Who was it?") == "who was it"  # nothing but function words: all kept
    assert FUNCTION_WORDS - STOP_WORDS == {"yes", "also", "whose"}


def test_the_fusion_switches_are_checked():
    import pytest

    from memgraph_neo4j.config import RetrievalConfig

    assert RetrievalConfig(fusion_stop_words=None, fusion_confidence_top=0).fusion_confidence_top == 0
    with pytest.raises(ValueError, match="fusion_stop_words"):
        RetrievalConfig(fusion_stop_words="english")
    with pytest.raises(ValueError, match="fusion_confidence_top"):
        RetrievalConfig(fusion_confidence_top=-1)
