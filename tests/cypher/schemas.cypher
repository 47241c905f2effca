MATCH (s:Schema {space: $space})
RETURN s.head_type AS head_type, s.relation AS relation, s.tail_type AS tail_type, s.state AS state, s.frequency AS frequency
ORDER BY relation
