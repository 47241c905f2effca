// Retraction, step 1, one transaction per batch of passages: mark what they support (their facts,
// those facts' schemas and entities, the entities they mention) Retracting, then delete them with
// every relationship (HAS_PASSAGE, NEXT, MENTIONS, EVIDENCED_BY). Marks and deletion commit together,
// so after a crash a rerun finds the marks of every passage already gone. Each deleted passage leaves a
// tombstone stamped with the transaction's version ($stamp), which retrieval copies read to remove it:
// `created` and `located` let the space counts go down, `previous` tells a second deletion
// (cypher/retrieval/changed_tombstones).
UNWIND $rows AS row
MATCH (p:Passage {space: $space, id: row.id})
CALL (p) {
  MATCH (p)<-[:EVIDENCED_BY]-(f:Fact)
  SET f:Retracting
}
CALL (p) {
  MATCH (p)<-[:EVIDENCED_BY]-(:Fact)-[:INSTANCE_OF]->(s:Schema)
  SET s:Retracting
}
CALL (p) {
  MATCH (p)<-[:EVIDENCED_BY]-(:Fact)-[:SUBJECT|OBJECT]->(e:Entity)
  SET e:Retracting
}
CALL (p) {
  MATCH (p)-[:MENTIONS]->(e:Entity)
  SET e:Retracting
}
MERGE (t:Tombstone {space: $space, kind: 'passage', id: p.id})
SET t.previous = t.changed, t.changed = $stamp, t.created = p.created,
    t.located = p.page IS NOT NULL OR p.heading IS NOT NULL OR p:Episode
DETACH DELETE p
RETURN count(*) AS deleted
