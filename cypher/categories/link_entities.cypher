// Entities into layer-1 categories (many-to-many).
UNWIND $rows AS row
MATCH (e:Entity {space: $space, id: row.child})
MATCH (c:Category {space: $space, id: row.parent})
MERGE (e)-[:IN_CATEGORY]->(c)
