// Test: each passage of a space with its provenance and creation time, in document order.
MATCH (p:Passage {space: $space})
RETURN p.id AS id, p.index AS index, p.start AS start, p.end AS end, p.page AS page, p.page_end AS page_end,
       p.heading AS heading, toString(p.created_at) AS created_at
ORDER BY index
