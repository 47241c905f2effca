// A hand-made memory for tests/integration/test_health.py: entities (embedding optional), passages,
// schemas with states, facts with SUBJECT/OBJECT, INSTANCE_OF and the EVIDENCED_BY passages they list,
// and Conflict nodes.
CALL () {
  UNWIND $entities AS row
  CREATE (e:Entity {space: $space, id: row.id, name: row.name})
  SET e.embedding = row.embedding
}
CALL () {
  UNWIND $passages AS row
  CREATE (:Passage {space: $space, id: row, extraction: 'ok', text: row})
}
CALL () {
  UNWIND $schemas AS row
  CREATE (:Schema {space: $space, id: row.id, state: row.state})
}
CALL () {
  UNWIND $facts AS row
  MATCH (h:Entity {space: $space, id: row.head}), (t:Entity {space: $space, id: row.tail}),
        (s:Schema {space: $space, id: row.schema})
  CREATE (h)<-[:SUBJECT]-(f:Fact {space: $space, id: row.id, state: row.state})-[:OBJECT]->(t),
         (f)-[:INSTANCE_OF]->(s)
  WITH f, row
  UNWIND row.evidence AS passage
  MATCH (p:Passage {space: $space, id: passage})
  CREATE (f)-[:EVIDENCED_BY]->(p)
}
CALL () {
  UNWIND $conflicts AS row
  CREATE (:Conflict {space: $space, id: row.id, type: row.type, status: row.status})
}
