// The entity graph of a space as a temporary GDS projection: every Entity (so isolated ones stay as
// nodes of degree 0), and one undirected relationship per pair of distinct entities a fact links
// (pairs taken once, elementId(a) < elementId(b), so parallel facts do not become parallel edges:
// localClusteringCoefficient copes with those, but gds.degree would count each one).
MATCH (a:Entity {space: $space})
OPTIONAL MATCH (a)<-[:SUBJECT|OBJECT]-(:Fact)-[:SUBJECT|OBJECT]->(b:Entity {space: $space})
WHERE elementId(a) < elementId(b)
WITH DISTINCT a, b
RETURN gds.graph.project($graph, a, b, {}, {undirectedRelationshipTypes: ['*']}) AS projection
