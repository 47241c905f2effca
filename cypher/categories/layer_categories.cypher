// The categories of one layer with their summaries and member counts.
MATCH (c:Category {space: $space, layer: $layer})
OPTIONAL MATCH (c)<-[:IN_CATEGORY|SUBCATEGORY_OF]-(m)
RETURN c.id AS id, c.name AS name, c.summary AS summary, c.layer AS layer, count(m) AS members
ORDER BY c.id
