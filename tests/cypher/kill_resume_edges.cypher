// Every relationship of a space (both ends in it) as (type, from id, to id, weight, verdict): test_kill_resume.
// verdict: a conflict's INVOLVES edge, what it proposes and whether that is applied (else null).
MATCH (a)-[r]->(b) WHERE a.space = $space AND b.space = $space
RETURN type(r) AS type, coalesce(a.id, a.name) AS source, coalesce(b.id, b.name) AS target, r.weight AS weight,
       CASE WHEN r.proposed IS NULL THEN null ELSE [r.proposed, coalesce(r.applied, false)] END AS verdict
