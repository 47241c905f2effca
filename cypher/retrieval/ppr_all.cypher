// Personalised PageRank with weighted seeds (restart probability = 1 - dampingFactor) for memgraphrag's
// fusion: the top-k passages, the top-m entities and `mass`, the summed score of every passage of the
// space (retrieval/fusion.py divides by it; ppr.cypher resolves only the best nodes, so its mass misses
// the tail). Passages are told by their node ids (one index read) rather than by resolving every scored
// node (~75 ms instead of ~130 on MuSiQue's 20k nodes); only the top passages and the best other nodes
// are resolved. Ties go to the lower id, as in the local engine, except across the cut at $top_k / $top_m.
CALL () {
  UNWIND $entity_seeds AS s MATCH (n:Entity {space: $space, id: s[0]}) RETURN n, s[1] AS w
  UNION ALL
  UNWIND $type_seeds AS s MATCH (n:Type {space: $space, id: s[0]}) RETURN n, s[1] AS w
  UNION ALL
  UNWIND $passage_seeds AS s MATCH (n:Passage {space: $space, id: s[0]}) RETURN n, s[1] AS w
}
WITH collect([n, w]) AS sources
CALL () {
  MATCH (p:Passage {space: $space})
  RETURN collect(id(p)) AS passage_keys
}
CALL () {
  MATCH (t:Type {space: $space})
  RETURN count(t) AS types
}
CALL gds.pageRank.stream($graph, {sourceNodes: sources, dampingFactor: $damping, relationshipWeightProperty: 'weight',
                                  maxIterations: $iterations, tolerance: $tolerance, concurrency: $concurrency,
                                  logProgress: false})
YIELD nodeId, score
WITH nodeId, score, passage_keys, types WHERE score > 0
WITH nodeId, score, types, nodeId IN passage_keys AS passage
ORDER BY score DESC
WITH passage, types, collect([nodeId, score]) AS ranked, sum(score) AS mass
// the other nodes are entities and types: the best $top_m + $types of them hold the top-m entities
WITH passage, mass, size(ranked) AS found, ranked[0..CASE WHEN passage THEN $top_k ELSE $top_m + types END] AS best
UNWIND best AS b
WITH passage, mass, found, gds.util.asNode(b[0]) AS node, b[1] AS score
WHERE passage OR node:Entity
WITH passage, mass, found, node, score ORDER BY score DESC, node.id
WITH CASE WHEN passage THEN 'passage' ELSE 'entity' END AS kind, mass, found, collect([node, score]) AS ranked
RETURN kind, found, CASE kind WHEN 'passage' THEN mass ELSE 0.0 END AS mass,
       [x IN ranked[0..CASE kind WHEN 'passage' THEN $top_k ELSE $top_m END] |
        {id: x[0].id, name: coalesce(x[0].name, x[0].title), score: x[1], text: x[0].text}] AS top
