// One page of the facts of the space that have an embedding (ids after $after, in id order, at most
// $page), for the exact in-process candidates by meaning of adjudication (adjudication/similar.py).
// Paged because one read of them all sorted ~800k 384-float rows in one transaction: past 50k passages
// it broke dbms.memory.transaction.total.max (1.4 GiB at a 2 GiB heap). Ordering by (space, id), the
// key of fact_key, lets the index seek give the order (no sort), so a page reads only its own rows.
MATCH (f:Fact)
WHERE f.space = $space AND f.id > $after
WITH f ORDER BY f.space, f.id
WHERE f.embedding IS NOT NULL
RETURN f.id AS id, null AS type, f.embedding AS embedding
LIMIT $page
