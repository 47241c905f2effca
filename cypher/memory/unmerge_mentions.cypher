// Unmerging a name (memory/unmerge.py): the passages that named the entity by it (their MENTIONS record
// the merged names used: cypher/memory/write_mention_keys), with the other merged names they used and
// whether they also named it by a name of its own.
MATCH (e:Entity {space: $space, id: $entity_id})<-[m:MENTIONS]-(p:Passage)
WHERE $key IN m.merged_keys
RETURN p.id AS passage_id, [k IN m.merged_keys WHERE k <> $key] AS kept, coalesce(m.direct, false) AS direct
ORDER BY passage_id
