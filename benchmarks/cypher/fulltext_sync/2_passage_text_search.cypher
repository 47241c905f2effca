// bench_fulltext_commit: passage_text_search as it was before, refreshed at every commit
CREATE FULLTEXT INDEX passage_text_search IF NOT EXISTS
FOR (n:Passage) ON EACH [n.text, n.title]
