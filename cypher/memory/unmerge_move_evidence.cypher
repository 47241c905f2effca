// Unmerging a name (memory/unmerge.py), after write_facts wrote each fact again as the passage states it
// with the name's own entity: the old fact loses that evidence (kept, its merged names dropped, where the
// passage also stated it by names of its own: row.direct). The old fact, its schema and its ends are
// marked Retracting, so retraction's steps (memory/retract.py) settle them: a fact left without evidence
// is retracted, the schema recounted, an entity nothing grounds deleted. $stamp: `changed` on the fact.
UNWIND $rows AS row
MATCH (f:Fact {space: $space, id: row.fact_id})-[r:EVIDENCED_BY]->(:Passage {space: $space, id: row.passage_id})
SET f:Retracting, f.changed = $stamp
FOREACH (_ IN CASE WHEN row.direct THEN [1] ELSE [] END | REMOVE r.head_key, r.tail_key, r.direct)
FOREACH (_ IN CASE WHEN row.direct THEN [] ELSE [1] END | DELETE r)
WITH DISTINCT f
CALL (f) {
  MATCH (f)-[:INSTANCE_OF]->(s:Schema)
  SET s:Retracting
}
CALL (f) {
  MATCH (f)-[:SUBJECT|OBJECT]->(e:Entity)
  SET e:Retracting
}
RETURN count(f) AS facts
