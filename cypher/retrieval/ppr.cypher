// Personalised PageRank with weighted seeds; restart probability = 1 - dampingFactor.
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
WITH gds.util.asNode(nodeId) AS node, score
WHERE score > 0 AND (node:Passage OR node:Entity)
WITH node, score, CASE WHEN node:Passage THEN 'passage' ELSE 'entity' END AS kind
ORDER BY score DESC
WITH kind, collect({id: node.id, name: coalesce(node.name, node.title), score: score}) AS ranked
RETURN kind, ranked[0..CASE kind WHEN 'passage' THEN $top_k ELSE $top_m END] AS top
