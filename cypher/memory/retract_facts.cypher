// Retraction, step 2: marked facts left without any evidence passage become retracted. They are kept
// (with their schema and entities) and leave the conflict scan's queue; an ingest that evidences them
// again gives them back the state a new fact gets (cypher/memory/write_facts). $stamp: `changed`, so
// retrieval copies catch up (repository/documents.py bumps the version first).
MATCH (f:Retracting:Fact {space: $space})
WHERE f.state <> $retracted AND NOT EXISTS { (f)-[:EVIDENCED_BY]->(:Passage) }
SET f.state = $retracted, f.retracted_at = datetime(), f.changed = $stamp
REMOVE f:Unchecked
RETURN count(f) AS retracted
