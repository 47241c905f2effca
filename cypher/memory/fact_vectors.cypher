// Every fact of the space that has an embedding, for the exact in-process candidates by meaning of
// adjudication (adjudication/similar.py). The index seek on fact_key (space, id) reads one space.
MATCH (f:Fact)
WHERE f.space = $space AND f.id IS NOT NULL AND f.embedding IS NOT NULL
RETURN f.id AS id, null AS type, f.embedding AS embedding
ORDER BY id
