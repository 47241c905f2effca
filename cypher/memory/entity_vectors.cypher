// Every entity of the space that has an embedding, with its type, for the exact in-process neighbour
// search of ingest (memory/neighbours.py). The index seek on entity_key (space, id) reads one space.
MATCH (e:Entity)
WHERE e.space = $space AND e.id IS NOT NULL AND e.embedding IS NOT NULL
RETURN e.id AS id, e.type AS type, e.embedding AS embedding
ORDER BY id
