MATCH (s:Probe {space: $space})-[:LINK]->(t:Probe)
WITH gds.graph.project($graph, s, t, {}, {undirectedRelationshipTypes: ['*']}) AS g
RETURN g.nodeCount AS nodes, g.relationshipCount AS rels
