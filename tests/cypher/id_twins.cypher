// Two conflicts, each over a fact of its own, whose ids (and their facts') share their first characters:
// `$prefix + 'c'` starts both conflict ids, `$prefix + 'f'` both fact ids (repository/ids.py's ambiguity).
UNWIND ['0', '1'] AS n
MERGE (f:Fact {space: $space, id: $prefix + 'f' + n})
SET f.text = 'twin fact ' + n, f.state = 'active'
MERGE (c:Conflict {space: $space, id: $prefix + 'c' + n})
SET c.type = 'mutual_exclusion', c.status = 'needs_review'
MERGE (c)-[:INVOLVES]->(f)
