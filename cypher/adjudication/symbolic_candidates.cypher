// Candidate conflicts of newly active facts, from the ontology's declarations (parameters):
// - functional: same subject, same functional relation, another object;
// - inverse_functional: same object, same inverse-functional relation, another subject;
// - inverse: the inverse relation says the opposite (A parent_of B and A child_of B), or a functional
//   inverse gives the object another value (Paris capital_of France, France has_capital Lyon).
// `granularity`: the two values are linked by a chain of at most 3 containment facts (Shanghai
// located_in China), so they may be one answer at two levels. At most $max_candidates per fact.
UNWIND $ids AS id
MATCH (h:Entity)<-[:SUBJECT]-(f:Fact {space: $space, id: id})-[:OBJECT]->(t:Entity)
CALL (f, h, t) {
  MATCH (h)<-[:SUBJECT]-(g:Fact)-[:OBJECT]->(other:Entity)
  WHERE f.relation IN $functional AND g.relation = f.relation AND g.state IN $states AND other <> t
  RETURN g, 'functional' AS rule, other AS mine_other, t AS mine
  UNION
  MATCH (other:Entity)<-[:SUBJECT]-(g:Fact)-[:OBJECT]->(t)
  WHERE f.relation IN $inverse_functional AND g.relation = f.relation AND g.state IN $states AND other <> h
  RETURN g, 'inverse_functional' AS rule, other AS mine_other, h AS mine
  UNION
  UNWIND $inverse_pairs AS pair
  WITH pair WHERE pair[0] = f.relation
  MATCH (h)<-[:SUBJECT]-(g:Fact)-[:OBJECT]->(t)
  WHERE g.relation = pair[1] AND g.state IN $states
  RETURN g, 'inverse' AS rule, null AS mine_other, null AS mine
  UNION
  UNWIND $inverse_pairs AS pair
  WITH pair WHERE pair[0] = f.relation AND pair[1] IN $functional
  MATCH (t)<-[:SUBJECT]-(g:Fact)-[:OBJECT]->(other:Entity)
  WHERE g.relation = pair[1] AND g.state IN $states AND other <> h
  RETURN g, 'inverse' AS rule, other AS mine_other, h AS mine
}
WITH f, g, rule, mine, mine_other
WHERE g <> f
WITH f, g, rule,
     mine IS NOT NULL AND EXISTS {
       MATCH (mine) ((a:Entity)<-[:SUBJECT]-(c:Fact WHERE c.relation IN $containment AND c.state IN $states)
                     -[:OBJECT]->(b:Entity)){1,3} (mine_other)
     } AS mine_within,
     mine IS NOT NULL AND EXISTS {
       MATCH (mine_other) ((a:Entity)<-[:SUBJECT]-(c:Fact WHERE c.relation IN $containment AND c.state IN $states)
                           -[:OBJECT]->(b:Entity)){1,3} (mine)
     } AS other_within
ORDER BY f.id, g.id
WITH f, collect({candidate: g.id, rule: rule, granularity: mine_within OR other_within,
                 finer: CASE WHEN mine_within THEN f.id WHEN other_within THEN g.id END})[..$max_candidates] AS found
UNWIND found AS c
RETURN f.id AS fact, c.candidate AS candidate, c.rule AS rule, c.granularity AS granularity, c.finer AS finer
