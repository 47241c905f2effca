// The facts each passage evidences (any state: active first, then pending, then verdicts), at most $facts
// per passage, each with the conflicts it is in: type, status, the verdict proposed or applied to it, and
// the conflict's other facts with theirs. What a retrieved passage carries into the framework adapters.
UNWIND $ids AS id
MATCH (p:Passage {space: $space, id: id})
RETURN p.id AS id,
       COLLECT {
         MATCH (p)<-[:EVIDENCED_BY]-(f:Fact)
         RETURN {id: f.id, text: f.text, state: f.state, relation: f.relation, head: f.head, tail: f.tail,
                 time: f.time, valid_at: toString(f.valid_at), invalid_at: toString(f.invalid_at),
                 conflicts: COLLECT {
                   MATCH (c:Conflict)-[i:INVOLVES]->(f)
                   RETURN {id: c.id, type: c.type, status: c.status, proposed: i.proposed,
                           applied: coalesce(i.applied, false),
                           facts: COLLECT {
                             MATCH (c)-[o:INVOLVES]->(other:Fact)
                             WHERE other <> f
                             RETURN {id: other.id, text: other.text, state: other.state, proposed: o.proposed,
                                     applied: coalesce(o.applied, false)}
                             ORDER BY other.id
                           }}
                   ORDER BY c.id
                 }}
         ORDER BY CASE f.state WHEN $active THEN 0 WHEN $pending THEN 1 ELSE 2 END, f.id
         LIMIT $facts
       } AS facts
