// Memory guidance: stable schemas, most frequent first.
MATCH (s:Schema {space: $space, state: $stable})
RETURN s.head_type AS head_type, s.relation AS relation, s.tail_type AS tail_type, s.frequency AS frequency
ORDER BY frequency DESC, relation
LIMIT $limit
