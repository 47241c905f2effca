// Retraction, step 2: marked facts left without any evidence passage become retracted. They are kept
// (with their schema and entities) and leave the conflict scan's queue; an ingest that evidences them
// again gives them back the state a new fact gets (cypher/memory/write_facts).
MATCH (f:Retracting:Fact {space: $space})
WHERE f.state <> $retracted AND NOT EXISTS { (f)-[:EVIDENCED_BY]->(:Passage) }
SET f.state = $retracted, f.retracted_at = datetime()
REMOVE f:Unchecked
RETURN count(f) AS retracted
