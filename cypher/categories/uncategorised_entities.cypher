// Entities not yet in any category (new since the last hierarchy update), in id order.
MATCH (e:Entity {space: $space})
WHERE NOT (e)-[:IN_CATEGORY]->(:Category)
RETURN e.id AS id, e.name AS name, e.type AS type
ORDER BY e.id
LIMIT $limit
