// The vectors of a space's passages, entities, facts and schemas by id (test_ingest_stages compares a
// staged ingest's with a sequential one's).
MATCH (n) WHERE n.space = $space AND n.embedding IS NOT NULL
RETURN [l IN labels(n) WHERE l IN ['Passage', 'Entity', 'Fact', 'Schema']][0] AS label, n.id AS id,
       n.embedding AS embedding
