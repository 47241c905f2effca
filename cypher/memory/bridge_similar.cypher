// Stage IV bridging: similarity edges between entities (cosine >= threshold), weighted.
UNWIND $rows AS row
MATCH (a:Entity {space: $space, id: row.id}), (b:Entity {space: $space, id: row.neighbor})
MERGE (a)-[r:SIMILAR]-(b)
SET r.weight = row.cosine,
    a.changed = coalesce($stamp, a.changed), b.changed = coalesce($stamp, b.changed)  // repository/batch.py
