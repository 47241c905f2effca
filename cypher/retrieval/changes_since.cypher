// What the copies of one space need after version $since (all of it for $since = -1), in one round trip
// (retrieval/changes.py): the memory state before the reads and after them (a write that committed
// between them: read again), and per label the nodes stamped after $since with what the copies hold of
// each. Seven statements of one transaction cost seven round trips, ~14 ms of each search after a write.
// `changed > $since` seeks the (space, changed) indexes; at most $limit rows per label (more: read
// everything again). Vectors only when $vectors. new: created after $since (`created` = the version that
// created the node): the space counts follow from it.
CALL () {
  OPTIONAL MATCH (m:MemoryState {space: $space})
  CALL () { MATCH ()-[r:MENTIONS]->() RETURN count(r) AS mentions }
  RETURN {version: coalesce(m.version, 0), full: coalesce(m.full, 0), pruned: coalesce(m.tombstones_from, 0),
          mentions: mentions} AS first
}
CALL () {
  MATCH (f:Fact)
  WHERE f.space = $space AND f.changed > $since
  WITH f LIMIT $limit
  OPTIONAL MATCH (f)-[:SUBJECT]->(h:Entity)
  OPTIONAL MATCH (f)-[:OBJECT]->(t:Entity)
  RETURN collect({new: coalesce(f.created > $since, false), id: f.id, state: f.state, relation: f.relation,
                  text: f.text, changed: f.changed, embedding: CASE WHEN $vectors THEN f.embedding END,
                  head_id: h.id, tail_id: t.id}) AS facts
}
CALL () {
  MATCH (s:Schema)
  WHERE s.space = $space AND s.changed > $since
  WITH s LIMIT $limit
  RETURN collect({new: coalesce(s.created > $since, false), id: s.id, state: s.state, head_type: s.head_type,
                  relation: s.relation, tail_type: s.tail_type, changed: s.changed,
                  embedding: CASE WHEN $vectors THEN s.embedding END}) AS schemas
}
// passages: vector and text (layers, BM25), title (titles, PPR names), provenance (counts), the entities
// each mentions (seed statistics, PPR graph)
CALL () {
  MATCH (p:Passage)
  WHERE p.space = $space AND p.changed > $since
  WITH p LIMIT $limit
  RETURN collect({new: coalesce(p.created > $since, false), id: p.id, title: p.title, text: p.text,
                  changed: p.changed, located: p.page IS NOT NULL OR p.heading IS NOT NULL OR p:Episode,
                  embedding: CASE WHEN $vectors THEN p.embedding END,
                  mentions: [(p)-[:MENTIONS]->(e:Entity) | e.id]}) AS passages
}
// entities: name, types with their degree now (seed statistics), SIMILAR bridges out of each (a bridge is
// stored in one direction; the PPR graph copy holds it under its source)
CALL () {
  MATCH (e:Entity)
  WHERE e.space = $space AND e.changed > $since
  WITH e LIMIT $limit
  RETURN collect({id: e.id, name: e.name, changed: e.changed,
                  types: [(e)-[:HAS_TYPE]->(t:Type) | [t.id, COUNT { (t)<-[:HAS_TYPE]-() }]],
                  similar: [(e)-[r:SIMILAR]->(b:Entity) | [b.id, r.weight]]}) AS entities
}
// types: nodes of the PPR graph copy, with their entity count now (a retraction stamps the types of the
// entities it deletes)
CALL () {
  MATCH (t:Type)
  WHERE t.space = $space AND t.changed > $since
  WITH t LIMIT $limit
  RETURN collect({id: t.id, changed: t.changed, degree: COUNT { (t)<-[:HAS_TYPE]-() }}) AS types
}
// what stamped writes (a retraction) deleted: one tombstone per deleted node (cypher/memory/retract_*).
// old: the node existed at $since (its `created`, kept on the tombstone; none: it predates the stamps);
// again: it was deleted once more before, after $since (the counts cannot tell whether it existed then)
CALL () {
  MATCH (t:Tombstone)
  WHERE t.space = $space AND t.changed > $since
  WITH t LIMIT $limit
  RETURN collect({kind: t.kind, id: t.id, changed: t.changed, old: NOT coalesce(t.created > $since, false),
                  located: coalesce(t.located, false), again: coalesce(t.previous > $since, false)}) AS tombstones
}
CALL () {
  OPTIONAL MATCH (m:MemoryState {space: $space})
  RETURN {version: coalesce(m.version, 0), pruned: coalesce(m.tombstones_from, 0)} AS last
}
RETURN first, facts, schemas, passages, entities, types, tombstones, last
