// Passage -> mentioned Entity.
UNWIND $rows AS row
MATCH (p:Passage {space: $space, id: row.passage_id}), (e:Entity {space: $space, id: row.entity_id})
MERGE (p)-[:MENTIONS]->(e)
SET p.changed = coalesce($stamp, p.changed)  // repository/batch.py
