// One Type per (space, id): ids are content hashes, so MERGE on them is idempotent.
CREATE CONSTRAINT type_key IF NOT EXISTS
FOR (n:Type) REQUIRE (n.space, n.id) IS UNIQUE
