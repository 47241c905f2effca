// How many facts of the space have an embedding: the in-process copy of them is still the space's own
// while this equals the copy's size (facts are never deleted, only their states change).
MATCH (f:Fact)
WHERE f.space = $space AND f.id IS NOT NULL AND f.embedding IS NOT NULL
RETURN count(f) AS facts
