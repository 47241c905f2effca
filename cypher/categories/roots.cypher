// Where Global Selection starts: the categories without a parent (the top layer, and any category the
// layer above did not take), highest layer first.
MATCH (c:Category {space: $space})
WHERE NOT (c)-[:SUBCATEGORY_OF]->(:Category)
RETURN c.id AS id, c.name AS name, c.summary AS summary, c.layer AS layer
ORDER BY c.layer DESC, c.id
