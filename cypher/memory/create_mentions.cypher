// Passage -> mentioned Entity, for entities created in this batch (no MENTIONS edge can exist yet).
UNWIND $rows AS row
MATCH (p:Passage {space: $space, id: row.passage_id}), (e:Entity {space: $space, id: row.entity_id})
CREATE (p)-[:MENTIONS]->(e)
SET p.changed = coalesce($stamp, p.changed)  // repository/batch.py
