// Every entity of the space with its type and embedding (null for entities stored without one), for
// the exact in-process neighbour search of ingest (memory/neighbours.py). The index seek on
// entity_key (space, id) reads one space, in id order.
MATCH (e:Entity)
WHERE e.space = $space AND e.id IS NOT NULL
RETURN e.id AS id, e.type AS type, e.embedding AS embedding
ORDER BY id
