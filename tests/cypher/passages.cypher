MATCH (p:Passage {space: $space})
RETURN p.id AS id, p.text AS text, p.start AS start, p.end AS end, p.index AS index
ORDER BY index
