// What stamped writes (a retraction) deleted from one space after version $since: one tombstone per
// deleted node (cypher/memory/retract_passages, retract_entities), at most $limit (more: read everything
// again). old: the node deleted existed at $since (its `created`, kept on the tombstone; a node without one
// predates the stamps); again: it was deleted once more before, after $since (the counts cannot tell whether
// it existed then) (repository/changes.py).
MATCH (t:Tombstone)
WHERE t.space = $space AND t.changed > $since
WITH t LIMIT $limit
RETURN t.kind AS kind, t.id AS id, t.changed AS changed, NOT coalesce(t.created > $since, false) AS old,
       coalesce(t.located, false) AS located, coalesce(t.previous > $since, false) AS again
