UNWIND $ids AS id
MATCH (p:Passage {space: $space, id: id})
RETURN p.id AS id, p.title AS title, p.text AS text
