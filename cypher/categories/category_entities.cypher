// The entities under categories $ids, through any number of subcategory steps.
MATCH (e:Entity {space: $space})-[:IN_CATEGORY]->(:Category)-[:SUBCATEGORY_OF*0..]->(c:Category {space: $space})
WHERE c.id IN $ids
RETURN DISTINCT e.id AS id, e.name AS name
ORDER BY id
