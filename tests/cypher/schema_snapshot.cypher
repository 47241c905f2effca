// Every schema of a space with its state and frequency, and every fact with its state, relation and schema.
CALL () {
  MATCH (s:Schema {space: $space})
  RETURN collect([s.id, s.relation, s.state, s.frequency]) AS schemas
}
CALL () {
  MATCH (f:Fact {space: $space})-[:INSTANCE_OF]->(s:Schema)
  RETURN collect([f.id, f.state, f.relation, s.id]) AS facts
}
RETURN schemas, facts
