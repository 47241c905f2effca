// The names merged by similarity a passage named an entity by (memory/facts.py MentionKeys), on its
// MENTIONS (written by create_mentions / write_mentions first): what memory/unmerge.py moves. Only the
// rare rows that used one: the common write is unchanged.
UNWIND $rows AS row
MATCH (:Passage {space: $space, id: row.passage_id})-[r:MENTIONS]->(:Entity {space: $space, id: row.entity_id})
SET r.merged_keys = row.merged_keys, r.direct = row.direct
