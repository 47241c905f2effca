// How many entities the space holds: an ingest's in-process copy of the entity vectors is still the
// space's own when this equals what it loaded plus what it created (a seek on entity_key, ~20-50 ms
// for 30k entities on 2 cores).
MATCH (e:Entity)
WHERE e.space = $space AND e.id IS NOT NULL
RETURN count(e) AS entities
