// bench_fulltext_commit: passage_text_search gone, to be made again with the other consistency
DROP INDEX passage_text_search IF EXISTS
