// Unmerging a name (memory/unmerge.py): each passage that named the entity by it mentions the name's
// own entity (written by create_entities first); its mention of the entity it joined stays only where it
// also named that entity otherwise (row.kept: the other merged names it used; row.direct: by a name of
// its own), else goes. The joined entity is marked Retracting: nothing may ground it any more
// (memory/retract.py deletes it then). $stamp: `changed` on the passages (repository/batch.py).
UNWIND $rows AS row
MATCH (p:Passage {space: $space, id: row.passage_id})-[m:MENTIONS]->(e:Entity {space: $space, id: $entity_id})
MATCH (n:Entity {space: $space, id: $own_id})
MERGE (p)-[:MENTIONS]->(n)
SET p.changed = $stamp, e:Retracting
FOREACH (_ IN CASE WHEN row.stays THEN [1] ELSE [] END | SET m.merged_keys = row.kept, m.direct = row.direct)
FOREACH (_ IN CASE WHEN row.stays THEN [] ELSE [1] END | DELETE m)
RETURN count(p) AS mentions
