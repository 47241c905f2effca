// bench_fulltext_commit: entity_name_search as it was before, refreshed at every commit
CREATE FULLTEXT INDEX entity_name_search IF NOT EXISTS
FOR (n:Entity) ON EACH [n.name, n.aliases_text]
