// Every relationship of a space (both ends in it) as (type, from id, to id, weight): test_kill_resume.
MATCH (a)-[r]->(b) WHERE a.space = $space AND b.space = $space
RETURN type(r) AS type, coalesce(a.id, a.name) AS source, coalesce(b.id, b.name) AS target, r.weight AS weight
