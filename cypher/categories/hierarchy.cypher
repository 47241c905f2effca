// The whole hierarchy of a space: every category with its members (entity or category ids), its
// parents and its revision. For listing and for tests.
MATCH (c:Category {space: $space})
OPTIONAL MATCH (c)<-[:IN_CATEGORY|SUBCATEGORY_OF]-(m)
WITH c, collect(m.id) AS members
OPTIONAL MATCH (c)-[:SUBCATEGORY_OF]->(p:Category)
RETURN c.id AS id, c.name AS name, c.summary AS summary, c.layer AS layer, c.revision AS revision,
       members, collect(p.id) AS parents
ORDER BY c.layer DESC, c.id
