// Entities by PageRank on the space's entity graph (GDS). Three steps, as in health/:
//   1. health/project_entity_graph (:params {space: "demo", graph: "analytics_demo"})
//   2. this statement           (:param concurrency => 4, :param limit => 50)
//   3. admin/drop_graph          (:param name => "analytics_demo")
// The projection is undirected and simple: one edge per pair of entities some fact links.
CALL gds.pageRank.stream($graph, {concurrency: $concurrency})
YIELD nodeId, score
WITH gds.util.asNode(nodeId) AS e, score
ORDER BY score DESC, e.name
LIMIT toInteger($limit)
RETURN e.name AS name, e.type AS type, score
