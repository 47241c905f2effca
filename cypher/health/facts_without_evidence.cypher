// Facts of a space (any state) with no EVIDENCED_BY passage: every fact must cite one, so this is 0.
MATCH (f:Fact {space: $space})
WHERE NOT EXISTS { (f)-[:EVIDENCED_BY]->(:Passage) }
RETURN count(f) AS facts
