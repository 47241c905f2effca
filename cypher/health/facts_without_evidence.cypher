// Facts of a space with no EVIDENCED_BY passage: every fact must cite one, so this is 0. Retracted
// facts are the exception: their documents were retracted (memory/retract.py).
MATCH (f:Fact {space: $space})
WHERE f.state <> $retracted AND NOT EXISTS { (f)-[:EVIDENCED_BY]->(:Passage) }
RETURN count(f) AS facts
