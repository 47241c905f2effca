// Facts that cite no passage. Every fact is written with its evidence and a retracted document's
// facts keep only their state (retracted), so this lists nothing unless something broke;
// health/facts_without_evidence counts them.
// :params {space: "demo", limit: 50, retracted: "retracted"}
MATCH (f:Fact {space: $space})
WHERE f.state <> $retracted AND NOT EXISTS { (f)-[:EVIDENCED_BY]->(:Passage) }
RETURN f.id AS id, f.text AS fact, f.state AS state, f.extractor AS extractor, toString(f.created_at) AS created_at
ORDER BY created_at, id
LIMIT toInteger($limit)
