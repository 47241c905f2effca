// Databases created before passage_embedding_by_space had this index without the space filter: drop it
// (a new name, since CREATE ... IF NOT EXISTS never changes an existing index's definition).
DROP INDEX passage_embedding IF EXISTS
