// Browser guide: conflicts in the given statuses (the open ones and those a person must review),
// newest first, with the facts each involves (INVOLVES carries the verdict proposed for each fact),
// the CONFLICTS_WITH edges between those facts and the entities the facts are about.
// :params {space: "demo", statuses: ["open", "needs_review"]}
MATCH (c:Conflict {space: $space})
WHERE c.status IN $statuses
WITH c ORDER BY c.detected_at DESC, c.id LIMIT 25
MATCH involves = (c)-[i:INVOLVES]->(f:Fact)
WITH c, f, i, involves,
     COLLECT { MATCH about = (f)-[:SUBJECT|OBJECT]->(:Entity) RETURN about } +
     COLLECT { MATCH clash = (f)-[:CONFLICTS_WITH {conflict: c.id}]->(:Fact) RETURN clash } AS context
ORDER BY f.text
RETURN c.id AS id, c.type AS type, c.status AS status, c.confidence AS confidence, c.reason AS reason,
       collect(f {.id, .text, .state, proposed: i.proposed}) AS facts,
       c AS conflict, collect(involves) AS involves, reduce(paths = [], more IN collect(context) | paths + more) AS context
ORDER BY c.detected_at DESC, id
