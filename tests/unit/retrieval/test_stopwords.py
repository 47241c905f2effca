from memgraph_neo4j.retrieval.bm25_index import bm25_query
from memgraph_neo4j.retrieval.stopwords import content_words, without_stop_words


def test_stop_words_leave_the_content_words():
    assert content_words("When did Caroline go to the LGBTQ support group?") == [
        "caroline", "go", "lgbtq", "support", "group"]
    assert bm25_query(without_stop_words("What is it?")) == "what OR is OR it"  # nothing but stop words: all kept
    assert without_stop_words("") == ""
