// Multi-layer retrieval in one round trip: top facts (with subject and object), schemas and passages
// by cosine from the three vector indexes of one space, plus the memory's write version and whether
// the PPR projection for that version exists. Neo4j scores cosine as (1 + cos) / 2.
// The indexes are shared by all spaces and hold every state, so each layer over-fetches ($fetch_*)
// and filters; *_scanned says how many index hits there were, so the caller can tell "fewer than k
// exist" (scanned < fetch) from "ask the index for more".
OPTIONAL MATCH (m:MemoryState {space: $space})
WITH coalesce(m.version, 0) AS version
CALL gds.graph.exists($graph_prefix + toString(version) + $graph_suffix) YIELD exists
CALL (*) {
  CALL db.index.vector.queryNodes('fact_embedding', $fetch_facts, $vector) YIELD node, score
  WITH collect([node, 2 * score - 1]) AS hits
  CALL (hits) {
    UNWIND hits AS hit
    WITH hit[0] AS f, hit[1] AS score
    WHERE f.space = $space AND f.state IN $fact_states
    WITH f, score ORDER BY score DESC LIMIT $k_facts
    MATCH (f)-[:SUBJECT]->(h:Entity), (f)-[:OBJECT]->(t:Entity)
    RETURN collect({id: f.id, text: f.text, score: score, head_id: h.id, tail_id: t.id}) AS facts
  }
  RETURN size(hits) AS facts_scanned, facts
}
CALL (*) {
  CALL db.index.vector.queryNodes('schema_embedding', $fetch_schemas, $vector) YIELD node, score
  WITH collect([node, 2 * score - 1]) AS hits
  CALL (hits) {
    UNWIND hits AS hit
    WITH hit[0] AS s, hit[1] AS score
    WHERE s.space = $space AND s.state IN $schema_states
    WITH s, score ORDER BY score DESC LIMIT $k_schemas
    RETURN collect({id: s.id, head_type: s.head_type, relation: s.relation, tail_type: s.tail_type,
                    score: score}) AS schemas
  }
  RETURN size(hits) AS schemas_scanned, schemas
}
CALL (*) {
  CALL db.index.vector.queryNodes('passage_embedding', $fetch_passages, $vector) YIELD node, score
  WITH collect([node, 2 * score - 1]) AS hits
  CALL (hits) {
    UNWIND hits AS hit
    WITH hit[0] AS p, hit[1] AS score
    WHERE p.space = $space
    WITH p, score ORDER BY score DESC LIMIT $k_passages
    RETURN collect({id: p.id, title: p.title, text: p.text, score: score}) AS passages
  }
  RETURN size(hits) AS passages_scanned, passages
}
RETURN version, exists, facts, facts_scanned, schemas, schemas_scanned, passages, passages_scanned
