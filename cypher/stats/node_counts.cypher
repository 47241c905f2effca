// Nodes per label and state in one memory space (a Conflict's state is its status).
CALL () {
  MATCH (n:Document {space: $space}) RETURN 'Document' AS label, null AS state, count(n) AS count
  UNION ALL
  MATCH (n:Passage {space: $space}) RETURN 'Passage' AS label, n.extraction AS state, count(n) AS count
  UNION ALL
  MATCH (n:Entity {space: $space}) RETURN 'Entity' AS label, null AS state, count(n) AS count
  UNION ALL
  MATCH (n:Alias {space: $space}) RETURN 'Alias' AS label, null AS state, count(n) AS count
  UNION ALL
  MATCH (n:Type {space: $space}) RETURN 'Type' AS label, null AS state, count(n) AS count
  UNION ALL
  MATCH (n:Schema {space: $space}) RETURN 'Schema' AS label, n.state AS state, count(n) AS count
  UNION ALL
  MATCH (n:Fact {space: $space}) RETURN 'Fact' AS label, n.state AS state, count(n) AS count
  UNION ALL
  MATCH (n:Conflict {space: $space}) RETURN 'Conflict' AS label, n.status AS state, count(n) AS count
}
RETURN label, state, count
