// Active facts not yet scanned for conflicts (labelled Unchecked when they became active).
MATCH (f:Unchecked:Fact {space: $space})
WHERE f.state = $active
RETURN f.id AS id
ORDER BY f.id
LIMIT $limit
