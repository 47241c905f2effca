// One conflict with every fact it involves (state now, proposal, what was applied) and the pairs. Fact
// and conflict ids hash content, not the space: the same conflict id exists in every space that holds
// the same facts, so the pairs are matched from this space's facts only.
MATCH (c:Conflict {space: $space, id: $id})
RETURN c.id AS id, c.type AS type, c.status AS status, c.confidence AS confidence, c.reason AS reason,
       c.rationale AS rationale, c.model AS model, toString(c.detected_at) AS detected_at,
       toString(c.resolved_at) AS resolved_at, c.review AS review,
       COLLECT {
         MATCH (c)-[i:INVOLVES]->(f:Fact)
         RETURN {id: f.id, text: f.text, state: f.state, relation: f.relation, valid_from: f.valid_from,
                 valid_to: f.valid_to, ordinal: f.ordinal, proposed: i.proposed, into: i.proposed_into,
                 applied: coalesce(i.applied, false), previous_state: i.previous_state,
                 evidence: COLLECT { MATCH (f)-[:EVIDENCED_BY]->(p:Passage) RETURN p.id ORDER BY p.id }}
         ORDER BY f.id
       } AS facts,
       COLLECT {
         MATCH (a:Fact {space: $space})-[r:CONFLICTS_WITH {conflict: c.id}]->(b:Fact)
         RETURN {a: a.id, b: b.id, type: r.type, confidence: r.confidence, reason: r.reason, rule: r.rule}
       } AS pairs
