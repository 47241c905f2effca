// bench_fulltext_commit: entity_name_search gone, to be made again with the other consistency
DROP INDEX entity_name_search IF EXISTS
