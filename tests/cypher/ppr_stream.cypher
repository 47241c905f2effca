MATCH (n:Probe {space: $space}) WHERE n.name IN keys($seeds)
WITH collect([n, $seeds[n.name]]) AS sources
CALL gds.pageRank.stream($graph, {sourceNodes: sources, dampingFactor: $damping, tolerance: 1e-9, maxIterations: 100})
YIELD nodeId, score
RETURN gds.util.asNode(nodeId).name AS name, score
ORDER BY score DESC
