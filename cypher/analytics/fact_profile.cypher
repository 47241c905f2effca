// What the extraction made of a space, in one row: passages and those no fact cites; active facts and
// how many only say two names co-occur (co_occurs_with); entities and the orphans among them (in no
// active fact). Real facts per passage = (active - co_occurrence) / passages.
// :params {space: "demo", active: "active"}
CALL () {
  MATCH (p:Passage {space: $space})
  RETURN count(p) AS passages, count(CASE WHEN NOT EXISTS { (p)<-[:EVIDENCED_BY]-(:Fact) } THEN p END) AS without_facts
}
CALL () {
  MATCH (f:Fact {space: $space})
  WHERE f.state = $active
  RETURN count(f) AS active, count(CASE WHEN f.relation = 'co_occurs_with' THEN f END) AS co_occurrence
}
CALL () {
  MATCH (e:Entity {space: $space})
  RETURN count(e) AS entities,
         count(CASE WHEN NOT EXISTS { (e)<-[:SUBJECT|OBJECT]-(f:Fact) WHERE f.state = $active } THEN e END) AS orphans
}
RETURN passages, without_facts, active, co_occurrence, entities, orphans
