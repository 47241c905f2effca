// Every node of a space with what a resumed ingest must reproduce exactly (test_kill_resume): labels,
// id, states, schema support, entity names and aliases, document status. Not timestamps or versions.
MATCH (n) WHERE n.space = $space AND NOT n:MemoryState
RETURN labels(n) AS labels, coalesce(n.id, n.name) AS id, n.state AS state, n.frequency AS frequency,
       n.extraction AS extraction, n.status AS status, n.name AS name, n.type AS type, n.aliases AS aliases,
       n.text AS text, n.embedding IS NOT NULL AS embedded
