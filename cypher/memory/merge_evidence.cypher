// Agreeing evidence for a similarity merge (memory/resolve.py): a name of this batch joins a stored entity
// of a close embedding only when they share context: the entity is mentioned in one of the name's
// documents; or on a page titled by the name, or it is named by one of the name's pages' titles
// ("Michael Trent Reznor" on the page "Trent Reznor"); or it is mentioned in a passage beside one of the
// stored entities the name's own passages mention (a neighbour). On the embedding alone "Michael Hurst"
// became "Michael Eric Hurst" (cosine >= 0.9). Only the few candidates at the merge threshold are asked;
// each check stops at its first witness.
UNWIND $rows AS row
MATCH (e:Entity {space: $space, id: row.entity_id})
OPTIONAL CALL (e, row) {
  MATCH (e)<-[:MENTIONS]-(p:Passage)
  WHERE p.doc_id IN row.docs
  RETURN true AS same_document
  LIMIT 1
}
OPTIONAL CALL (e, row) {
  MATCH (e)<-[:MENTIONS]-(p:Passage)
  WHERE p.title_key = row.key
  RETURN true AS titled
  LIMIT 1
}
OPTIONAL CALL (e, row) {
  UNWIND row.context AS neighbour_id
  MATCH (:Entity {space: $space, id: neighbour_id})<-[:MENTIONS]-(:Passage)-[:MENTIONS]->(e)
  RETURN true AS shared_neighbour
  LIMIT 1
}
RETURN row.key AS key, row.entity_id AS entity_id,
       CASE WHEN same_document THEN 'same document'
            WHEN titled OR e.key IN row.titles
                 OR EXISTS { (e)<-[:ALIAS_OF]-(a:Alias) WHERE a.id IN row.titles } THEN 'title'
            WHEN shared_neighbour THEN 'shared neighbour' END AS evidence
