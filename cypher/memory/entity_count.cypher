// How many entities of the space have an embedding: an ingest's in-process copy of them is still the
// space's own while this equals the copy's size (a seek on entity_key, ~20-50 ms for 30k entities).
MATCH (e:Entity)
WHERE e.space = $space AND e.id IS NOT NULL AND e.embedding IS NOT NULL
RETURN count(e) AS entities
