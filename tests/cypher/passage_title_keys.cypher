// The title and title key of every passage of a space (the long-title case of test_bad_input).
MATCH (p:Passage {space: $space})
RETURN p.id AS id, p.title AS title, p.title_key AS key
ORDER BY id
