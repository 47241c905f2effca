// Categories into the categories of the layer above (many-to-many).
UNWIND $rows AS row
MATCH (child:Category {space: $space, id: row.child})
MATCH (parent:Category {space: $space, id: row.parent})
MERGE (child)-[:SUBCATEGORY_OF]->(parent)
