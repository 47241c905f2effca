// bench_fulltext_commit: fact_text_search gone, to be made again with the other consistency
DROP INDEX fact_text_search IF EXISTS
