// Retraction, step 4, $batch marked entities at a time: one that nothing live grounds any more (no
// passage mentions it, no fact but retracted ones names it) is deleted with its aliases, so the
// extraction guide, the entity index and the PPR projection forget it; the others lose the mark.
// A deleted entity leaves a tombstone stamped $stamp, and what retrieval copies hold of it elsewhere is
// stamped too: its types (their entity count), the entities bridged to it (SIMILAR is held by its
// source) and the retracted facts that name it (without their end they leave the layer copy).
MATCH (e:Retracting:Entity {space: $space})
WITH e LIMIT $batch
WITH e, NOT EXISTS { (e)<-[:MENTIONS]-(:Passage) }
        AND NOT EXISTS { (e)<-[:SUBJECT|OBJECT]-(f:Fact) WHERE f.state <> $retracted } AS orphan
CALL (e, orphan) {
  OPTIONAL MATCH (a:Alias)-[:ALIAS_OF]->(e)
  WHERE orphan AND NOT EXISTS { (a)-[:ALIAS_OF]->(other:Entity) WHERE other <> e }
  DETACH DELETE a
  RETURN count(a) AS aliases
}
REMOVE e:Retracting
WITH e, orphan, aliases
CALL (e, orphan) {
  WITH e WHERE orphan
  CALL (e) {
    MATCH (e)-[:HAS_TYPE]->(t:Type)
    SET t.changed = $stamp
  }
  CALL (e) {
    MATCH (b:Entity)-[:SIMILAR]->(e)
    SET b.changed = $stamp
  }
  CALL (e) {
    MATCH (f:Fact)-[:SUBJECT|OBJECT]->(e)
    SET f.changed = $stamp
  }
  MERGE (t:Tombstone {space: $space, kind: 'entity', id: e.id})
  SET t.previous = t.changed, t.changed = $stamp, t.created = e.created
  DETACH DELETE e
}
RETURN count(*) AS entities, sum(CASE WHEN orphan THEN 1 ELSE 0 END) AS deleted, sum(aliases) AS aliases
