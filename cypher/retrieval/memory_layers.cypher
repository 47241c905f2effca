// One round trip for what a query needs of the memory: its write version, the PPR projections of this
// space (names starting with $prefix), and the top hits of the Fact, Schema and Passage vector indexes.
// Each entry of $layers (empty: the version and projections alone) names a layer, its index, how many
// hits to ask the index for (fetch), how many to keep (k) and the states allowed (null: any). The
// indexes are shared by all spaces and hold every state, so each layer over-fetches and filters;
// `scanned` is how many hits the index gave, so the caller can tell "fewer than k exist" (scanned <
// fetch) from "ask for more". Neo4j scores cosine as (1 + cos) / 2; we return cos.
OPTIONAL MATCH (m:MemoryState {space: $space})
WITH coalesce(m.version, 0) AS version
CALL () {
  CALL gds.graph.list() YIELD graphName
  WHERE graphName STARTS WITH $prefix
  RETURN collect(graphName) AS graphs
}
CALL () {
  UNWIND $layers AS layer
  CALL (layer) {
    CALL db.index.vector.queryNodes(layer.index, layer.fetch, $vector) YIELD node, score
    WITH collect([node, 2 * score - 1]) AS hits
    CALL (hits, layer) {
      UNWIND hits AS hit
      WITH hit[0] AS n, hit[1] AS score
      WHERE n.space = $space AND (layer.states IS NULL OR n.state IN layer.states)
      WITH n, score ORDER BY score DESC
      WITH collect([n, score])[..layer.k] AS top
      UNWIND top AS t
      WITH t[0] AS n, t[1] AS score
      RETURN collect({id: n.id, score: score, text: n.text, title: n.title, head_type: n.head_type,
                      relation: n.relation, tail_type: n.tail_type,
                      head_id: head(COLLECT { MATCH (n)-[:SUBJECT]->(h:Entity) RETURN h.id }),
                      tail_id: head(COLLECT { MATCH (n)-[:OBJECT]->(o:Entity) RETURN o.id })}) AS rows
    }
    RETURN size(hits) AS scanned, rows
  }
  RETURN collect({layer: layer.name, scanned: scanned, rows: rows}) AS layers
}
RETURN version, graphs, layers
