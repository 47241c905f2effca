// BM25 over passage text and title (Lucene fulltext).
CREATE FULLTEXT INDEX passage_text IF NOT EXISTS
FOR (n:Passage) ON EACH [n.text, n.title]
