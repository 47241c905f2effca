// Browser guide: the PageRank neighbourhood of a question's seed entities. $seeds: entity names
// (canonical or alias) or ids. The region is the seeds, every entity within $hops (1 or 2) facts of
// them (facts in $fact_states) and the passages mentioning those entities. Personalised PageRank
// (GDS, restart 0.5 as in retrieval) runs from the seeds on a temporary projection of that region,
// one undirected edge per fact between two entities and per mention; the projection is dropped in
// the same query. One row per ranked node, best first; the graph view adds the facts between them.
// :params {space: "demo", seeds: ["Isaac Newton"], hops: 2, fact_states: ["active", "pending"], top: 15}
MATCH (seed:Entity {space: $space})
WHERE seed.id IN $seeds OR seed.name IN $seeds OR any(alias IN seed.aliases WHERE alias IN $seeds)
WITH collect(seed) AS seeds, 'browser_ppr_' + $space AS graph
CALL (graph) { CALL gds.graph.drop(graph, false) YIELD graphName RETURN count(*) AS stale }
CALL (seeds) {
  UNWIND seeds AS seed
  MATCH (seed)((:Entity)<-[:SUBJECT|OBJECT]-(f:Fact WHERE f.state IN $fact_states)-[:SUBJECT|OBJECT]->(:Entity)){0,2}
        (reached:Entity)
  WHERE size(f) <= $hops
  RETURN collect(DISTINCT reached) AS region
}
CALL (region) {
  UNWIND region AS a
  MATCH (a)<-[:SUBJECT]-(f:Fact)-[:OBJECT]->(b:Entity)
  WHERE f.state IN $fact_states AND b IN region
  RETURN a AS source, b AS target
  UNION ALL
  UNWIND region AS e
  MATCH (p:Passage)-[:MENTIONS]->(e)
  RETURN p AS source, e AS target
  UNION ALL
  UNWIND region AS e  // seeds without facts still get a node
  RETURN e AS source, null AS target
}
WITH seeds, graph, region, gds.graph.project(graph, source, target, {}, {undirectedRelationshipTypes: ['*']}) AS projected
CALL gds.pageRank.stream(graph, {sourceNodes: seeds, dampingFactor: 0.5, concurrency: 1})
YIELD nodeId, score
WITH seeds, graph, region, gds.util.asNode(nodeId) AS node, score
ORDER BY score DESC LIMIT toInteger($top)
WITH graph, region, collect([node, score]) AS ranked
CALL (graph) { CALL gds.graph.drop(graph, false) YIELD graphName RETURN count(*) AS dropped }
UNWIND range(0, size(ranked) - 1) AS rank
WITH region, rank + 1 AS rank, ranked[rank][0] AS node, ranked[rank][1] AS score
RETURN rank, CASE WHEN node:Passage THEN 'passage' ELSE 'entity' END AS kind,
       coalesce(node.name, node.title) AS name, score, node,
       COLLECT { MATCH (node)<-[:SUBJECT]-(f:Fact)-[:OBJECT]->(other:Entity)
                 WHERE f.state IN $fact_states AND other IN region RETURN f } AS facts
ORDER BY rank
