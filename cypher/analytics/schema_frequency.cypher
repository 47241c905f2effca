// Schemas ranked by frequency (distinct passages supporting their facts), with their state and how
// many of their facts are active. The promotion threshold reads off this ranking.
// :params {space: "demo", active: "active", limit: 50}
MATCH (s:Schema {space: $space})
RETURN s.head_type AS head_type, s.relation AS relation, s.tail_type AS tail_type, s.state AS state,
       s.frequency AS frequency,
       COUNT { (s)<-[:INSTANCE_OF]-(:Fact) } AS facts,
       COUNT { (s)<-[:INSTANCE_OF]-(:Fact {state: $active}) } AS active_facts
ORDER BY frequency DESC, relation, head_type, tail_type
LIMIT toInteger($limit)
