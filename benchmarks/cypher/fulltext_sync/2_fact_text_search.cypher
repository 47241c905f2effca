// bench_fulltext_commit: fact_text_search as it was before, refreshed at every commit
CREATE FULLTEXT INDEX fact_text_search IF NOT EXISTS
FOR (n:Fact) ON EACH [n.text]
