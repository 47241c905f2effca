// One page of the entities of the space that have an embedding, with their types (ids after $after, in
// id order, at most $page), for the exact in-process neighbour search of ingest (memory/neighbours.py).
// Paged for the reason memory/fact_vectors gives; ordering by (space, id), entity_key's key, needs no sort.
MATCH (e:Entity)
WHERE e.space = $space AND e.id > $after
WITH e ORDER BY e.space, e.id
WHERE e.embedding IS NOT NULL
RETURN e.id AS id, e.type AS type, e.embedding AS embedding
LIMIT $page
