MATCH (f:Fact {space: $space})
RETURN f.head AS head, f.relation AS relation, f.tail AS tail, f.state AS state
ORDER BY head, relation, tail
