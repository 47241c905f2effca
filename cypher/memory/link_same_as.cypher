// Entity resolution in "link" mode: near-duplicates stay separate nodes joined by SAME_AS.
UNWIND $rows AS row
MATCH (a:Entity {space: $space, id: row.id}), (b:Entity {space: $space, id: row.neighbor})
MERGE (a)-[r:SAME_AS]-(b)
SET r.weight = row.cosine
