// The subcategories of categories $ids (one step down), each once.
MATCH (child:Category {space: $space})-[:SUBCATEGORY_OF]->(c:Category {space: $space})
WHERE c.id IN $ids
RETURN DISTINCT child.id AS id, child.name AS name, child.summary AS summary, child.layer AS layer
ORDER BY layer DESC, id
