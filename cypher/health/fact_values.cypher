// Facts of a space whose head, tail or time qualifier holds a digit, with the texts of their evidence
// passages (at most $passages each): evaluation/health.value_fidelity checks that one of them states
// every number and month the fact states. Retracted facts aside, as for facts_without_evidence.
MATCH (f:Fact {space: $space})
WHERE f.state <> $retracted AND (f.head =~ '.*[0-9].*' OR f.tail =~ '.*[0-9].*' OR f.time =~ '.*[0-9].*')
CALL (f) {
  MATCH (f)-[:EVIDENCED_BY]->(p:Passage)
  WITH p ORDER BY p.id LIMIT $passages
  RETURN collect(p.text) AS texts
}
RETURN f.id AS id, f.head AS head, f.relation AS relation, f.tail AS tail, f.time AS time, f.state AS state, texts
ORDER BY id
