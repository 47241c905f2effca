// Algorithm 1, stage II, from what this stamped batch wrote: a schema's frequency (distinct passages of its
// facts in a $supporting state) grows by the passages that support it now and did not before the batch.
// In a write batch support only grows, through new EVIDENCED_BY relationships (stamped `created`): facts
// are created, evidenced again, or revived from retracted (a retracted fact has no evidence left, so all
// of a revived fact's evidence is new); nothing is deleted or moved off a supporting state. A passage is new
// support for schema s when a supporting fact of s gained it now, and no supporting fact of s was evidenced
// by it before. Read from the passage's side (its ~10 facts), never from the schema's: promote_frequency_of
// recounted every fact of each touched schema, 95 ms per 256-passage batch on MuSiQue and 1.45 s at 54k
// passages, growing with the memory. It needs every frequency exact before the batch: promote_frequency_stale,
// the batch's first statement, recounts what an earlier unpromoted write left. Tests compare the
// frequencies with a full recount after every step of random interleavings.
MATCH (u:Unpromoted:Fact {space: $space})-[e:EVIDENCED_BY]->(p:Passage)
WHERE e.created = $stamp AND u.state IN $supporting
MATCH (u)-[:INSTANCE_OF]->(s:Schema)
WITH DISTINCT s, p
WHERE NOT EXISTS {
  MATCH (p)<-[b:EVIDENCED_BY]-(g:Fact)-[:INSTANCE_OF]->(s)
  WHERE g.state IN $supporting AND coalesce(b.created, -1) <> $stamp
}
WITH s, count(p) AS gained
SET s.frequency = coalesce(s.frequency, 0) + gained
RETURN count(s) AS schemas
