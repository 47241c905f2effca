// Personalised PageRank with weighted seeds; restart probability = 1 - dampingFactor.
// Exact top-k per kind without resolving every scored node: only the $candidates best nodes are
// looked up. When they hold >= k passages (>= m entities) those are the global top k, since every
// node left out scores lower; otherwise the caller asks again with more candidates. `mass`: the
// summed score of the kind's nodes among those candidates (all of them when considered < $candidates).
// Ties go to the lower id, as in the local engine (ppr_all.cypher), except across the cut at $candidates.
CALL () {
  UNWIND $entity_seeds AS s MATCH (n:Entity {space: $space, id: s[0]}) RETURN n, s[1] AS w
  UNION ALL
  UNWIND $type_seeds AS s MATCH (n:Type {space: $space, id: s[0]}) RETURN n, s[1] AS w
  UNION ALL
  UNWIND $passage_seeds AS s MATCH (n:Passage {space: $space, id: s[0]}) RETURN n, s[1] AS w
}
WITH collect([n, w]) AS sources
CALL gds.pageRank.stream($graph, {sourceNodes: sources, dampingFactor: $damping, relationshipWeightProperty: 'weight',
                                  maxIterations: $iterations, tolerance: $tolerance, concurrency: $concurrency,
                                  logProgress: false})
YIELD nodeId, score
WITH nodeId, score WHERE score > 0
ORDER BY score DESC LIMIT $candidates
WITH collect([nodeId, score]) AS best
UNWIND best AS b
WITH size(best) AS considered, gds.util.asNode(b[0]) AS node, b[1] AS score
WHERE node:Passage OR node:Entity
WITH considered, node, score, CASE WHEN node:Passage THEN 'passage' ELSE 'entity' END AS kind
ORDER BY score DESC, node.id
WITH considered, kind, collect([node, score]) AS ranked, sum(score) AS mass
WITH considered, kind, mass, size(ranked) AS found, ranked[0..CASE kind WHEN 'passage' THEN $top_k ELSE $top_m END] AS top
RETURN kind, considered, found, mass,
       [x IN top | {id: x[0].id, name: coalesce(x[0].name, x[0].title), score: x[1], text: x[0].text}] AS top
