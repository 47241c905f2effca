// Top hits of the Fact, Schema and Passage vector indexes in one space, one statement for all
// layers. Each entry of $layers names a layer, its index, how many hits to ask the index for
// (fetch), how many to keep (k) and the states allowed (null: any). The indexes are shared by all
// spaces and hold every state, so each layer over-fetches and filters; `scanned` is how many hits the
// index gave, so the caller can tell "fewer than k exist" (scanned < fetch) from "ask for more".
// Neo4j scores cosine as (1 + cos) / 2; we return cos.
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
RETURN layer.name AS layer, scanned, rows
