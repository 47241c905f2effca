// Facts evidenced by these episodes, with the earliest time one of them was said and the fact's own
// time qualifier: the caller turns them into valid_at (memory/validity.py).
UNWIND $ids AS id
MATCH (p:Episode {space: $space, id: id})<-[:EVIDENCED_BY]-(f:Fact)
WHERE p.time IS NOT NULL
WITH f, min(p.time) AS said
RETURN f.id AS id, f.time AS time, said, f.valid_at AS valid_at
