// test_alias_keys: a database made before Entity.key had no index on it (MemoryGraph.init then migrates).
DROP INDEX entity_name_key IF EXISTS
