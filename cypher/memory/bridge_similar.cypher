// Stage IV bridging: similarity edges between entities (cosine >= threshold), weighted.
UNWIND $rows AS row
MATCH (a:Entity {space: $space, id: row.id}), (b:Entity {space: $space, id: row.neighbor})
MERGE (a)-[r:SIMILAR]-(b)
SET r.weight = row.cosine
