// Every node of a space for an export, streamed in one read: a key that is stable across exports
// (its first label among $kinds, then its id), all its labels, its properties (the embedding left
// out unless $embeddings). One scan of the database's nodes. The timestamps the memory writes are
// sent as ISO 8601 text: the driver takes twice as long to decode them as datetimes (any other
// temporal property is still exported, converted by the client). Tombstones (what a retraction deleted,
// for the retrieval copies: cypher/memory/retract_passages) are bookkeeping, not memory: left out.
MATCH (n)
WHERE n.space = $space AND NOT n:Tombstone
WITH n, CASE WHEN $embeddings THEN properties(n) ELSE n {.*, embedding: null} END AS properties
RETURN coalesce([k IN $kinds WHERE k IN labels(n)][0], labels(n)[0]) + ':' + coalesce(n.id, n.space) AS key,
       labels(n) AS labels,
       properties {.*, created_at: toString(n.created_at), updated_at: toString(n.updated_at),
                   activated_at: toString(n.activated_at), promoted_at: toString(n.promoted_at),
                   demoted_at: toString(n.demoted_at), retracted_at: toString(n.retracted_at),
                   detected_at: toString(n.detected_at), resolved_at: toString(n.resolved_at),
                   reverted_at: toString(n.reverted_at)} AS properties
